//! What a solve is given, in two types: [`SolveOptions`], what a user sets (limits, threads,
//! outputs), and [`Run`], what belongs to one run rather than to the settings: the caller's
//! [`Cancel`] token, the deadline the pipeline derives from the time limit, and a switch kept
//! for comparisons. The exact methods read both from here, not from the pipeline that calls
//! them.

use std::num::NonZeroU32;
use std::path::PathBuf;
use std::time::Instant;

use crate::Cancel;

/// How to solve: the settings a user chooses (the CLI's flags, the Python keywords).
#[derive(Debug, Clone)]
pub struct SolveOptions {
    /// Wall-clock seconds for one instance, shared by every phase (compiling, bounds,
    /// heuristics, exact methods); when it runs out the best schedule so far is returned as
    /// `feasible`.
    pub time_limit: f64,
    /// Threads per instance: HiGHS's, and the one-agent search over time's; from 2, the
    /// constraint model and the MILP race on threads of their own.
    pub threads: NonZeroU32,
    /// Branch-and-bound nodes the MILP of one instance may explore; `None` for no limit.
    pub node_limit: Option<u64>,
    /// Write the MILP (if one is built) to this LP file.
    pub export_lp: Option<PathBuf>,
    /// Stop after bounds and heuristics: never run the MILP.
    pub heuristic_only: bool,
    /// Unit chunks preemptible activities may become, in all; above it they are scheduled
    /// without preemption (a valid schedule; optimal only where a bound proves it).
    pub max_chunks: u64,
}

/// Default of [`SolveOptions::max_chunks`]: a few hundred times the largest need of the
/// cooking benchmarks' interruptible steps.
pub const MAX_CHUNKS: u64 = 5_000;

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            time_limit: 60.0,
            threads: NonZeroU32::MIN,
            node_limit: None,
            export_lp: None,
            heuristic_only: false,
            max_chunks: MAX_CHUNKS,
        }
    }
}

/// A time limit as a user gives it: seconds, a finite number ≥ 0. The error says what is
/// wrong without naming the flag or keyword (the CLI and Python each name their own).
pub fn check_time_limit(seconds: f64) -> Result<f64, String> {
    match seconds.is_finite() && seconds >= 0.0 {
        true => Ok(seconds),
        false => Err(format!("{seconds} is not a number of seconds ≥ 0, e.g. 60")),
    }
}

/// Threads per instance as a user gives them: at least 1 and at most the number of cores
/// (more only slows HiGHS and the search down, and thousands abort HiGHS).
pub fn check_threads(threads: u64) -> Result<NonZeroU32, String> {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    match u32::try_from(threads).ok().and_then(NonZeroU32::new) {
        None if threads == 0 => Err("at least 1 thread is needed".into()),
        Some(n) if n.get() as usize <= cores => Ok(n),
        _ => Err(format!("{threads}: at most the number of cores ({cores})")),
    }
}

/// One run of the solver, beside its settings: the token that stops it, and (inside the
/// crate) the deadline the pipeline sets from [`SolveOptions::time_limit`]. One `Run` may
/// serve many solves at once (`solve_many`): each sets its own deadline on a copy.
///
/// ```
/// use makespan_solve::{Cancel, Run};
/// let caller = Cancel::new();
/// let run = Run::new(caller.clone());
/// caller.cancel();
/// assert!(run.cancel.is_cancelled());
/// ```
#[derive(Debug, Clone)]
pub struct Run {
    /// Stops the exact searches and HiGHS at their next check once tripped; the solve then
    /// ends like a limit (`feasible` with the best schedule found, or `error`).
    pub cancel: Cancel,
    /// Whether the constraint model (Pumpkin) may take the problems it expresses.
    pub(crate) cp: bool,
    /// When the instance's time runs out; set by the pipeline, `None` until then.
    pub(crate) deadline: Option<Instant>,
}

impl Default for Run {
    fn default() -> Self {
        Run::new(Cancel::new())
    }
}

impl Run {
    /// A run that `cancel` stops.
    pub fn new(cancel: Cancel) -> Run {
        Run {
            cancel,
            cp: true,
            deadline: None,
        }
    }

    /// For comparisons only: the pipeline as it was before the constraint model, which
    /// leaves every problem to the searches and the MILP.
    pub fn without_constraint_model(self) -> Run {
        Run { cp: false, ..self }
    }

    /// Seconds left before the instance's deadline (`time_limit`, the whole limit, when
    /// none is set): the budget of each phase, while messages name `time_limit` itself.
    pub(crate) fn seconds_left(&self, time_limit: f64) -> f64 {
        self.deadline.map_or(time_limit, |d| {
            d.saturating_duration_since(Instant::now()).as_secs_f64()
        })
    }

    /// This run cut to `share` of the seconds left: a first method's slice before the
    /// next one gets the rest.
    pub(crate) fn slice(&self, time_limit: f64, share: f64) -> Run {
        let slice = self.seconds_left(time_limit) * share;
        let deadline = Instant::now() + std::time::Duration::from_secs_f64(slice);
        Run {
            deadline: Some(self.deadline.map_or(deadline, |d| d.min(deadline))),
            ..self.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_and_threads_are_checked_with_the_same_words_for_every_caller() {
        assert_eq!(check_time_limit(2.5), Ok(2.5));
        assert!(check_time_limit(-1.0).unwrap_err().contains("≥ 0"));
        assert!(check_time_limit(f64::NAN).is_err());
        assert_eq!(check_threads(1).map(NonZeroU32::get), Ok(1));
        assert_eq!(check_threads(0).unwrap_err(), "at least 1 thread is needed");
        let err = check_threads(1 << 40).unwrap_err();
        assert!(err.contains("at most the number of cores"), "{err}");
    }
}
