//! The constraint model behind [`ExactMethod`]: minimise on the horizon `upper − 1` (is
//! there a schedule shorter than the heuristics'?).

use makespan_model::solution::{BoundSource, Status};

use super::bound::{refute_below, Progress, Refuted};
use super::sgs::Direction;
use super::{applies, solve_racing, CpOutcome, Strategy};
use crate::bounds::LowerBound;
use crate::exact::{safe_horizon, ExactMethod, Outcome};
use crate::heuristics::Heuristic;
use crate::problem::Problem;
use crate::{Failure, Run, SolveOptions};

/// Whether the method takes `problem` in this run. `--export-lp` asks for the MILP's
/// model, and `--node-limit` bounds the MILP's branch and bound: both ask for the MILP, so
/// the method leaves the instance to it.
pub(crate) fn runs(problem: &Problem, options: &SolveOptions, run: &Run) -> bool {
    run.cp && options.export_lp.is_none() && options.node_limit.is_none() && applies(problem)
}

/// Pumpkin on the constraint model, searching by `strategy`.
pub(crate) struct Cp {
    pub(crate) strategy: Strategy,
}

impl ExactMethod for Cp {
    fn name(&self) -> &'static str {
        "cp"
    }

    fn applies(&self, problem: &Problem) -> bool {
        applies(problem)
    }

    fn solve(
        &self,
        problem: &Problem,
        lower: LowerBound,
        heuristic: Option<&Heuristic>,
        options: &SolveOptions,
        run: &Run,
    ) -> Option<Outcome> {
        self.solve_racing(problem, lower, heuristic, options, run, None)
    }
}

impl Cp {
    /// [`ExactMethod::solve`], sharing `progress` with a search racing it (module `bound`).
    pub(crate) fn solve_racing(
        &self,
        problem: &Problem,
        lower: LowerBound,
        heuristic: Option<&Heuristic>,
        options: &SolveOptions,
        run: &Run,
        progress: Option<&Progress>,
    ) -> Option<Outcome> {
        if !runs(problem, options, run) {
            return None;
        }
        let upper = heuristic.map(|h| h.makespan(problem));
        let horizon = upper.map_or_else(|| safe_horizon(problem), |u| u - 1);
        let proven = |value| {
            Some(lower.max(LowerBound {
                value,
                source: BoundSource::Cp,
            }))
        };
        let outcome = |status, starts: Vec<i64>, bound, method: &str| Outcome {
            status,
            starts: Some(starts),
            bound,
            reason: None,
            failure: None,
            method: method.into(),
            milp_ran: false,
            nodes: None,
        };
        // From the heuristic's makespan down to the bound: where the bound is already the
        // optimum (energetic reasoning often finds it), the search only has to reach it.
        // Times beyond 32 bits: the MILP's turn.
        let (left, limit) = (run.seconds_left(options.time_limit), options.time_limit);
        Some(match solve_racing(
            problem,
            lower.value,
            horizon,
            heuristic.map(|h| &h.starts[..]),
            left,
            &run.cancel,
            self.strategy,
            progress,
        )? {
            CpOutcome::Optimal {
                mut starts,
                makespan,
            } => {
                starts.extend([0, makespan]);
                outcome(Status::Optimal, starts, proven(makespan), "cp")
            }
            CpOutcome::NoneByHorizon => match heuristic {
                Some(h) => outcome(
                    Status::Optimal,
                    h.starts.clone(),
                    proven(horizon + 1),
                    "heuristic+cp",
                ),
                None => Outcome::failed(Failure::Infeasible(
                    format!("Pumpkin proved that no schedule ends by {horizon}, which every feasible schedule of this instance can meet"),
                )),
            },
            CpOutcome::Stopped { best } => {
                let stopped = stopped(run, limit);
                let (starts, method) = match (best, heuristic) {
                    (Some((mut starts, makespan)), _) => {
                        starts.extend([0, makespan]);
                        (starts, "cp")
                    }
                    (None, Some(h)) => (h.starts.clone(), "heuristic"),
                    (None, None) => return Some(Outcome::failed(Failure::Stopped(stopped))),
                };
                Outcome {
                    reason: Some(format!(
                        "not proven optimal: {stopped}; lower_bound and gap say how far from optimal it can be"
                    )),
                    ..outcome(Status::Feasible, starts, Some(lower), method)
                }
            }
        })
    }
}

/// Why Pumpkin stopped without a proof.
fn stopped(run: &Run, limit: f64) -> String {
    if run.cancel.is_cancelled() {
        "Pumpkin was cancelled".to_string()
    } else {
        format!("Pumpkin stopped at the time limit of {limit} s (--time-limit)")
    }
}

/// The constraint model refuting the makespans below the heuristics' schedule from below,
/// sharing `progress` with the search that shortens it (module `bound`): an optimum where
/// it proves one alone, otherwise its bound (which the race joins with the other's
/// schedule). `None` without a heuristic schedule or where the model does not run.
pub(crate) fn refute(
    problem: &Problem,
    lower: LowerBound,
    heuristic: Option<&Heuristic>,
    options: &SolveOptions,
    run: &Run,
    progress: &Progress,
) -> Option<Outcome> {
    let h = heuristic?;
    if !runs(problem, options, run) {
        return None;
    }
    let upper = h.makespan(problem);
    let (left, limit) = (run.seconds_left(options.time_limit), options.time_limit);
    let bound = |value| {
        Some(lower.max(LowerBound {
            value,
            source: BoundSource::Cp,
        }))
    };
    let outcome = |status, starts, bound, method: &str, reason| Outcome {
        status,
        starts: Some(starts),
        bound,
        reason,
        failure: None,
        method: method.into(),
        milp_ran: false,
        nodes: None,
    };
    Some(
        match refute_below(
            problem,
            lower.value,
            left,
            &run.cancel,
            progress,
            Direction::Backward,
        )? {
            Refuted::Optimal {
                mut starts,
                makespan,
            } => {
                starts.extend([0, makespan]);
                outcome(Status::Optimal, starts, bound(makespan), "cp", None)
            }
            Refuted::Below { lower, .. } if lower >= upper => outcome(
                Status::Optimal,
                h.starts.clone(),
                bound(upper),
                "heuristic+cp",
                None,
            ),
            Refuted::Below { lower, best } => {
                let (starts, method) = match best {
                    Some((mut starts, makespan)) => {
                        starts.extend([0, makespan]);
                        (starts, "cp")
                    }
                    None => (h.starts.clone(), "heuristic"),
                };
                let reason = format!(
                    "not proven optimal: {}; lower_bound and gap say how far from optimal it can be",
                    stopped(run, limit)
                );
                outcome(Status::Feasible, starts, bound(lower), method, Some(reason))
            }
        },
    )
}
