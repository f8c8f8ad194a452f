//! With two threads or more per instance (`--threads`), the constraint model and a second
//! method run side by side wherever the constraint model takes the problem, and the first
//! proof stops the other.
//!
//! The second is the MILP, except on job shops ([`cp::machines_only`]). Each proves what
//! the other cannot in time: on PSPLIB j30 at 10 s, Pumpkin proves j3013_3 in 4.6 s where
//! the MILP stops at a bound of 70 against 76, and the MILP proves j309_2 in 1.1 s where
//! Pumpkin needs 9.1 s; the MILP's time-indexed relaxation also bounds the open ones far
//! better (j3029_6: 80 against 68, optimum 92). On job shops the time-indexed relaxation
//! is weak (ft10 stays at 911 against 930) and HiGHS's presolve of it does not stop for
//! seconds once cancelled, so the constraint model races itself there, with other random
//! choices. Without a proof, the shorter schedule and the stronger bound are kept, and
//! may meet.
//!
//! On projects of activities on resources alone ([`cp::resources_only`]: RCPSP) the second
//! is the MILP for a tenth of the time (its relaxation closes some at once), then the
//! constraint model refuting, from the MILP's bound up, the makespans under the best
//! schedule while the first shortens it (`cp::bound`); the two stop as soon as the bound
//! meets the schedule. On PSPLIB j30 the MILP bounded none of the slowest instances
//! (j3013_2, _5, _6) within 10 s, and the split roughly halves many proofs.

use std::num::NonZeroU32;

use makespan_model::solution::{BoundSource, Status};

use super::cp::bound::Progress;
use super::cp::{self, method::Cp};
use super::milp::method::Milp;
use super::milp::STACK;
use super::{ExactMethod, Outcome};
use crate::bounds::LowerBound;
use crate::heuristics::Heuristic;
use crate::problem::Problem;
use crate::{Run, SolveOptions};

/// The strategy of the constraint model that races another: other random choices, and
/// on job shops a tabu search on the machine sequences first and a proof that branches
/// on activity, beside the first's on orders.
const RIVAL: cp::Strategy = cp::Strategy {
    seed: cp::SEED + 1,
    branching: cp::Branching::Activity,
    tabu: true,
};

/// Pumpkin on this thread and the second method (on the other threads) on one of its own;
/// `None` only when neither ran. If the thread cannot be started, the two run one after
/// the other.
pub(crate) fn race(
    problem: &Problem,
    lower: LowerBound,
    heuristic: Option<&Heuristic>,
    options: &SolveOptions,
    run: &Run,
) -> Option<Outcome> {
    let first = super::CP;
    let rival = Cp { strategy: RIVAL };
    let second: &dyn ExactMethod = if cp::machines_only(problem) {
        &rival
    } else {
        &Milp
    };
    let upper = heuristic.map(|h| h.makespan(problem));
    let progress = Progress::new(lower.value, upper.unwrap_or(i64::MAX));
    let refuting = cp::resources_only(problem) && upper.is_some();
    let shared = refuting.then_some(&progress);
    let second_solve = |options: &SolveOptions, run: &Run| match refuting {
        true => milp_then_refute(problem, lower, heuristic, options, run, &progress),
        false => second.solve(problem, lower, heuristic, options, run),
    };
    let cp_run = Run {
        cancel: run.cancel.child(),
        ..run.clone()
    };
    let second_run = Run {
        cancel: run.cancel.child(),
        ..run.clone()
    };
    let second_options = SolveOptions {
        threads: NonZeroU32::new(options.threads.get() - 1).unwrap_or(NonZeroU32::MIN),
        ..options.clone()
    };
    let (cp, other) = std::thread::scope(|scope| {
        let other = std::thread::Builder::new()
            .stack_size(STACK)
            .spawn_scoped(scope, || {
                let outcome = second_solve(&second_options, &second_run);
                if outcome.as_ref().is_some_and(decided) {
                    cp_run.cancel.cancel();
                }
                outcome
            });
        let cp = first.solve_racing(problem, lower, heuristic, options, &cp_run, shared);
        let cp_decided = cp.as_ref().is_some_and(decided);
        if cp_decided {
            second_run.cancel.cancel();
        }
        let other = match other {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) if cp_decided => None,
            Err(_) => second_solve(options, run),
        };
        (cp, other)
    });
    let outcome = match (cp, other) {
        (Some(cp), Some(other)) => Some(best_of(problem, cp, other)),
        (cp, other) => cp.or(other),
    };
    // Either search may have proven the bound that meets the other's schedule.
    match refuting {
        true => outcome.map(|o| with_bound(problem, o, progress.lower())),
        false => outcome,
    }
}

/// An undecided `outcome` with its bound raised to `value`, proven by the constraint model:
/// optimal where that meets its schedule.
fn with_bound(problem: &Problem, mut outcome: Outcome, value: i64) -> Outcome {
    if decided(&outcome) {
        return outcome;
    }
    let proven = LowerBound {
        value,
        source: BoundSource::Cp,
    };
    outcome.bound = Some(outcome.bound.map_or(proven, |b| b.max(proven)));
    let mut outcome = met(problem, outcome);
    if decided(&outcome) && outcome.method == "heuristic" {
        outcome.method = "heuristic+cp".into();
    }
    outcome
}

/// Share of the time left that the MILP gets before the refutation from below.
const MILP_SHARE: f64 = 0.1;

