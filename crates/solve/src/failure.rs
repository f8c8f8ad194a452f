//! Why a solve ended without a schedule, as a type: [`Failure`] travels beside the
//! [`Solution`](makespan_model::solution::Solution) ([`solve_detailed`](crate::solve_detailed)),
//! so a caller matches on it instead of parsing the solution's `reason`, which is this value's
//! text, word for word (the solution files do not change).

use std::path::PathBuf;

use makespan_model::instance::ValidationError;
use makespan_model::solution::Status;

use crate::exact::milp::{MilpError, MAX_VARIABLES};
use crate::problem::Refusal;

/// Why a solve has no schedule: its status is `infeasible` ([`Failure::Infeasible`]) or
/// `error` (every other case).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Failure {
    /// The instance breaks the model's rules (every problem listed).
    #[error("invalid instance: {0}")]
    Invalid(ValidationError),
    /// [`SolveOptions::time_limit`](crate::SolveOptions::time_limit) is negative or not a
    /// number.
    #[error("the time limit must be a number of seconds ≥ 0, not {0}")]
    TimeLimit(f64),
    /// The instance uses a feature the solver does not handle yet.
    #[error("not supported yet: {0}")]
    Unsupported(String),
    /// Proven: no schedule exists; the text says by what (a cycle of lags, a search, a
    /// model).
    #[error("{0}")]
    Infeasible(String),
    /// The cancel token was tripped before any schedule was found.
    #[error("the solve was cancelled")]
    Cancelled,
    /// `heuristic_only`, and the heuristics found no schedule.
    #[error("the heuristics found no schedule that meets every maximum lag; run without --heuristic-only")]
    HeuristicOnly,
    /// Preemption would need more unit chunks than
    /// [`SolveOptions::max_chunks`](crate::SolveOptions::max_chunks), and no schedule without
    /// preemption was found.
    #[error("preemptible activities would become {chunks} unit chunks (limit {limit}, --max-chunks), and no schedule without preemption was found")]
    TooManyChunks {
        /// The chunks preemption would need.
        chunks: u64,
        /// The limit.
        limit: u64,
    },
    /// The time-indexed MILP would be too large to build, and no schedule was found.
    #[error("not proven: the time-indexed MILP on a horizon of {horizon} time units would need {variables} variables or capacity rows (more than {max})", max = MAX_VARIABLES)]
    TooLarge {
        /// The horizon of the model.
        horizon: i64,
        /// The variables (or capacity rows, the larger count) it would need.
        variables: u64,
    },
    /// A limit (time, nodes) or the cancel token stopped the exact methods before any
    /// schedule was found; the text says which, and where.
    #[error("no schedule found: {0}")]
    Stopped(String),
    /// HiGHS refused the model or an option, or failed while solving.
    #[error("{0}")]
    Highs(String),
    /// `export_lp`: the LP file could not be written.
    #[error("{}: {message}", path.display())]
    LpFile {
        /// The LP file (or its folder).
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// No exact method takes the problem.
    #[error("no exact method applies to this problem")]
    NoExactMethod,
    /// A bug: the solver's schedule failed the independent verifier, or needs agents that
    /// do not exist. It is never returned as a schedule.
    #[error("internal error: {0}")]
    Internal(String),
}

impl Failure {
    /// The status of a solution that ends this way.
    pub fn status(&self) -> Status {
        match self {
            Failure::Infeasible(_) => Status::Infeasible,
            _ => Status::Error,
        }
    }
}

impl From<Refusal> for Failure {
    fn from(refusal: Refusal) -> Failure {
        match refusal {
            Refusal::Infeasible(why) => Failure::Infeasible(why),
            Refusal::Unsupported(what) => Failure::Unsupported(what),
        }
    }
}

impl From<MilpError> for Failure {
    fn from(error: MilpError) -> Failure {
        match error {
            MilpError::Highs(message) => Failure::Highs(message),
            MilpError::LpFile { path, message } => Failure::LpFile { path, message },
        }
    }
}
