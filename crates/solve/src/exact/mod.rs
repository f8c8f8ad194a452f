//! Exact methods: each proves an optimum, or that nothing shorter than the heuristics'
//! schedule exists. They sit behind one trait, `ExactMethod`, and the pipeline tries them
//! in the order of two tables, `SEARCHES` then `MODELS`: the first that applies and does
//! not give up decides. The MILP applies to every problem and never gives up, so it closes
//! the second.
//!
//! Why this order (measured on the benchmarks' corpora, see the README's speed tables): the
//! searches over time prove one-agent problems (a single cook, a single assistant)
//! in milliseconds to seconds where the MILP needed minutes, and give up quickly (a time
//! limit or a state budget) where they do not fit; the constraint model proves most of the
//! rest, and the MILP handles everything else. With two threads or more per instance the
//! constraint model and the MILP (on job shops, a second constraint model) run side by side
//! instead (`race`).
//!
//! The trait takes the compiled problem and the pipeline's bounds and heuristics, which are
//! the crate's own; [`exact_methods`] is its public face: the methods' names, in the order
//! the pipeline tries them.

pub(crate) mod agent_search;
pub(crate) mod cp;
pub(crate) mod milp;
mod race;
mod searches;
pub(crate) mod unit_search;

use crate::bounds::LowerBound;
use crate::heuristics::Heuristic;
use crate::problem::Problem;
use crate::{Failure, Run, SolveOptions};
use makespan_model::solution::Status;

/// An exact method.
pub(crate) trait ExactMethod: Sync {
    /// Its name in [`exact_methods`].
    fn name(&self) -> &'static str;

    /// Whether the method can solve this problem at all.
    fn applies(&self, problem: &Problem) -> bool;

    /// Solves `problem` given a proven `lower` bound and the heuristics' best schedule (if
    /// any), within the options' limits and the run's deadline: the outcome, or `None` when
    /// the method gave up (the next method is tried).
    fn solve(
        &self,
        problem: &Problem,
        lower: LowerBound,
        heuristic: Option<&Heuristic>,
        options: &SolveOptions,
        run: &Run,
    ) -> Option<Outcome>;
}

/// Where an exact method sits in the pipeline's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// A search over time, tried first: the first that applies and does not give up decides.
    Search,
    /// A method on a model of the whole problem, tried next in this order, or raced with two
    /// threads or more.
    Model,
}

/// One exact method, as [`exact_methods`] lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExactMethodInfo {
    /// Its name: `unit-search`, `agent-search`, `cp` or `milp`.
    pub name: &'static str,
    /// Its table.
    pub stage: Stage,
}

/// The exact methods, in the order the pipeline tries them (read from the tables it runs).
///
/// ```
/// let names: Vec<&str> = makespan_solve::exact_methods().map(|m| m.name).collect();
/// assert_eq!(names, ["unit-search", "agent-search", "cp", "milp"]);
/// ```
pub fn exact_methods() -> impl Iterator<Item = ExactMethodInfo> {
    let searches = SEARCHES.iter().map(|m| (m, Stage::Search));
    let models = MODELS.iter().map(|m| (m, Stage::Model));
    searches.chain(models).map(|(m, stage)| ExactMethodInfo {
        name: m.name(),
        stage,
    })
}

/// The searches over time, tried first, in this order.
const SEARCHES: [&dyn ExactMethod; 2] = [&searches::UnitSearch, &searches::AgentSearch];

/// The constraint model with its first strategy: the one tried among `MODELS`, first in a
/// race, and in the first look.
const CP: cp::method::Cp = cp::method::Cp {
    strategy: cp::FIRST,
};

/// The methods on a model of the whole problem, tried next, in this order (or raced).
const MODELS: [&dyn ExactMethod; 2] = [&CP, &milp::method::Milp];

/// The first outcome of a method of `SEARCHES`, then of `MODELS`, that applies and does
/// not give up; with two threads or more, `MODELS` race where the constraint model runs.
/// Where the one-agent search applies and the unit-step search does not, a proof by the
/// constraint model on a tenth of the time comes first ([`cp_first_look`]).
pub(crate) fn solve(
    problem: &Problem,
    lower: LowerBound,
    heuristic: Option<&Heuristic>,
    options: &SolveOptions,
    run: &Run,
) -> Outcome {
    let cp_runs = cp::method::runs(problem, options, run);
    let racing = options.threads.get() >= 2 && cp_runs;
    // Only beside the search over work of any length: the unit-step search proves its
    // problems (stations with setups) where the constraint model needs seconds.
    let first_look = cp_runs && agent_search::applies(problem) && !unit_search::applies(problem);
    first_look
        .then(|| cp_first_look(problem, lower, heuristic, options, run))
        .flatten()
        .or_else(|| {
            SEARCHES
                .iter()
                .filter(|m| m.applies(problem))
                .find_map(|m| m.solve(problem, lower, heuristic, options, run))
        })
        .or_else(|| match racing {
            true => race::race(problem, lower, heuristic, options, run),
            false => MODELS
                .iter()
                .filter(|m| m.applies(problem))
                .find_map(|m| m.solve(problem, lower, heuristic, options, run)),
        })
        .unwrap_or_else(|| Outcome::failed(Failure::NoExactMethod))
}

/// Share of the time left that the constraint model gets before a search over time that
/// also takes the problem.
const FIRST_LOOK_SHARE: f64 = 0.1;

/// The constraint model on a tenth of the time left, where the search over one agent's
/// work takes the problem too: its proof, or `None` (the searches go on, then the models as
/// usual). That search walks every instant where the constraint model's propagation skips
/// ahead: on one-agent problems with a gap between bound and heuristic the model proves in
/// milliseconds what the search needs up to half a second for (6 ms against 0.53 s on the
/// slowest of the corpora), and the slice bounds what an instance it cannot prove loses.
fn cp_first_look(
    problem: &Problem,
    lower: LowerBound,
    heuristic: Option<&Heuristic>,
    options: &SolveOptions,
    run: &Run,
) -> Option<Outcome> {
    let first = run.slice(options.time_limit, FIRST_LOOK_SHARE);
    CP.solve(problem, lower, heuristic, options, &first)
        .filter(race::decided)
}

/// What an exact method (or the pipeline before it) established, before it becomes a
/// [`Solution`](makespan_model::solution::Solution): `failure` is set exactly when there is
/// no schedule to return (status `infeasible` or `error`), `reason` when a schedule is not
/// proven optimal.
pub(crate) struct Outcome {
    pub(crate) status: Status,
    pub(crate) starts: Option<Vec<i64>>,
    pub(crate) bound: Option<LowerBound>,
    pub(crate) reason: Option<String>,
    pub(crate) failure: Option<Failure>,
    pub(crate) method: String,
    pub(crate) milp_ran: bool,
    pub(crate) nodes: Option<u64>,
}

impl Outcome {
    /// Nothing but the failure (and the status it implies).
    pub(crate) fn failed(failure: Failure) -> Outcome {
        Outcome {
            status: failure.status(),
            starts: None,
            bound: None,
            reason: None,
            failure: Some(failure),
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