/// The MILP for [`MILP_SHARE`] of the time left: its proof, or else the constraint model
/// refuting from its bound up, sharing `progress` with the search racing it.
fn milp_then_refute(
    problem: &Problem,
    lower: LowerBound,
    heuristic: Option<&Heuristic>,
    options: &SolveOptions,
    run: &Run,
    progress: &Progress,
) -> Option<Outcome> {
    let first = run.slice(options.time_limit, MILP_SHARE);
    let milp = Milp.solve(problem, lower, heuristic, options, &first);
    if milp.as_ref().is_some_and(decided) || run.cancel.is_cancelled() {
        return milp;
    }
    let lower = match milp.as_ref().and_then(|m| m.bound) {
        Some(bound) => lower.max(bound),
        None => lower,
    };
    progress.proved(lower.value);
    cp::method::refute(problem, lower, heuristic, options, run, progress).or(milp)
}

/// Whether an outcome is a proof: an optimum, or that nothing is feasible.
pub(super) fn decided(outcome: &Outcome) -> bool {
    matches!(outcome.status, Status::Optimal | Status::Infeasible)
}

/// A proof if either has one (the constraint model's first); otherwise the shorter schedule
/// with the stronger bound, optimal where they meet.
fn best_of(problem: &Problem, cp: Outcome, other: Outcome) -> Outcome {
    if decided(&cp) {
        return cp;
    }
    if decided(&other) {
        return other;
    }
    let sink = problem.network.sink();
    let makespan = |o: &Outcome| o.starts.as_ref().map_or(i64::MAX, |s| s[sink]);
    let (mut best, other) = if makespan(&other) < makespan(&cp) {
        (other, cp)
    } else {
        (cp, other)
    };
    best.bound = match (best.bound, other.bound) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    };
    best.milp_ran |= other.milp_ran;
    best.nodes = best.nodes.or(other.nodes);
    met(problem, best)
}

/// `outcome`, optimal where its bound meets its schedule.
fn met(problem: &Problem, mut outcome: Outcome) -> Outcome {
    let sink = problem.network.sink();
    if let (Some(bound), Some(starts)) = (outcome.bound, &outcome.starts) {
        if bound.value >= starts[sink] {
            outcome.status = Status::Optimal;
            outcome.reason = None;
        }
    }
    outcome
}

#[cfg(test)]
mod tests {
    use makespan_model::instance::{Activity, Instance};
    use makespan_model::solution::BoundSource;

    use super::*;

    fn problem() -> Problem {
        let instance = Instance {
            activities: vec![Activity::new("a", 3), Activity::new("b", 4)],
            ..Instance::new("two", Some(1))
        };
        Problem::compile(&instance).unwrap()
    }

    /// An outcome with a schedule of `makespan` (if any) and a bound.
    fn outcome(
        problem: &Problem,
        makespan: Option<i64>,
        bound: i64,
        source: BoundSource,
    ) -> Outcome {
        let sink = problem.network.sink();
        Outcome {
            status: Status::Feasible,
            starts: makespan.map(|m| {
                let mut starts = vec![0; sink + 1];
                starts[sink] = m;
                starts
            }),
            bound: Some(LowerBound {
                value: bound,
                source,
            }),
            reason: Some("not proven optimal: the time limit".into()),
            failure: None,
            method: "test".into(),
            milp_ran: source == BoundSource::Milp,
            nodes: None,
        }
    }

    #[test]
    fn one_schedule_and_the_other_bound_meet_in_an_optimum() {
        let p = problem();
        let cp = outcome(&p, Some(7), 5, BoundSource::Cp);
        let milp = outcome(&p, Some(8), 7, BoundSource::Milp);
        let best = best_of(&p, cp, milp);
        assert_eq!(best.status, Status::Optimal);
        assert_eq!(best.starts.unwrap()[p.network.sink()], 7);
        assert_eq!(
            best.bound.map(|b| (b.value, b.source)),
            Some((7, BoundSource::Milp))
        );
        assert_eq!(best.reason, None);
    }

    #[test]
    fn without_a_meeting_the_shorter_schedule_keeps_the_stronger_bound() {
        let p = problem();
        let cp = outcome(&p, Some(9), 5, BoundSource::Cp);
        let milp = outcome(&p, Some(8), 6, BoundSource::Milp);
        let best = best_of(&p, cp, milp);
        assert_eq!(best.status, Status::Feasible);
        assert_eq!(best.starts.unwrap()[p.network.sink()], 8);
        assert_eq!(best.bound.map(|b| b.value), Some(6));
        let no_schedule = outcome(&p, None, 7, BoundSource::Milp);
        let best = best_of(&p, outcome(&p, Some(9), 5, BoundSource::Cp), no_schedule);
        assert_eq!(best.starts.unwrap()[p.network.sink()], 9);
        assert_eq!(best.bound.map(|b| b.value), Some(7));
    }

    #[test]
    fn a_bound_the_race_shared_proves_a_heuristic_schedule_it_meets() {
        let p = problem();
        let heuristic = || Outcome {
            method: "heuristic".into(),
            ..outcome(&p, Some(8), 5, BoundSource::Cp)
        };
        let below = with_bound(&p, heuristic(), 7);
        assert_eq!(below.status, Status::Feasible);
        assert_eq!(below.bound.map(|b| b.value), Some(7));
        assert_eq!(below.method, "heuristic");
        let met = with_bound(&p, heuristic(), 8);
        assert_eq!(met.status, Status::Optimal);
        assert_eq!(met.reason, None);
        assert_eq!(met.method, "heuristic+cp");
        // A weaker shared bound lowers nothing.
        let kept = with_bound(&p, outcome(&p, Some(9), 6, BoundSource::Milp), 4);
        assert_eq!(
            kept.bound.map(|b| (b.value, b.source)),
            Some((6, BoundSource::Milp))
        );
    }
}
