//! A lazy-clause-generation exact method: the problem as a constraint model (start
//! variables, lags as linear rows, agents and resources as cumulatives) solved by Pumpkin,
//! which explains every propagation as a clause and learns from conflicts, and which can
//! log a DRCP proof that `pumpkin-checker` re-checks.
//!
//! It takes what a start-time model with cumulatives expresses exactly: lags and maximum
//! lags, releases and deadlines, agents (as a cumulative of capacity m, busy for the whole
//! activity or its first `busy_for` units) and resources, preemption chunks without a
//! maximum lag into them, and setups and holds as order variables where those state them
//! exactly (module `orders`). Start-instant needs and states are left to the other methods
//! ([`applies`]). A proof's model states setups and holds on a relaxation that keeps only
//! the exact ones ([`states_rules`]); the checker re-derives every order from the instance.

pub(crate) mod bound;
mod disjunctions;
mod energetic;
pub(crate) mod hints;
pub mod lns;
pub(crate) mod method;
pub mod model;
mod orders;
mod sgs;
mod starts;
#[cfg(test)]
mod testing;
mod unary;

use std::ops::ControlFlow;
use std::path::Path;
use std::time::Duration;

use pumpkin_solver::conflict_resolvers::resolvers::ResolutionResolver;
use pumpkin_solver::core::branching::Brancher;
use pumpkin_solver::core::optimisation::linear_sat_unsat::LinearSatUnsat;
use pumpkin_solver::core::optimisation::OptimisationDirection;
use pumpkin_solver::core::options::SolverOptions;
use pumpkin_solver::core::proof::ProofLog;
use pumpkin_solver::core::results::{
    OptimisationResult, ProblemSolution, Solution, SolutionReference,
};
use pumpkin_solver::core::termination::{Combinator, TerminationCondition, TimeBudget};
use pumpkin_solver::core::variables::{DomainId, TransformableVariable};
use pumpkin_solver::propagators::disjunctive::ArgDisjunctiveTask;
use pumpkin_solver::Solver;

use crate::heuristics::shop::Shop;
use crate::problem::Problem;
use crate::Cancel;
use bound::{Met, Progress, Refuted};
use model::{CpModel, Row, Unbuildable, Var};

/// Whether the constraint model expresses every rule of `problem`: setups and holds where
/// its orders state them exactly (module `orders`).
pub fn applies(problem: &Problem) -> bool {
    states_rules(problem) && orders::Orders::exact(problem)
}

/// Whether the model states every rule of `problem` other than its setups and holds.
/// Proofs take those too, as orders between pairs (module `orders`), on a relaxation that
/// keeps only the setups and holds these rows state exactly.
pub fn states_rules(problem: &Problem) -> bool {
    problem.instants.is_empty()
        && problem.states.is_empty()
        && problem.expanded.piece_lags.is_empty()
        && problem.demands.iter().flatten().all(|d| d.from == 0)
}

/// What the search established about schedules that end by the horizon.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CpOutcome {
    /// The shortest schedule (starts of the activities) and its makespan.
    Optimal { starts: Vec<i64>, makespan: i64 },
    /// No schedule ends by the horizon.
    NoneByHorizon,
    /// Stopped by the time limit: the best schedule found, if any (starts and makespan).
    Stopped { best: Option<(Vec<i64>, i64)> },
}

/// Why a proof could not be logged.
#[derive(Debug, thiserror::Error)]
#[error("cannot write the proof to {path}: {source}")]
pub struct ProofFileError {
    path: String,
    source: std::io::Error,
}

/// Stops Pumpkin between conflicts once the caller cancels.
struct Cancelled<'a>(&'a Cancel);

impl TerminationCondition for Cancelled<'_> {
    fn should_stop(&mut self) -> bool {
        self.0.is_cancelled()
    }
}

/// What stops a search: `seconds` running out, the caller cancelling, or `progress` (when
/// shared with a racing search) holding a bound that meets the best schedule.
fn stop_when<'a>(
    seconds: f64,
    cancel: &'a Cancel,
    progress: Option<&'a Progress>,
) -> Combinator<Combinator<TimeBudget, Cancelled<'a>>, Met<'a>> {
    Combinator::new(
        Combinator::new(
            TimeBudget::starting_now(Duration::from_secs_f64(seconds.max(0.0))),
            Cancelled(cancel),
        ),
        Met(progress),
    )
}

