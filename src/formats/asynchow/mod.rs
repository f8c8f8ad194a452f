//! AsyncHow (Lin et al., ICML 2024): "how to" tasks whose steps have durations and
//! precedences, asked with unlimited agents, so the answer is the critical path.

mod duration;

pub use duration::{parse_duration_text, upstream_duration_reading};
