//! The searches over time behind [`ExactMethod`]: the unit-step search for one agent
//! ([`unit_search`]) and, where it does not apply, the search over one agent's work of any
//! length ([`agent_search`]); where the unit-step search applies the general one adds nothing,
//! so at most one of them runs.

use makespan_model::solution::{BoundSource, Status};

use super::unit_search::SearchOutcome;
use super::{agent_search, safe_horizon, unit_search, ExactMethod, Outcome};
use crate::bounds::LowerBound;
use crate::heuristics::Heuristic;
use crate::problem::Problem;
use crate::{Failure, Run, SolveOptions};

/// [`unit_search`]: one agent, unit steps.
pub(super) struct UnitSearch;

/// [`agent_search`]: one agent, work of any length.
pub(super) struct AgentSearch;

impl ExactMethod for UnitSearch {
    fn name(&self) -> &'static str {
        "unit-search"
    }

    fn applies(&self, problem: &Problem) -> bool {
        unit_search::applies(problem)
    }

    fn solve(
        &self,
        problem: &Problem,
        lower: LowerBound,
        heuristic: Option<&Heuristic>,
        options: &SolveOptions,
        run: &Run,
    ) -> Option<Outcome> {
        let seconds = run.seconds_left(options.time_limit);
        over_time(
            |upper| unit_search::search(problem, upper, seconds, &run.cancel),
            problem,
            lower,
            heuristic,
        )
    }
}

impl ExactMethod for AgentSearch {
    fn name(&self) -> &'static str {
        "agent-search"
    }

    fn applies(&self, problem: &Problem) -> bool {
        agent_search::applies(problem) && !unit_search::applies(problem)
    }

    fn solve(
        &self,
        problem: &Problem,
        lower: LowerBound,
        heuristic: Option<&Heuristic>,
        options: &SolveOptions,
        run: &Run,
    ) -> Option<Outcome> {
        let threads = options.threads.get() as usize;
        let seconds = run.seconds_left(options.time_limit);
        over_time(
            |upper| agent_search::search(problem, upper, seconds, &run.cancel, threads),
            problem,
            lower,
            heuristic,
        )
    }
}

/// A search over time, when it finishes in time: the optimum, or the proof that the
/// heuristic's makespan is one.
fn over_time(
    search: impl FnOnce(i64) -> SearchOutcome,
    problem: &Problem,
    lower: LowerBound,
    heuristic: Option<&Heuristic>,
) -> Option<Outcome> {
    let upper = heuristic.map_or_else(|| safe_horizon(problem) + 1, |h| h.makespan(problem));
    let proven = |value| {
        Some(lower.max(LowerBound {
            value,
            source: BoundSource::Search,
        }))
    };
    let (starts, method, bound) = match search(upper) {
        SearchOutcome::GaveUp => return None,
        SearchOutcome::NoneShorter => match heuristic {
            Some(h) => (h.starts.clone(), "heuristic+search", proven(upper)),
            None => {
                return Some(Outcome::failed(Failure::Infeasible(
                    format!("the exhaustive search found no schedule ending by {}, which every feasible schedule can meet", upper - 1),
                )))
            }
        },
        SearchOutcome::Optimal { mut starts, makespan } => {
            starts.extend([0, makespan]);
            (starts, "search", proven(makespan))
        }
    };
    Some(Outcome {
        status: Status::Optimal,
        starts: Some(starts),
        bound,
        reason: None,
        failure: None,
        method: method.into(),
        milp_ran: false,
        nodes: None,
    })
}
