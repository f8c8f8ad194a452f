//! The solver of makespan: an [`Instance`](makespan_model::instance::Instance) in, a
//! verified [`Solution`](makespan_model::solution::Solution) out.
//!
//! The pipeline ([`solve`]): validate, compile the problem, lower bounds, heuristics for a
//! schedule, then the exact methods (searches over time, a time-indexed MILP with HiGHS)
//! when the bounds leave a gap. `optimal` is reported only when a lower bound meets the
//! schedule, and every schedule passes the independent verifier (`makespan_verify`) before
//! it is returned. This is the only crate of makespan that links HiGHS, and only one of its
//! files touches it.
//!
//! The public API is [`solve`], [`SolveOptions`], [`Cancel`], [`check::cross_check`]
//! (`solve --check`) and [`certify::certify`] (`solve --certify`). The stages themselves are public for benchmarks and tests only, and
//! hidden from these docs: they change whenever the solver does.

#![warn(missing_docs)]

mod assign;
#[doc(hidden)]
pub mod bounds;
mod cancel;
pub mod certify;
pub mod check;
#[doc(hidden)]
pub mod exact;
#[doc(hidden)]
pub mod heuristics;
mod pipeline;
#[doc(hidden)]
pub mod problem;

pub use cancel::Cancel;
pub use pipeline::{solve, SolveOptions, MAX_CHUNKS};
