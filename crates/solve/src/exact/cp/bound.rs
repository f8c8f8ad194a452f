//! Splitting a proof between two threads that ask the same questions from below and meet
//! the best schedule either has found.
//!
//! Each thread asks whether any schedule ends one below the best schedule known so far (of
//! either thread): where none does, the bound meets that schedule and both threads stop
//! ([`Progress`]); where one does, the best schedule shortens, and again. Where the other
//! thread finds such a schedule first, the question is answered and asked again below it.
//! Each question is a plain satisfaction search that generates schedules, one thread
//! forward and the other backward from their end (module `sgs`): the two directions refute
//! different instances fast, and the race takes the faster. Every redundant propagator is
//! on (no DRCP proof is logged here).
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
    pub(crate) fn upper(&self) -> i64 {
        self.upper.load(Ordering::SeqCst)
    }

    /// The highest bound proven.
    pub(crate) fn lower(&self) -> i64 {
        self.lower.load(Ordering::SeqCst)
    }

    /// Whether the bound meets the best schedule: that schedule is optimal.
    pub fn met(&self) -> bool {
        self.lower() >= self.upper()
    }
}

/// Stops a search once its [`Progress`] (if any) has met.
pub(super) struct Met<'a>(pub(super) Option<&'a Progress>);

impl TerminationCondition for Met<'_> {
    fn should_stop(&mut self) -> bool {
        self.0.is_some_and(Progress::met)
    }
}

/// Stops a search once no shorter schedule has been found (by it or by the search racing
/// it, as `progress` tells) for `patience` steps (decisions and conflicts), or for as many
/// as the search took to find the last one, whichever is more. Steps, not seconds, so that
/// a loaded machine does not cut it short. Without `progress` it never stops the search.
#[derive(Debug)]
pub(super) struct Stalled<'a> {
    progress: Option<&'a Progress>,
    patience: u64,
    steps: u64,
    /// The shortest makespan seen, and at which step it was seen.
    last: (i64, u64),
}