/// How Pumpkin chooses its next decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Branching {
    /// Pumpkin's default: the variable most active in recent conflicts (VSIDS), at the
    /// value of the best schedule so far. It finds short schedules soon.
    Activity,
    /// The activity with the smallest earliest start, at that start, ties to the least
    /// latest start (a schedule-generation scheme, module `sgs`): it refutes horizons far
    /// sooner where a proof needs every branch closed.
    SmallestStart,
    /// On a model that also holds one literal per two tasks that can never overlap, saying
    /// which goes first: decide those alone, most active in conflicts first, then every
    /// start at its earliest (module `disjunctions`).
    Orders,
}

/// Minimises the makespan over schedules that end by `horizon`, within `seconds` or until
/// `cancel` is tripped, choosing decisions by `branching`; with `proof`, logs Pumpkin's DRCP
/// proof there (the model is [`CpModel::flatzinc`]).
pub fn minimise(
    model: &CpModel,
    seconds: f64,
    cancel: &Cancel,
    branching: Branching,
    proof: Option<&Path>,
) -> Result<CpOutcome, ProofFileError> {
    search(
        model,
        seconds,
        cancel,
        branching,
        proof,
        None,
        None,
        u64::MAX,
    )
}

/// [`minimise`], where [`Branching::Orders`] first puts each two tasks in the order they
/// have in `guide` (starts of a schedule, maybe longer than the horizon) until the search
/// finds a schedule of its own: solution-guided search. With `progress`, each schedule it
/// finds is told there, and it stops once that holds a bound that meets the best schedule,
/// or once it has found no shorter schedule for `patience` steps ([`bound::Stalled`]).
#[allow(clippy::too_many_arguments)]
fn search(
    model: &CpModel,
    seconds: f64,
    cancel: &Cancel,
    branching: Branching,
    proof: Option<&Path>,
    guide: Option<&[i64]>,
    progress: Option<&Progress>,
    patience: u64,
) -> Result<CpOutcome, ProofFileError> {
    let proof_log = match proof {
        Some(path) => ProofLog::cp(path, true).map_err(|source| ProofFileError {
            path: path.display().to_string(),
            source,
        })?,
        None => ProofLog::default(),
    };
    let mut solver = Solver::with_options(SolverOptions {
        proof_log,
        ..SolverOptions::default()
    });
    // Proofs go without the redundant disjunctives: `pumpkin-checker` does not know them.
    let redundant = match (proof, branching) {
        (Some(_), _) => Redundant::None,
        (None, Branching::Orders) => Redundant::WithOrders,
        (None, _) => Redundant::Propagators,
    };
    let Posted {
        starts,
        makespan,
        orders,
        disjunctions,
    } = post(model, &mut solver, redundant);
    let mut termination = Combinator::new(
        stop_when(seconds, cancel, progress),
        bound::Stalled::new(progress, patience),
    );
    let result = match branching {
        Branching::SmallestStart => {
            let tasks = starts
                .iter()
                .copied()
                .zip(model.durations.iter().copied())
                .collect();
            let mut brancher = sgs::Sgs::new(tasks, makespan, sgs::Direction::Forward);
            optimise(
                &mut solver,
                &mut brancher,
                &mut termination,
                makespan,
                progress,
            )
        }
        Branching::Activity => {
            let mut brancher = solver.default_brancher();
            optimise(
                &mut solver,
                &mut brancher,
                &mut termination,
                makespan,
                progress,
            )
        }
        Branching::Orders => {
            let rest: Vec<DomainId> = starts
                .iter()
                .chain([&makespan])
                .chain(&orders)
                .copied()
                .collect();
            let mut brancher = disjunctions::OrderBrancher::new(disjunctions, &rest, guide);
            optimise(
                &mut solver,
                &mut brancher,
                &mut termination,
                makespan,
                progress,
            )
        }
    };
    let read = |solution: &Solution| {
        let values = starts
            .iter()
            .map(|&s| i64::from(solution.get_integer_value(s)))
            .collect();
        (values, i64::from(solution.get_integer_value(makespan)))
    };
    Ok(match result {
        OptimisationResult::Optimal(solution) => {
            let (starts, makespan) = read(&solution);
            CpOutcome::Optimal { starts, makespan }
        }
        OptimisationResult::Unsatisfiable => CpOutcome::NoneByHorizon,
        OptimisationResult::Satisfiable(solution) | OptimisationResult::Stopped(solution, _) => {
            CpOutcome::Stopped {
                best: Some(read(&solution)),
            }
        }
        OptimisationResult::Unknown => CpOutcome::Stopped { best: None },
    })
}

