//! The MILP behind [`ExactMethod`]: on the horizon `upper − 1` (is there a shorter
//! schedule?) or, without a heuristic schedule, on a horizon every feasible schedule meets.

use makespan_model::solution::{BoundSource, Status};

use super::{solve, MilpOutcome, MilpSettings};
use crate::bounds::LowerBound;
use crate::exact::{safe_horizon, ExactMethod, Outcome};
use crate::heuristics::Heuristic;
use crate::problem::Problem;
use crate::{Failure, Run, SolveOptions};

/// The time-indexed MILP, solved by HiGHS.
pub(crate) struct Milp;

impl ExactMethod for Milp {
    fn name(&self) -> &'static str {
        "milp"
    }

    fn applies(&self, _: &Problem) -> bool {
        true
    }

    fn solve(
        &self,
        problem: &Problem,
        lower: LowerBound,
        heuristic: Option<&Heuristic>,
        options: &SolveOptions,
        run: &Run,
    ) -> Option<Outcome> {
        Some(exact(
            problem,
            options,
            run,
            heuristic.map(|h| h.starts.clone()),
            lower,
        ))
    }
}

/// Runs the MILP on the horizon `upper − 1` (a shorter schedule exists?) or, without a
/// heuristic schedule, on a horizon every feasible instance fits in.
fn exact(
    problem: &Problem,
    options: &SolveOptions,
    run: &Run,
    heuristic: Option<Vec<i64>>,
    lower: LowerBound,
) -> Outcome {
    let settings = MilpSettings {
        time_limit: run.seconds_left(options.time_limit),
        threads: options.threads,
        node_limit: options.node_limit,
        export_lp: options.export_lp.clone(),
        cancel: run.cancel.clone(),
    };
    let sink = problem.network.sink();
    let upper = heuristic.as_ref().map(|s| s[sink]);
    let horizon = upper.map_or_else(|| safe_horizon(problem), |u| u - 1);
    let milp_bound = |value: i64| {
        lower.max(LowerBound {
            value,
            source: BoundSource::Milp,
        })
    };
    let outcome = |status, starts, bound, nodes| Outcome {
        status,
        starts,
        bound: Some(bound),
        reason: None,
        failure: None,
        method: "milp".into(),
        milp_ran: true,
        nodes: Some(nodes),
    };
    match solve(problem, horizon, lower.value, &settings) {
        Err(error) => Outcome {
            milp_ran: true,
            ..Outcome::failed(error.into())
        },
        Ok(MilpOutcome::Infeasible { nodes }) => match heuristic {
            // Nothing shorter than the heuristic's schedule exists: it is optimal.
            Some(starts) => Outcome {
                method: "heuristic+milp".into(),
                ..outcome(Status::Optimal, Some(starts), milp_bound(horizon + 1), nodes)
            },
            None => Outcome {
                failure: Some(Failure::Infeasible(format!(
                    "HiGHS proved that no schedule ends by {horizon}, which every feasible schedule of this instance can meet (the sum over activities of the longer of duration and largest outgoing lag, after the latest release)"
                ))),
                bound: None,
                ..outcome(Status::Infeasible, None, lower, nodes)
            },
        },
        Ok(MilpOutcome::Solved {
            starts,
            makespan,
            bound,
            proven,
            nodes,
        }) => {
            // Origin at 0 and sink at the makespan, like every other node list.
            let mut full = starts;
            full.extend([0, makespan]);
            let bound = milp_bound(bound);
            if proven || bound.value >= makespan {
                outcome(Status::Optimal, Some(full), bound, nodes)
            } else {
                Outcome {
                    reason: Some(not_proven(options, run, nodes)),
                    ..outcome(Status::Feasible, Some(full), bound, nodes)
                }
            }
        }
        Ok(MilpOutcome::TooLarge { variables }) => {
            let too_large = Failure::TooLarge { horizon, variables };
            let (status, reason, failure) = match heuristic {
                Some(_) => (Status::Feasible, Some(too_large.to_string()), None),
                None => (Status::Error, None, Some(too_large)),
            };
            Outcome {
                status,
                starts: heuristic,
                bound: Some(lower),
                reason,
                failure,
                method: "heuristic".into(),
                milp_ran: false,
                nodes: None,
            }
        }
        Ok(MilpOutcome::Stopped { bound, nodes }) => {
            let bound = bound.map_or(lower, |b| milp_bound(b.min(horizon + 1)));
            match heuristic {
                Some(starts) => Outcome {
                    method: "heuristic".into(),
                    reason: Some(not_proven(options, run, nodes)),
                    ..outcome(Status::Feasible, Some(starts), bound, nodes)
                },
                None => Outcome {
                    failure: Some(Failure::Stopped(stopped_by(options, run, nodes))),
                    ..outcome(Status::Error, None, bound, nodes)
                },
            }
        }
    }
}

/// Why a schedule is `feasible` but not `optimal` after the MILP stopped early.
fn not_proven(options: &SolveOptions, run: &Run, nodes: u64) -> String {
    format!(
        "not proven optimal: {}; lower_bound and gap say how far from optimal it can be",
        stopped_by(options, run, nodes)
    )
}

/// What stopped HiGHS: the caller's cancel token, the node limit when it was reached, else
/// the time limit.
fn stopped_by(options: &SolveOptions, run: &Run, nodes: u64) -> String {
    if run.cancel.is_cancelled() {
        return format!("the MILP was cancelled after {nodes} nodes");
    }
    match options.node_limit {
        Some(limit) if nodes >= limit => {
            format!("the MILP stopped at the node limit of {limit} (--node-limit)")
        }
        _ => format!(
            "the MILP stopped at the time limit of {} s (--time-limit) after {nodes} nodes",
            options.time_limit
        ),
    }
}
