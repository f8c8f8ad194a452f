//! Splitting a proof between two threads: one search shortens the schedule while the
//! other refutes, from below, the makespans under it, and the two meet in the middle.
//!
//! The refuting thread asks whether any schedule ends one below the best schedule known so
//! far (of either thread): where none does, the bound meets that schedule and both threads
//! stop ([`Progress`]); where one does, the best schedule shortens, and again. Where the
//! other thread finds such a schedule first, the question is answered and asked again below
//! it. Each question is a plain satisfaction search that generates schedules backward,
//! from their end (module `sgs`), while the other thread's proof generates them forward:
//! the two directions refute different instances fast, and the race takes the faster. Every
//! redundant propagator is on (no DRCP proof is logged here).
//!
//! Asking two below the best schedule instead (the optimum assumed one below it) refuted
//! a horizon the proof did not need wherever the schedule was optimal already (PSPLIB
//! j3013_2: 60 and then 61, 40,000 and 55,000 conflicts, where 61 alone takes 55,000).

use std::sync::atomic::{AtomicI64, Ordering};

use pumpkin_solver::conflict_resolvers::resolvers::ResolutionResolver;
use pumpkin_solver::core::results::{ProblemSolution, SatisfactionResult};
use pumpkin_solver::core::termination::{Combinator, TerminationCondition};
use pumpkin_solver::Solver;

use super::model::{CpModel, Unbuildable};
use super::sgs::{Direction, Sgs};
use super::{post, stop_when, Posted, Redundant};
use crate::problem::Problem;
use crate::Cancel;

/// What two searches racing on one instance know together: the shortest makespan either
/// has found and the highest lower bound either has proven.
#[derive(Debug)]
pub struct Progress {
    lower: AtomicI64,
    upper: AtomicI64,
}

impl Progress {
    /// A proven bound `lower` and a schedule of makespan `upper` (`i64::MAX` for none).
    pub fn new(lower: i64, upper: i64) -> Progress {
        Progress {
            lower: AtomicI64::new(lower),
            upper: AtomicI64::new(upper),
        }
    }

    /// A schedule of `makespan` was found.
    pub fn found(&self, makespan: i64) {
        self.upper.fetch_min(makespan, Ordering::SeqCst);
    }

    /// No schedule is shorter than `lower`.
    pub fn proved(&self, lower: i64) {
        self.lower.fetch_max(lower, Ordering::SeqCst);
    }

    /// The shortest makespan found.
    fn upper(&self) -> i64 {
        self.upper.load(Ordering::SeqCst)
    }

    /// Whether the bound meets the best schedule: that schedule is optimal.
    pub fn met(&self) -> bool {
        self.lower.load(Ordering::SeqCst) >= self.upper.load(Ordering::SeqCst)
    }
}

/// Stops a search once its [`Progress`] (if any) has met.
pub(super) struct Met<'a>(pub(super) Option<&'a Progress>);

impl TerminationCondition for Met<'_> {
    fn should_stop(&mut self) -> bool {
        self.0.is_some_and(Progress::met)
    }
}

/// What [`refute_below`] established.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refuted {
    /// It found a schedule and proved that none is shorter (starts and makespan).
    Optimal { starts: Vec<i64>, makespan: i64 },
    /// No schedule is shorter than `lower`; `best` is the shortest schedule it found, if
    /// any (starts and makespan).
    Below {
        lower: i64,
        best: Option<(Vec<i64>, i64)>,
    },
}

/// Whether some schedule ends by `horizon` (and not before `floor`): one (starts and
/// makespan), `Ok(None)` where none does, `Err(())` where the search stopped first.
type Probe = Result<Option<(Vec<i64>, i64)>, ()>;

