//! Exact methods: each proves an optimum, or that nothing shorter than the heuristics'
//! schedule exists. They sit behind one trait, `ExactMethod`, and the pipeline tries them
//! in the order of two tables, `SEARCHES` then `MODELS`: the first that applies and does
//! not give up decides. The MILP applies to every problem and never gives up, so it closes
//! the second.
//!
//! Why this order (measured on the benchmarks' corpora, see the README's speed tables): the
//! searches over time prove one-agent problems (Recipe2Plan's cook, AsyncTool's assistant)
//! in milliseconds to seconds where the MILP needed minutes, and give up quickly (a time
//! limit or a state budget) where they do not fit; the constraint model proves most of the
//! rest, and the MILP handles everything else. With two threads or more per instance the
//! constraint model and the MILP run side by side instead (`race`).

pub mod agent_search;
pub mod cp;
pub mod milp;
mod race;
mod searches;
pub mod unit_search;

use crate::bounds::LowerBound;
use crate::heuristics::Heuristic;
use crate::problem::Problem;
use crate::SolveOptions;
use makespan_model::solution::Status;

/// An exact method.
pub(crate) trait ExactMethod: Sync {
    /// Whether the method can solve this problem at all.
    fn applies(&self, problem: &Problem) -> bool;

    /// Solves `problem` given a proven `lower` bound and the heuristics' best schedule (if
    /// any), within the options' limits: the outcome, or `None` when the method gave up (the
    /// next method is tried).
    fn solve(
        &self,
        problem: &Problem,
        lower: LowerBound,
        heuristic: Option<&Heuristic>,
        options: &SolveOptions,
    ) -> Option<Outcome>;
}

/// The searches over time, tried first, in this order.
const SEARCHES: [&dyn ExactMethod; 2] = [&searches::UnitSearch, &searches::AgentSearch];

/// The methods on a model of the whole problem, tried next, in this order (or raced).
const MODELS: [&dyn ExactMethod; 2] = [&cp::method::Cp, &milp::method::Milp];

/// The first outcome of a method of `SEARCHES`, then of `MODELS`, that applies and does
/// not give up; with two threads or more, `MODELS` race where the constraint model runs.
pub(crate) fn solve(
    problem: &Problem,
    lower: LowerBound,
    heuristic: Option<&Heuristic>,
    options: &SolveOptions,
) -> Outcome {
    let racing = options.threads.get() >= 2 && cp::method::runs(problem, options);
    SEARCHES
        .iter()
        .filter(|m| m.applies(problem))
        .find_map(|m| m.solve(problem, lower, heuristic, options))
        .or_else(|| match racing {
            true => race::race(problem, lower, heuristic, options),
            false => MODELS
                .iter()
                .filter(|m| m.applies(problem))
                .find_map(|m| m.solve(problem, lower, heuristic, options)),
        })
        .unwrap_or_else(|| {
            Outcome::refused(
                Status::Error,
                "no exact method applies to this problem".into(),
            )
        })
}

/// What an exact method (or the pipeline before it) established, before it becomes a
/// [`Solution`](makespan_model::solution::Solution).
pub(crate) struct Outcome {
    pub(crate) status: Status,
    pub(crate) starts: Option<Vec<i64>>,
    pub(crate) bound: Option<LowerBound>,
    pub(crate) reason: Option<String>,
    pub(crate) method: String,
    pub(crate) milp_ran: bool,
    pub(crate) nodes: Option<u64>,
}

impl Outcome {
    /// Nothing but a status and its reason.
    pub(crate) fn refused(status: Status, reason: String) -> Outcome {
        Outcome {
            status,
            starts: None,
            bound: None,
            reason: Some(reason),
            method: "validation".into(),
            milp_ran: false,
            nodes: None,
        }
    }
}

/// A horizon that any feasible instance can meet: after the latest release, activities one
/// after another, each followed by its largest outgoing lag and its longest setup.
pub(crate) fn safe_horizon(problem: &Problem) -> i64 {
    let n = problem.len();
    let mut span: Vec<i64> = problem.durations[..n].to_vec();
    let mut release = 0;
    for a in problem.network.arcs() {
        if a.from < n && a.forward {
            span[a.from] = span[a.from].max(a.weight);
        } else if a.from == problem.network.origin() && a.forward {
            release = release.max(a.weight);
        }
    }
    // The agent may have to move after each activity.
    if let Some(setups) = &problem.setups {
        for (j, span) in span.iter_mut().enumerate() {
            *span += setups.station[j].map_or(0, |u| setups.longest_from(u));
        }
    }
    release + span.iter().sum::<i64>()
}