/// The model's variables in a solver.
struct Posted {
    starts: Vec<DomainId>,
    makespan: DomainId,
    /// The model's order variables (setups and holds).
    orders: Vec<DomainId>,
    /// The literals [`Redundant::WithOrders`] adds.
    disjunctions: Vec<disjunctions::Disjunction>,
}

/// What [`post`] adds to the model's rows on tasks that can never overlap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Redundant {
    /// Nothing (a proof's model: the checker knows only the rows).
    None,
    /// Edge finding, detectable precedences, not-first and not-last.
    Propagators,
    /// Those, and a literal per two such tasks for which goes first ([`Branching::Orders`]).
    WithOrders,
}

/// Posts `model` to `solver`, with what `redundant` asks for.
fn post(model: &CpModel, solver: &mut Solver, redundant: Redundant) -> Posted {
    let starts: Vec<DomainId> = model
        .windows
        .iter()
        .enumerate()
        .map(|(j, &(lo, hi))| solver.new_named_bounded_integer(lo, hi, model.name(Var::Start(j))))
        .collect();
    let (lo, hi) = model.makespan_domain();
    let makespan = solver.new_named_bounded_integer(lo, hi, model.name(Var::Makespan));
    let orders: Vec<DomainId> = model
        .orders
        .iter()
        .map(|name| solver.new_named_bounded_integer(0, 1, name.as_str()))
        .collect();
    let var = |v: Var| match v {
        Var::Start(j) => starts[j],
        Var::Makespan => makespan,
        Var::Order(k) => orders[k],
    };
    // The proof names rows by tag, and the FlatZinc by position: tags first, in row order.
    let tags: Vec<_> = model
        .rows
        .iter()
        .map(|_| solver.new_constraint_tag())
        .collect();
    for (row, tag) in model.rows.iter().zip(tags) {
        match row {
            Row::Le { terms, rhs } => solver
                .add_constraint(pumpkin_solver::less_than_or_equals(
                    terms
                        .iter()
                        .map(|&(w, v)| var(v).scaled(w))
                        .collect::<Vec<_>>(),
                    *rhs,
                    tag,
                ))
                .post(),
            Row::Cumulative { tasks, capacity } => solver
                .add_constraint(pumpkin_solver::cumulative(
                    tasks.iter().map(|t| starts[t.0]).collect::<Vec<_>>(),
                    tasks.iter().map(|t| t.1).collect::<Vec<_>>(),
                    tasks.iter().map(|t| t.2).collect::<Vec<_>>(),
                    *capacity,
                    tag,
                ))
                .post(),
        };
    }
    let mut disjunctions = Vec::new();
    if redundant != Redundant::None {
        // Tasks that take more than half a resource can never overlap: edge finding on
        // them prunes far more than time-tabling (a job shop's machines, one agent).
        for row in &model.rows {
            let Row::Cumulative { tasks, capacity } = row else {
                continue;
            };
            let big: Vec<_> = tasks.iter().filter(|t| 2 * t.2 > *capacity).collect();
            if big.len() < tasks.len() {
                // Tasks that may run side by side: energetic reasoning, on both time
                // directions, bounds them where time-tabling sees nothing fixed yet (at
                // the root of the search only: module `energetic` says why).
                let tag = solver.new_constraint_tag();
                for mirrored in [false, true] {
                    let _ = solver.add_propagator(energetic::Energetic {
                        tasks: tasks
                            .iter()
                            .map(|t| {
                                let start = if mirrored {
                                    starts[t.0].offset(t.1).scaled(-1)
                                } else {
                                    starts[t.0].scaled(1)
                                };
                                (start, t.1, t.2)
                            })
                            .collect(),
                        capacity: *capacity,
                        tag,
                    });
                }
            }
            if big.len() >= 2 {
                let tag = solver.new_constraint_tag();
                solver
                    .add_constraint(pumpkin_solver::disjunctive_strict(
                        big.iter().map(|t| ArgDisjunctiveTask {
                            start_time: starts[t.0],
                            processing_time: t.1,
                        }),
                        tag,
                    ))
                    .post();
                // Detectable precedences and not-first, and on mirrored times not-last.
                let _ = solver.add_propagator(unary::Unary {
                    tasks: big.iter().map(|t| (starts[t.0], t.1)).collect(),
                    tag,
                });
                let _ = solver.add_propagator(unary::Unary {
                    tasks: big
                        .iter()
                        .map(|t| (starts[t.0].offset(t.1).scaled(-1), t.1))
                        .collect(),
                    tag,
                });
                if redundant == Redundant::WithOrders {
                    let tasks: Vec<_> = big.iter().map(|t| (t.0, t.1)).collect();
                    disjunctions.extend(disjunctions::post(solver, &tasks, &starts));
                }
            }
        }
    }
    Posted {
        starts,
        makespan,
        orders,
        disjunctions,
    }
}

