//! Large neighbourhood search on the constraint model: a short schedule early, so that the
//! proof starts from a strong upper bound.
//!
//! One Pumpkin solver holds the model and, for every two activities that share a resource,
//! a literal that puts one before the other (`s_i + d_i ≤ s_j`). Each step keeps the order
//! of the best schedule between the activities it does not relax, as assumptions, asks for
//! a makespan one shorter, and searches with a small budget of decisions: a neighbourhood
//! that is small enough is searched through, one that is too large is given up. The
//! relaxed activities are a stretch of time, the users of a resource, or a random set; how
//! many grows after a neighbourhood is exhausted and shrinks after one is given up.
//!
//! The solver is solution-guided (its brancher takes each value from the best schedule
//! found), and what it learns holds for the model, so it carries from step to step. Where
//! a shorter makespan fails on assumptions of which only the makespan's takes part, no
//! schedule is shorter: the best one is optimal.

use std::time::{Duration, Instant};

use pumpkin_solver::conflict_resolvers::resolvers::ResolutionResolver;
use pumpkin_solver::core::predicate;
use pumpkin_solver::core::predicates::Predicate;
use pumpkin_solver::core::results::{ProblemSolution, SatisfactionResultUnderAssumptions};
use pumpkin_solver::core::termination::{Combinator, TerminationCondition, TimeBudget};
use pumpkin_solver::core::variables::{DomainId, Literal, TransformableVariable};
use pumpkin_solver::Solver;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rustc_hash::FxHashMap;

use super::model::{CpModel, Row};
use super::{post, Cancelled, Posted, Redundant};
use crate::Cancel;

/// Decisions and conflicts one neighbourhood may take before it is given up.
const STEP_BUDGET: u64 = 2_000;

/// A neighbourhood relaxes at least this many activities (or all there are).
const MIN_RELAXED: usize = 4;

/// The search gives up after this many steps in a row without a shorter schedule, or
/// once it has gone without one for as long as it took to find the last (and at least
/// [`MIN_PATIENCE`] seconds): the proof then takes over from the best schedule.
const PATIENCE: usize = 300;

/// Seconds the search goes on without a shorter schedule, however soon it found the last.
/// Job shops need it: stopped sooner, the search leaves la19 at a makespan from which the
/// proof does not finish in 10 s, where it otherwise finishes in 3 s.
const MIN_PATIENCE: f64 = 0.25;

/// Seconds the search may take to shorten the schedule it starts from at all: where that
/// schedule is already optimal (most of the cooking corpora's), the proof should begin at once.
const FIRST_PATIENCE: f64 = 0.05;

/// What the search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Improved {
    /// The best schedule (starts of the model's activities) and its makespan.
    pub best: Option<(Vec<i64>, i64)>,
    /// No schedule of the model is shorter than `best` (none at all, without one).
    pub optimal: bool,
}

/// "Activity `before` ends by the start of activity `after`" on some shared resource.
#[derive(Debug, Clone, Copy)]
struct Order {
    before: usize,
    after: usize,
    /// How long `before` holds the resource.
    length: i64,
    literal: Literal,
}

/// Stops after a number of decisions and conflicts.
struct Budget(u64);

impl TerminationCondition for Budget {
    fn should_stop(&mut self) -> bool {
        self.0 = self.0.saturating_sub(1);
        self.0 == 0
    }
}

