//! The solver of makespan: an [`Instance`](makespan_model::instance::Instance) in, a
//! verified [`Solution`] out.
//!
//! The pipeline ([`solve`]): validate, compile the problem, lower bounds, heuristics for a
//! schedule, then the exact methods (searches over time, a time-indexed MILP with HiGHS)
//! when the bounds leave a gap. `optimal` is reported only when a lower bound meets the
//! schedule, and every schedule passes the independent verifier (`makespan_verify`) before
//! it is returned. This is the only crate of makespan that links HiGHS, and only one of its
//! files touches it.
//!
//! The public API is [`solve`] and [`solve_detailed`] (with the typed [`Failure`]),
//! [`SolveOptions`] (what a user sets), [`Run`] (one run's [`Cancel`] token), the exact
//! methods' order ([`exact_methods`]), [`check::cross_check`] (`solve --check`) and
//! [`certify::certify`] (`solve --certify`). The stages themselves are public for benchmarks
//! and tests only, and hidden from these docs: they change whenever the solver does.

#![warn(missing_docs)]

mod assign;
#[doc(hidden)]
pub mod bounds;
mod cancel;
pub mod certify;
pub mod check;
#[doc(hidden)]
pub mod exact;
mod failure;
#[doc(hidden)]
pub mod heuristics;
mod options;
mod pipeline;
#[doc(hidden)]
pub mod problem;

pub use cancel::Cancel;
pub use exact::{exact_methods, ExactMethodInfo, Stage};
pub use failure::Failure;
pub use makespan_model::solution::{Solution, Status};
pub use options::{Run, SolveOptions, MAX_CHUNKS};
pub use pipeline::{solve, solve_detailed};
