//! The solver of makespan: an [`Instance`](makespan_model::instance::Instance) in, a
//! verified [`Solution`](makespan_model::solution::Solution) out.
//!
//! The pipeline ([`solve`]): validate, compile ([`problem`]), lower bounds ([`bounds`]),
//! heuristics ([`heuristics`]) for a schedule, then an exact method ([`exact`]) when the bounds
//! leave a gap. Every schedule passes the independent verifier (`makespan_verify`) before it
//! is returned. This is the only crate of makespan that links HiGHS.

mod assign;
pub mod bounds;
mod cancel;
pub mod check;
pub mod exact;
pub mod heuristics;
mod pipeline;
pub mod problem;

pub use cancel::Cancel;
pub use pipeline::{solve, SolveOptions};