/// Pumpkin's minimisation of the makespan with `brancher`, telling `progress` each
/// schedule it finds.
fn optimise<B: Brancher>(
    solver: &mut Solver,
    brancher: &mut B,
    termination: &mut impl TerminationCondition,
    makespan: DomainId,
    progress: Option<&Progress>,
) -> OptimisationResult<()> {
    let mut resolver = ResolutionResolver::default();
    let callback = |_: &Solver, solution: SolutionReference, _: &B, _: &ResolutionResolver| {
        if let Some(progress) = progress {
            progress.found(i64::from(solution.get_integer_value(makespan)));
        }
        ControlFlow::<()>::Continue(())
    };
    solver.optimise(
        brancher,
        termination,
        &mut resolver,
        LinearSatUnsat::new(OptimisationDirection::Minimise, makespan, callback),
    )
}

/// The share of the time the minimisation spends with [`Branching::Activity`] before it
/// turns to [`Branching::SmallestStart`] below the best schedule found.
const ACTIVITY_SHARE: f64 = 0.35;

/// How many steps (decisions and conflicts) activity-driven branching goes on without a
/// shorter schedule (or as many as it took to find the last, if more) before a search
/// racing a refutation turns to refuting itself. On PSPLIB j3013_1 it finds the optimum
/// 58 after 10,000–20,000, where generating schedules takes 14,000 conflicts backward and
/// 26,000 forward to find one.
const ACTIVITY_PATIENCE: u64 = 30_000;

/// The share of the time the large neighbourhood search may take before the proof begins
/// (it gives up sooner when it stops finding shorter schedules).
const LNS_SHARE: f64 = 0.3;

/// The share of the time the tabu search on a job shop's machine sequences may take
/// ([`Strategy::tabu`]), and the seconds it goes on without a shorter schedule at least (or
/// twice as long as it took to find the last, if longer): on la27 it finds the optimum 1235
/// within 1–5 s in most runs, where the neighbourhood search and the proof stay at 1237–1242
/// for 60 s.
const TABU_SHARE: f64 = 0.5;
const TABU_PATIENCE: f64 = 5.0;

/// The seed of the large neighbourhood search's random choices in [`solve`]: runs repeat.
/// A search racing it on the same instance takes another, and so follows other schedules.
pub const SEED: u64 = 0x5eed;

/// How [`solve`] searches: the seed of the neighbourhood search's random choices, and the
/// branching of the proof after it on job shops ([`machines_only`]; elsewhere activity-driven
/// branching, then smallest-start). Searches racing on one instance take different ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Strategy {
    pub seed: u64,
    pub branching: Branching,
    /// Whether a tabu search on the machine sequences shortens the schedule first, on job
    /// shops ([`Shop`]).
    pub tabu: bool,
}