/// Improves `start` (starts of the model's activities, whose schedule the model holds) on
/// `model` for up to `seconds`, with random choices drawn from `seed`; without a start,
/// the first step searches the whole model for a schedule.
pub fn improve(
    model: &CpModel,
    start: Option<Vec<i64>>,
    seconds: f64,
    cancel: &Cancel,
    seed: u64,
) -> Improved {
    let began = Instant::now();
    let mut solver = Solver::default();
    let Posted {
        starts, makespan, ..
    } = post(model, &mut solver, Redundant::Propagators);
    let orders = orders(model, &mut solver, &starts);
    let users = users(model);
    let n = starts.len();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut brancher = solver.default_brancher();
    let mut resolver = ResolutionResolver::default();
    let read = |solution: &dyn Fn(DomainId) -> i32| {
        let values: Vec<i64> = starts.iter().map(|&s| i64::from(solution(s))).collect();
        (values, i64::from(solution(makespan)))
    };
    let mut best: Option<(Vec<i64>, i64)> = None;
    // The first step keeps every order of `start`: the solver then holds its schedule (left
    // shifted), and takes its values from it.
    let mut relaxed: Option<Vec<bool>> = start.as_ref().map(|_| vec![false; n]);
    let mut incumbent = start;
    let mut size = (n / 5).max(MIN_RELAXED).min(n) as f64;
    let mut idle = 0;
    let mut last_found: f64 = 0.0;
    // Whether the search has found a schedule shorter than `start` (or any, without one).
    let mut shortened = false;
    while !cancel.is_cancelled() && idle < PATIENCE {
        let now = began.elapsed().as_secs_f64();
        // No step outlasts the patience: a search that finds nothing costs little.
        let patience = match shortened {
            true => last_found.max(MIN_PATIENCE) - (now - last_found),
            false => FIRST_PATIENCE - now,
        };
        let left = (seconds - now).min(patience);
        if left <= 0.0 {
            break;
        }
        let mut assumptions: Vec<Predicate> = Vec::new();
        let bound = best
            .as_ref()
            .map(|b| predicate![makespan <= (b.1 - 1) as i32]);
        assumptions.extend(bound);
        if let (Some(relaxed), Some(incumbent)) = (&relaxed, &incumbent) {
            assumptions.extend(
                orders
                    .iter()
                    .filter(|o| !relaxed[o.before] && !relaxed[o.after])
                    .filter(|o| incumbent[o.before] + o.length <= incumbent[o.after])
                    .map(|o| o.literal.get_true_predicate()),
            );
        }
        let mut termination = Combinator::new(
            Combinator::new(
                TimeBudget::starting_now(Duration::from_secs_f64(left)),
                Cancelled(cancel),
            ),
            Budget(STEP_BUDGET),
        );
        let result = solver.satisfy_under_assumptions(
            &mut brancher,
            &mut termination,
            &mut resolver,
            &assumptions,
        );
        match result {
            SatisfactionResultUnderAssumptions::Satisfiable(satisfiable) => {
                let solution = satisfiable.solution();
                let found = read(&|v| solution.get_integer_value(v));
                if best.as_ref().is_none_or(|b| found.1 < b.1) {
                    shortened |= best.is_some() || incumbent.is_none();
                    idle = 0;
                    last_found = began.elapsed().as_secs_f64();
                    incumbent = Some(found.0.clone());
                    best = Some(found);
                    size *= 1.05;
                }
            }
            SatisfactionResultUnderAssumptions::UnsatisfiableUnderAssumptions(mut unsat) => {
                let core = unsat.extract_core();
                if core.iter().all(|p| Some(*p) == bound) {
                    // Only the shorter makespan takes part: no schedule is shorter.
                    return Improved {
                        best,
                        optimal: true,
                    };
                }
                idle += 1;
                size *= 1.1;
            }
            SatisfactionResultUnderAssumptions::Unsatisfiable(_) => {
                // Nothing ends by the model's horizon (or below the best schedule).
                return Improved {
                    best,
                    optimal: true,
                };
            }
            SatisfactionResultUnderAssumptions::Unknown(_) => {
                idle += 1;
                size *= 0.95;
            }
        }
        size = size.clamp(MIN_RELAXED.min(n) as f64, n as f64);
        relaxed = incumbent
            .as_ref()
            .map(|inc| neighbourhood(inc, &users, size as usize, &mut rng));
    }
    Improved {
        best,
        optimal: false,
    }
}

/// The order literals of every two activities that share a resource, both ways, each
/// implying its lag.
fn orders(model: &CpModel, solver: &mut Solver, starts: &[DomainId]) -> Vec<Order> {
    let mut lengths: FxHashMap<(usize, usize), i64> = FxHashMap::default();
    for row in &model.rows {
        let Row::Cumulative { tasks, .. } = row else {
            continue;
        };
        for a in tasks {
            for b in tasks.iter().filter(|b| b.0 != a.0) {
                let length = lengths.entry((a.0, b.0)).or_default();
                *length = (*length).max(i64::from(a.1));
            }
        }
    }
    let mut pairs: Vec<_> = lengths.into_iter().collect();
    pairs.sort_unstable();
    pairs
        .into_iter()
        .map(|((before, after), length)| {
            let literal = solver.new_literal();
            let tag = solver.new_constraint_tag();
            solver
                .add_constraint(pumpkin_solver::less_than_or_equals(
                    [starts[before].scaled(1), starts[after].scaled(-1)],
                    -(length as i32),
                    tag,
                ))
                .implied_by(literal);
            Order {
                before,
                after,
                length,
                literal,
            }
        })
        .collect()
}

/// The activities of each resource.
fn users(model: &CpModel) -> Vec<Vec<usize>> {
    model
        .rows
        .iter()
        .filter_map(|row| match row {
            Row::Cumulative { tasks, .. } => Some(tasks.iter().map(|t| t.0).collect()),
            Row::Le { .. } => None,
        })
        .collect()
}

/// About `size` activities to relax around `schedule`: those that start in a stretch of
/// time, the users of random resources, or a random set.
fn neighbourhood(
    schedule: &[i64],
    users: &[Vec<usize>],
    size: usize,
    rng: &mut SmallRng,
) -> Vec<bool> {
    let n = schedule.len();
    let mut relaxed = vec![false; n];
    match rng.random_range(0..3) {
        0 => {
            let mut by_start: Vec<usize> = (0..n).collect();
            by_start.sort_by_key(|&j| schedule[j]);
            let first = rng.random_range(0..n.saturating_sub(size).max(1));
            for &j in by_start.iter().skip(first).take(size) {
                relaxed[j] = true;
            }
        }
        1 if !users.is_empty() => {
            let mut count = 0;
            for _ in 0..2 * users.len() {
                if count >= size {
                    break;
                }
                for &j in &users[rng.random_range(0..users.len())] {
                    count += usize::from(!relaxed[j]);
                    relaxed[j] = true;
                }
            }
        }
        _ => {
            for _ in 0..size {
                relaxed[rng.random_range(0..n)] = true;
            }
        }
    }
    relaxed
}
