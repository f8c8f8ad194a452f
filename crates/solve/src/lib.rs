//! The solver of makespan: an [`Instance`](makespan_model::instance::Instance) in, a
//! verified [`Solution`] out.
//!
//! The pipeline ([`solve`]): validate, compile the problem, lower bounds, heuristics for a
//! schedule, then the exact methods (searches over time, a constraint model with Pumpkin, a
//! time-indexed MILP with HiGHS) when the bounds leave a gap. `optimal` is reported only
//! when a lower bound meets the schedule, and every schedule passes the independent
//! verifier (`makespan_verify`) before it is returned. This is the only crate of makespan
//! that links HiGHS, and only one of its files touches it.
//!
//! The API, and nothing else (the stages stay inside the crate; its own tests and benches
//! reach them through the `internals` feature, which only they turn on):
//! - solving: [`solve`], and [`solve_detailed`] with a [`Run`] (a [`Cancel`] token) and the
//!   typed [`Failure`] beside the solution;
//! - settings: [`SolveOptions`] (what a user sets) and [`Run`] (one run's own state);
//! - the exact methods, in the pipeline's order: [`exact_methods`];
//! - statuses and reasons: [`Status`], [`Failure`];
//! - evidence: [`check::cross_check`] (`solve --check`) and [`certify::certify`]
//!   (`solve --certify`).

// The API's docs; the stages that `internals` exposes to the crate's own tests promise
// nothing, so a build with it (tests only) does not ask for theirs.
#![cfg_attr(not(feature = "internals"), warn(missing_docs))]

mod assign;
mod bounds;
mod cancel;
pub mod certify;
pub mod check;
mod exact;
mod failure;
mod heuristics;
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod internals;
mod options;
mod pipeline;
mod problem;

pub use cancel::Cancel;
pub use exact::{exact_methods, ExactMethodInfo, Stage};
pub use failure::Failure;
pub use makespan_model::solution::{Solution, Status};
pub use options::{check_threads, check_time_limit, Run, SolveOptions, MAX_CHUNKS};
pub use pipeline::{solve, solve_detailed};

/// Stack of a thread that runs a solve: HiGHS recurses deeply on some models, and the 2 MiB
/// default is not enough. It is address space, not memory, until used.
pub const THREAD_STACK: usize = exact::milp::STACK;