/// The strategy of the first search (the only one on one thread). On job shops its proof
/// decides orders: on a loaded 2-core machine ft10 (930) is proved in 2.5 s on one thread,
/// where branching on start times took 20–25 s.
pub const FIRST: Strategy = Strategy {
    seed: SEED,
    branching: Branching::Orders,
    tabu: false,
};

/// Whether `problem` has the shape of a job shop: at least two resources, and on each,
/// every two users exclude each other (machines). Branching on orders or activity proves
/// those, and smallest-start branching does not (on ft10 it finds nothing better than 972
/// in 60 s, where activity-driven branching proves 930 in about 5 s).
pub fn machines_only(problem: &Problem) -> bool {
    let demands = || problem.demands[..problem.len()].iter().flatten();
    let mut used: Vec<usize> = demands().map(|d| d.resource).collect();
    used.sort_unstable();
    used.dedup();
    used.len() >= 2 && demands().all(|d| 2 * d.amount > problem.capacities[d.resource])
}

/// Whether `problem` is a project of activities on renewable resources alone (RCPSP, with
/// or without maximum lags): no agents, no setups or holds, and not a job shop. There a
/// race splits the proof between shortening the schedule and refuting from below (module
/// `bound`).
pub fn resources_only(problem: &Problem) -> bool {
    problem.agent_resource.is_none()
        && problem.setups.is_none()
        && problem.holds.is_empty()
        && !machines_only(problem)
}

/// [`minimise`] on `problem` without a proof, knowing that no schedule is shorter than
/// `floor` and, where there is an `incumbent` (starts of a schedule of makespan
/// `horizon + 1`), that one; `None` when times exceed 32 bits. The large neighbourhood
/// search draws its random choices from `strategy`'s seed.
///
/// A portfolio of searches, one after the other. Large neighbourhood search (module `lns`)
/// first shortens the incumbent: a short schedule early saves the proof from refuting the
/// makespans above it (on ft10 it finds the optimum 930 in 0.4 s, and proves la16, la17,
/// la18 and la23 on its own). Activity-driven branching then finds shorter schedules still,
/// and smallest-start branching proves what the first could not (on PSPLIB j30 at 10 s it
/// closes j3029_3, _6 and _8, which the first leaves open); job shops
/// ([`machines_only`]) keep to `strategy`'s branching (on orders, or activity-driven).
#[cfg(feature = "internals")]
pub fn solve(
    problem: &Problem,
    floor: i64,
    horizon: i64,
    incumbent: Option<&[i64]>,
    seconds: f64,
    cancel: &Cancel,
    strategy: Strategy,
) -> Option<CpOutcome> {
    solve_racing(
        problem, floor, horizon, incumbent, seconds, cancel, strategy, None,
    )
}