/// Refutes makespans below the best schedule `progress` knows, one below it each time,
/// telling `progress` every bound and every schedule it finds, within `seconds` or until
/// `cancel` is tripped or
/// `progress` meets; `floor` is a proven lower bound. `None` when times exceed 32 bits.
pub fn refute_below(
    problem: &Problem,
    floor: i64,
    seconds: f64,
    cancel: &Cancel,
    progress: &Progress,
) -> Option<Refuted> {
    let started = std::time::Instant::now();
    let mut lower = floor;
    let mut best: Option<(Vec<i64>, i64)> = None;
    loop {
        let upper = progress.upper();
        if let Some((starts, makespan)) = best.as_ref().filter(|b| b.1 <= lower) {
            return Some(Refuted::Optimal {
                starts: starts.clone(),
                makespan: *makespan,
            });
        }
        let left = seconds - started.elapsed().as_secs_f64();
        if lower >= upper || left <= 0.0 || cancel.is_cancelled() {
            return Some(Refuted::Below { lower, best });
        }
        let horizon = (upper - 1).max(lower);
        let probe = match CpModel::build(problem, horizon) {
            Ok(model) => exists(&model.with_floor(lower), left, cancel, progress),
            Err(Unbuildable::EmptyWindow) => Ok(None),
            Err(Unbuildable::TooLarge) => return None,
        };
        match probe {
            Ok(None) => {
                lower = horizon + 1;
                progress.proved(lower);
            }
            Ok(Some(found)) => {
                progress.found(found.1);
                best = Some(found);
            }
            // The other search found a schedule that answers the question: ask again below it.
            Err(()) if progress.upper() <= horizon && !progress.met() => {}
            Err(()) => return Some(Refuted::Below { lower, best }),
        }
    }
}

/// Backward schedule generation on `model` for any schedule at all ([`Probe`]); it stops
/// early where `progress` meets, or learns of a schedule that ends by the model's horizon
/// (which answers the question).
fn exists(model: &CpModel, seconds: f64, cancel: &Cancel, progress: &Progress) -> Probe {
    let mut solver = Solver::default();
    let Posted {
        starts, makespan, ..
    } = post(model, &mut solver, Redundant::Propagators);
    let mut termination = Combinator::new(
        stop_when(seconds, cancel, Some(progress)),
        Within {
            progress,
            horizon: i64::from(model.horizon),
        },
    );
    let tasks = starts.iter().copied().zip(model.durations.iter().copied());
    let mut brancher = Sgs::new(tasks.collect(), makespan, Direction::Backward);
    let mut resolver = ResolutionResolver::default();
    let probe = match solver.satisfy(&mut brancher, &mut termination, &mut resolver) {
        SatisfactionResult::Satisfiable(satisfiable) => {
            let solution = satisfiable.solution();
            let values = starts
                .iter()
                .map(|&s| i64::from(solution.get_integer_value(s)))
                .collect();
            Ok(Some((
                values,
                i64::from(solution.get_integer_value(makespan)),
            )))
        }
        SatisfactionResult::Unsatisfiable(..) => Ok(None),
        SatisfactionResult::Unknown(..) => Err(()),
    };
    probe
}

/// Stops a search for a schedule that ends by `horizon` once `progress` holds one.
struct Within<'a> {
    progress: &'a Progress,
    horizon: i64,
}

impl TerminationCondition for Within<'_> {
    fn should_stop(&mut self) -> bool {
        self.progress.upper() <= self.horizon
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::cp::testing::{optimum, small_projects};
    use crate::exact::cp::Branching;
    use proptest::prelude::*;

    #[test]
    fn a_bound_meets_a_schedule_only_from_below() {
        let progress = Progress::new(3, 9);
        assert!(!progress.met());
        progress.proved(7);
        progress.proved(5);
        assert!(!progress.met());
        progress.found(8);
        progress.found(10);
        assert!(!progress.met());
        progress.found(7);
        assert!(progress.met());
        assert!(Met(Some(&progress)).should_stop());
        assert!(!Met(None).should_stop());
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        /// Told of a schedule `gap` above the optimum, the refutation never proves a bound
        /// above the optimum, and it ends with the optimum: its own schedule of that
        /// makespan, or (when the schedule it was told of is optimal) the bound meeting it.
        #[test]
        fn refutations_from_below_end_at_the_optimum(
            instance in small_projects("random-refuted"),
            gap in 0i64..=3,
        ) {
            let Ok(problem) = Problem::compile(&instance) else { return Ok(()) };
            let Some(optimum) = optimum(&problem, Branching::SmallestStart) else { return Ok(()) };
            let progress = Progress::new(0, optimum + gap);
            let refuted = refute_below(&problem, 0, 30.0, &Cancel::new(), &progress).unwrap();
            match refuted {
                Refuted::Optimal { starts, makespan } => {
                    prop_assert_eq!(makespan, optimum);
                    prop_assert_eq!(starts.len(), problem.len());
                }
                Refuted::Below { lower, best } => {
                    prop_assert_eq!(gap, 0, "{:?}", (lower, best));
                    prop_assert_eq!(lower, optimum);
                }
            }
            prop_assert!(progress.met());
        }
    }
}