impl<'a> Stalled<'a> {
    pub(super) fn new(progress: Option<&'a Progress>, patience: u64) -> Stalled<'a> {
        Stalled {
            progress,
            patience,
            steps: 0,
            last: (progress.map_or(i64::MAX, Progress::upper), 0),
        }
    }
}

impl TerminationCondition for Stalled<'_> {
    fn should_stop(&mut self) -> bool {
        let Some(progress) = self.progress else {
            return false;
        };
        self.steps += 1;
        let upper = progress.upper();
        if upper < self.last.0 {
            self.last = (upper, self.steps);
        }
        self.steps - self.last.1 > self.patience.max(self.last.1)
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
/// generating schedules in `direction`, telling `progress` every bound and every schedule
/// it finds, within `seconds` or until `cancel` is tripped or `progress` meets; `floor` (and
/// whatever bound `progress` holds) is a proven lower bound. `None` when times exceed 32
/// bits.
pub fn refute_below(
    problem: &Problem,
    floor: i64,
    seconds: f64,
    cancel: &Cancel,
    progress: &Progress,
    direction: Direction,
) -> Option<Refuted> {
    let started = std::time::Instant::now();
    let mut lower = floor;
    let mut best: Option<(Vec<i64>, i64)> = None;
    loop {
        let upper = progress.upper();
        lower = lower.max(progress.lower());
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
            Ok(model) => exists(&model.with_floor(lower), left, cancel, progress, direction),
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

/// Schedule generation in `direction` on `model` for any schedule at all ([`Probe`]); it
/// stops early where `progress` meets, or learns of a schedule that ends by the model's
/// horizon (which answers the question).
fn exists(
    model: &CpModel,
    seconds: f64,
    cancel: &Cancel,
    progress: &Progress,
    direction: Direction,
) -> Probe {
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
    let mut brancher = Sgs::new(tasks.collect(), makespan, direction);
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
    use pumpkin_solver::core::branching::{Brancher, BrancherEvent, SelectionContext};
    use pumpkin_solver::core::predicates::Predicate;
    use pumpkin_solver::core::termination::Indefinite;

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

    #[test]
    fn a_search_stalls_after_its_patience_or_as_long_as_its_last_find_took() {
        let progress = Progress::new(0, 20);
        let mut stalled = Stalled::new(Some(&progress), 3);
        let steps = |stalled: &mut Stalled| (1..).find(|_| stalled.should_stop()).unwrap();
        assert_eq!(steps(&mut stalled), 4);
        // Shorter schedules, seen at steps 3 and 7: 3 more steps after the first (its
        // patience), then 7 more after the second (as many as it took to find).
        let mut stalled = Stalled::new(Some(&progress), 3);
        assert!(!stalled.should_stop() && !stalled.should_stop());
        progress.found(19);
        assert!((3..=6).all(|_| !stalled.should_stop()));
        progress.found(18);
        assert_eq!(steps(&mut stalled), 9);
        // Alone, nothing tells it of schedules: it never stalls.
        let mut alone = Stalled::new(None, 0);
        assert!((0..100).all(|_| !alone.should_stop()));
    }

    /// Counts the conflicts of the search it branches for.
    #[derive(Debug)]
    struct Counted {
        inner: Sgs,
        conflicts: u64,
    }

    impl Brancher for Counted {
        fn next_decision(&mut self, context: &mut SelectionContext) -> Option<Predicate> {
            self.inner.next_decision(context)
        }

        fn on_conflict(&mut self) {
            self.conflicts += 1;
        }

        fn subscribe_to_events(&self) -> Vec<BrancherEvent> {
            vec![BrancherEvent::Conflict]
        }
    }

    /// A measurement, not a check: `MAKESPAN_REFUTE="FILE.sm:HORIZON ..." cargo test
    /// --release -p makespan-solve --lib measure_refutations -- --ignored --nocapture` asks
    /// of each PSPLIB file whether a schedule ends by the horizon, in both directions, and
    /// prints the answer, the conflicts and the seconds (searches are compared by their
    /// conflicts, which the machine's load does not change).
    #[test]
    #[ignore = "a measurement on files named in MAKESPAN_REFUTE"]
    fn measure_refutations() {
        let list = std::env::var("MAKESPAN_REFUTE").unwrap_or_default();
        for item in list.split_whitespace() {
            let (file, horizon) = item.rsplit_once(':').expect("FILE:HORIZON");
            let text = std::fs::read_to_string(file).unwrap();
            let path = std::path::Path::new(file);
            let instance = makespan_benchmarks::psplib::import(path, &text)
                .unwrap()
                .remove(0);
            let problem = Problem::compile(&instance).unwrap();
            let model = CpModel::build(&problem, horizon.parse().unwrap()).unwrap();
            for direction in [Direction::Forward, Direction::Backward] {
                let mut solver = Solver::default();
                let Posted {
                    starts, makespan, ..
                } = post(&model, &mut solver, Redundant::Propagators);
                let tasks = starts.iter().copied().zip(model.durations.iter().copied());
                let inner = Sgs::new(tasks.collect(), makespan, direction);
                let mut brancher = Counted {
                    inner,
                    conflicts: 0,
                };
                let started = std::time::Instant::now();
                let answer = match solver.satisfy(
                    &mut brancher,
                    &mut Indefinite,
                    &mut ResolutionResolver::default(),
                ) {
                    SatisfactionResult::Satisfiable(_) => "a schedule",
                    SatisfactionResult::Unsatisfiable(..) => "none",
                    SatisfactionResult::Unknown(..) => unreachable!("no limit was set"),
                };
                println!(
                    "{file} by {horizon} {direction:?}: {answer}, {} conflicts, {:.2} s",
                    brancher.conflicts,
                    started.elapsed().as_secs_f64()
                );
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        /// Told of a schedule `gap` above the optimum, the refutation in either direction
        /// never proves a bound above the optimum, and it ends with the optimum: its own
        /// schedule of that makespan, or (when the schedule it was told of is optimal) the
        /// bound meeting it.
        #[test]
        fn refutations_from_below_end_at_the_optimum(
            instance in small_projects("random-refuted"),
            gap in 0i64..=3,
        ) {
            let Ok(problem) = Problem::compile(&instance) else { return Ok(()) };
            let Some(optimum) = optimum(&problem, Branching::SmallestStart) else { return Ok(()) };
            for direction in [Direction::Forward, Direction::Backward] {
                let progress = Progress::new(0, optimum + gap);
                let refuted =
                    refute_below(&problem, 0, 30.0, &Cancel::new(), &progress, direction).unwrap();
                match refuted {
                    Refuted::Optimal { starts, makespan } => {
                        prop_assert_eq!(makespan, optimum);
                        prop_assert_eq!(starts.len(), problem.len());
                    }
                    Refuted::Below { lower, best } => {
                        prop_assert_eq!(gap, 0, "{:?}", (direction, lower, best));
                        prop_assert_eq!(lower, optimum);
                    }
                }
                prop_assert!(progress.met());
            }
        }
    }
}