/// [`solve`], with `progress` shared with a search racing it: every schedule found is told
/// there, and the search stops once the other's bound meets the best schedule.
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_racing(
    problem: &Problem,
    floor: i64,
    horizon: i64,
    incumbent: Option<&[i64]>,
    seconds: f64,
    cancel: &Cancel,
    strategy: Strategy,
    progress: Option<&Progress>,
) -> Option<CpOutcome> {
    let started = std::time::Instant::now();
    let holds = if incumbent.is_some() {
        horizon + 1
    } else {
        horizon
    };
    let model = match CpModel::build(problem, holds) {
        Ok(model) => model.with_floor(floor),
        Err(Unbuildable::EmptyWindow) => return Some(CpOutcome::NoneByHorizon),
        Err(Unbuildable::TooLarge) => return None,
    };
    let mut start = incumbent.map(|s| s[..problem.len()].to_vec());
    // The tabu search's schedule, kept should the neighbourhood search not reproduce it in
    // the moment it has to shorten its start.
    let mut tabu = None;
    if let (true, Some(shop), Some(first)) = (strategy.tabu, Shop::of(problem), &start) {
        let patience = |now: f64, idle: f64| idle > TABU_PATIENCE.max(2.0 * (now - idle));
        let found = shop.improve(
            first,
            floor,
            seconds * TABU_SHARE,
            cancel,
            strategy.seed,
            patience,
        );
        if let Some((starts, makespan)) = found.filter(|f| f.1 <= horizon) {
            if let Some(progress) = progress {
                progress.found(makespan);
            }
            if makespan <= floor {
                return Some(CpOutcome::Optimal { starts, makespan });
            }
            start = Some(starts.clone());
            tabu = Some((starts, makespan));
        }
    }
    let left = seconds - started.elapsed().as_secs_f64();
    let found = lns::improve(&model, start, left * LNS_SHARE, cancel, strategy.seed);
    let best = match (
        found.best.filter(|(_, makespan)| *makespan <= horizon),
        tabu,
    ) {
        (Some(lns), Some(tabu)) if tabu.1 < lns.1 => Some(tabu),
        (lns, tabu) => lns.or(tabu),
    };
    if let (Some(progress), Some((_, makespan))) = (progress, &best) {
        progress.found(*makespan);
    }
    if found.optimal {
        return Some(match best {
            Some((starts, makespan)) => CpOutcome::Optimal { starts, makespan },
            None => CpOutcome::NoneByHorizon,
        });
    }
    let left = seconds - started.elapsed().as_secs_f64();
    if let Some(progress) = progress {
        return race_below(problem, floor, horizon, best, left, cancel, progress);
    }
    let (share, first) = if machines_only(problem) {
        (1.0, strategy.branching)
    } else {
        (ACTIVITY_SHARE, Branching::Activity)
    };
    let turns = Turns {
        problem,
        floor,
        horizon,
        share,
        first,
        progress,
    };
    turns.run(best, left, cancel)
}

/// The proof of a search racing a refutation from below (module `bound`): activity-driven
/// branching while it shortens the schedule, then the same questions as the other search,
/// one below the best schedule either knows, generated forward while the other generates
/// backward, so that each question goes to the faster direction. Where both searches answer
/// the same questions, the first to answer interrupts the other.
///
/// Activity-driven branching for its whole share of the time, as [`Turns`] does alone,
/// found no shorter schedule on most of PSPLIB j30's slowest instances, while the
/// refutation the forward direction is fast at waited for it (j3029_6 at 30 s: 19,000
/// conflicts forward against 37,000 backward, begun only after 10.5 s); it now gives up
/// after [`ACTIVITY_PATIENCE`] without a shorter schedule.
fn race_below(
    problem: &Problem,
    floor: i64,
    horizon: i64,
    best: Option<(Vec<i64>, i64)>,
    seconds: f64,
    cancel: &Cancel,
    progress: &Progress,
) -> Option<CpOutcome> {
    let started = std::time::Instant::now();
    let below = best
        .as_ref()
        .map_or(horizon, |b| b.1 - 1)
        .min(progress.upper().saturating_sub(1));
    let best = match CpModel::build(problem, below) {
        Ok(model) => match search(
            &model.with_floor(floor.max(progress.lower())),
            seconds * ACTIVITY_SHARE,
            cancel,
            Branching::Activity,
            None,
            None,
            Some(progress),
            ACTIVITY_PATIENCE,
        )
        .ok()?
        {
            CpOutcome::Stopped { best: better } => better.or(best),
            // Nothing below the best schedule of either search: the refutation's loop
            // meets it at once.
            CpOutcome::NoneByHorizon => {
                progress.proved(below + 1);
                best
            }
            optimal => return Some(optimal),
        },
        Err(Unbuildable::EmptyWindow) => {
            progress.proved(below + 1);
            best
        }
        Err(Unbuildable::TooLarge) => return None,
    };
    let seconds = seconds - started.elapsed().as_secs_f64();
    let refuted = bound::refute_below(
        problem,
        floor,
        seconds,
        cancel,
        progress,
        sgs::Direction::Forward,
    )?;
    Some(match refuted {
        Refuted::Optimal { starts, makespan } => CpOutcome::Optimal { starts, makespan },
        Refuted::Below { lower, best: found } => {
            let best = match (found, best) {
                (Some(a), Some(b)) => Some(if a.1 <= b.1 { a } else { b }),
                (a, b) => a.or(b),
            };
            match best {
                Some((starts, makespan)) if makespan <= lower => {
                    CpOutcome::Optimal { starts, makespan }
                }
                None if lower > horizon => CpOutcome::NoneByHorizon,
                best => CpOutcome::Stopped { best },
            }
        }
    })
}

/// [`solve`]'s searches after the large neighbourhood search.
struct Turns<'a> {
    problem: &'a Problem,
    floor: i64,
    horizon: i64,
    /// The share of the time for the first branching.
    share: f64,
    /// The first branching: activity-driven, or on orders.
    first: Branching,
    /// What the search shares with one racing it.
    progress: Option<&'a Progress>,
}

impl Turns<'_> {
    /// `first`, then smallest-start branching below `best`, within `seconds`.
    fn run(
        &self,
        best: Option<(Vec<i64>, i64)>,
        seconds: f64,
        cancel: &Cancel,
    ) -> Option<CpOutcome> {
        let run = |horizon, seconds, branching, guide: Option<&[i64]>| match CpModel::build(
            self.problem,
            horizon,
        ) {
            Ok(model) => search(
                &model.with_floor(self.floor),
                seconds,
                cancel,
                branching,
                None,
                guide,
                self.progress,
                u64::MAX,
            )
            .ok(),
            Err(Unbuildable::EmptyWindow) => Some(CpOutcome::NoneByHorizon),
            Err(Unbuildable::TooLarge) => None,
        };
        // Nothing below the best schedule: it is optimal.
        let closed = |best: Option<(Vec<i64>, i64)>| match best {
            Some((starts, makespan)) => CpOutcome::Optimal { starts, makespan },
            None => CpOutcome::NoneByHorizon,
        };
        let below = |best: &Option<(Vec<i64>, i64)>| {
            best.as_ref()
                .map_or(self.horizon, |(_, makespan)| makespan - 1)
        };
        let started = std::time::Instant::now();
        let best = match run(
            below(&best),
            seconds * self.share,
            self.first,
            best.as_ref().map(|b| &b.0[..]),
        )? {
            CpOutcome::NoneByHorizon => return Some(closed(best)),
            CpOutcome::Stopped { best: better } => better.or(best),
            optimal => return Some(optimal),
        };
        let left = seconds - started.elapsed().as_secs_f64();
        if cancel.is_cancelled() || left <= 0.0 {
            return Some(CpOutcome::Stopped { best });
        }
        Some(
            match run(below(&best), left, Branching::SmallestStart, None)? {
                CpOutcome::NoneByHorizon => closed(best),
                CpOutcome::Stopped { best: better } => CpOutcome::Stopped {
                    best: better.or(best),
                },
                optimal => optimal,
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use makespan_model::instance::{Activity, Instance, Precedence};

    /// Two agents, five tasks, one chain: the optimum (7) needs a search.
    fn small() -> Problem {
        let durations = [3, 2, 4, 2, 3];
        let activities = durations
            .iter()
            .enumerate()
            .map(|(i, &d)| Activity::new(format!("a{i}"), d))
            .collect();
        let instance = Instance {
            activities,
            precedences: vec![Precedence::finish_to_start("a0", "a3", 0)],
            ..Instance::new("t", Some(2))
        };
        Problem::compile(&instance).unwrap()
    }

    #[test]
    fn the_second_search_alone_finds_the_optimum_the_first_finds() {
        let problem = small();
        let cancel = Cancel::new();
        let optimum = |share| {
            let turns = Turns {
                problem: &problem,
                floor: 0,
                horizon: 20,
                share,
                first: Branching::Activity,
                progress: None,
            };
            match turns.run(None, 10.0, &cancel) {
                Some(CpOutcome::Optimal { makespan, .. }) => makespan,
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(optimum(1.0), 7);
        // No time for the first, which stops at once: smallest-start branching does it all.
        let model = CpModel::build(&problem, 20).unwrap();
        let first = minimise(&model, 0.0, &cancel, Branching::Activity, None).unwrap();
        assert!(matches!(first, CpOutcome::Stopped { .. }), "{first:?}");
        assert_eq!(optimum(0.0), 7);
    }
}
