//! Properties of `makespan explain` on random instances (the shared strategies) and random
//! valid plans (the solver's optimum, with activities moved later where the verifier still
//! accepts it): the chain runs without gaps from 0 to the makespan; the lost-time parts are
//! never negative and sum exactly; an optimal schedule from the solver has no unforced wait on its chain; moving
//! one activity later by k makes an unforced wait of k; and the unforced wait of every
//! activity is exactly how far the verifier lets it move earlier alone.

use makespan::explain::{explain, Explanation, LostTime, Reference};
use makespan::instance::Instance;
use makespan::schedule::{makespan as makespan_of, Piece, ScheduledActivity};
use makespan::{verify, SolveOptions, Status};
use proptest::prelude::*;

use crate::common::strategies::{
    agent_instances, mutation_instances, oven_recipe_instances, rcpsp_instances,
};

/// Any of the shared random instance shapes: agents with `busy_for` and a unary tool,
/// cumulative resources, preemptible and start-to-start work, Recipe2Plan-like recipes with
/// windows, instant agent needs and oven states.
fn instances() -> impl Strategy<Value = Instance> {
    prop_oneof![
        agent_instances(),
        rcpsp_instances(),
        mutation_instances(),
        oven_recipe_instances(),
    ]
}

/// An instance, its proven optimum (skipped when the solver proves none), and a valid plan:
/// the optimum with activities (by the `moves` picks) moved later by what the verifier
/// still accepts.
#[derive(Debug, Clone)]
struct Case {
    instance: Instance,
    optimum: Vec<ScheduledActivity>,
    plan: Vec<ScheduledActivity>,
}

fn shifted(schedule: &[ScheduledActivity], k: usize, by: i64) -> Vec<ScheduledActivity> {
    let mut out = schedule.to_vec();
    for p in &mut out[k].pieces {
        *p = Piece(p.0 + by, p.1 + by);
    }
    out
}

fn cases() -> impl Strategy<Value = Option<Case>> {
    (
        instances(),
        prop::collection::vec((any::<prop::sample::Index>(), 1i64..=4), 0..=3),
    )
        .prop_map(|(instance, moves)| {
            let solution = makespan::solve(&instance, &SolveOptions::default());
            if solution.status != Status::Optimal || solution.schedule.is_empty() {
                return None;
            }
            let optimum = solution.schedule;
            let mut plan = optimum.clone();
            for (pick, by) in moves {
                let k = pick.index(plan.len());
                let moved = shifted(&plan, k, by);
                if verify(&instance, &moved).valid {
                    plan = moved;
                }
            }
            Some(Case {
                instance,
                optimum,
                plan,
            })
        })
}

fn explained(case: &Case, schedule: &[ScheduledActivity], reference: bool) -> Explanation {
    let report = verify(&case.instance, schedule);
    let reference = reference.then(|| Reference {
        schedule: &case.optimum,
        makespan: makespan_of(&case.optimum),
        optimal: true,
    });
    explain(&case.instance, schedule, &report.violations, reference)
        .expect("the optimum places every activity")
}

/// The lost-time parts are never negative and sum to the loss (to 0 when the plan is the
/// shorter); the waits charged are at most the chain's unforced waits.
fn assert_lost_parts(e: &Explanation, lost: &LostTime) -> Result<(), TestCaseError> {
    let mut parts = vec![lost.waits, lost.rest];
    parts.extend(lost.ordering.iter().map(|o| o.cost));
    prop_assert!(parts.iter().all(|&p| p >= 0), "{:#?}", lost);
    prop_assert_eq!(
        lost.waits + lost.ordering_total() + lost.rest,
        lost.lost.max(0),
        "{:#?}",
        lost
    );
    let chain_waits: i64 = e.chain.iter().map(|s| s.wait().max(0)).sum();
    prop_assert!(lost.waits <= chain_waits, "{:#?}", lost);
    Ok(())
}

fn assert_contiguous(e: &Explanation) {
    if e.activities.is_empty() {
        assert!(e.chain.is_empty());
        return;
    }
    assert_eq!(e.chain.first().map(|s| s.from), Some(0), "{e:#?}");
    assert_eq!(e.chain.last().map(|s| s.to), Some(e.makespan), "{e:#?}");
    for w in e.chain.windows(2) {
        assert_eq!(w[0].to, w[1].from, "{e:#?}");
    }
    for s in &e.chain {
        assert!(s.start <= s.to && s.ready <= s.start, "{s:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn the_chain_runs_contiguously_from_zero_to_the_makespan(case in cases()) {
        let Some(case) = case else { return Ok(()) };
        assert_contiguous(&explained(&case, &case.plan, false));
        assert_contiguous(&explained(&case, &case.optimum, false));
    }

    #[test]
    fn the_chain_is_contiguous_for_invalid_plans_too(
        instance in instances(),
        starts in prop::collection::vec(0i64..12, 8),
    ) {
        // Every activity at an arbitrary start, agent 0: mostly invalid plans.
        let schedule: Vec<ScheduledActivity> = instance
            .activities
            .iter()
            .zip(starts.iter().cycle())
            .map(|(a, &s)| ScheduledActivity::at(a.id.clone(), Some(0), s, a.duration))
            .collect();
        let report = verify(&instance, &schedule);
        let e = explain(&instance, &schedule, &report.violations, None).unwrap();
        assert_contiguous(&e);
    }

    #[test]
    fn the_lost_time_parts_sum_exactly(case in cases()) {
        let Some(case) = case else { return Ok(()) };
        let e = explained(&case, &case.plan, true);
        let lost = e.lost.clone().expect("a reference was given");
        prop_assert_eq!(lost.lost, e.makespan - makespan_of(&case.optimum));
        assert_lost_parts(&e, &lost)?;
    }

    /// Against any valid schedule as the reference (the plan may be the shorter, and the two
    /// may differ in every order), the parts are never negative and sum to the loss: signed
    /// parts read `ordering choices 77 + rest -30` for a loss of 47.
    #[test]
    fn the_lost_time_parts_are_never_negative_against_any_reference(case in cases()) {
        let Some(case) = case else { return Ok(()) };
        let heuristic = makespan::solve(
            &case.instance,
            &SolveOptions { heuristic_only: true, ..SolveOptions::default() },
        )
        .schedule;
        let mut pairs = vec![(&case.plan, &case.optimum), (&case.optimum, &case.plan)];
        if verify(&case.instance, &heuristic).valid {
            pairs.extend([(&heuristic, &case.plan), (&case.plan, &heuristic)]);
        }
        for (plan, reference) in pairs {
            let e = explain(
                &case.instance,
                plan,
                &[],
                Some(Reference { schedule: reference, makespan: makespan_of(reference), optimal: false }),
            )
            .unwrap();
            let lost = e.lost.clone().expect("a reference was given");
            prop_assert_eq!(lost.lost, e.makespan - makespan_of(reference));
            assert_lost_parts(&e, &lost)?;
        }
    }

    #[test]
    fn an_optimal_schedule_from_the_solver_has_no_unforced_wait_on_its_chain(case in cases()) {
        let Some(case) = case else { return Ok(()) };
        let e = explained(&case, &case.optimum, true);
        prop_assert!(e.chain.iter().all(|s| s.wait() == 0), "{:#?}", e.chain);
        prop_assert_eq!(e.lost.map(|l| l.lost), Some(0));
    }

    #[test]
    fn shifting_one_activity_later_by_k_creates_an_unforced_wait_of_k(
        case in cases(),
        pick in any::<prop::sample::Index>(),
        k in 1i64..=5,
    ) {
        let Some(case) = case else { return Ok(()) };
        let before = explained(&case, &case.optimum, false);
        let index = pick.index(case.optimum.len());
        let id = &case.optimum[index].activity;
        let pinned = before.activities.iter().find(|a| &a.activity == id).is_some_and(|a| a.wait == 0);
        // Every intermediate position must be valid too, or the wait is cut short there.
        let clean = (1..=k).all(|d| verify(&case.instance, &shifted(&case.optimum, index, d)).valid);
        prop_assume!(pinned && clean);
        let after = explained(&case, &shifted(&case.optimum, index, k), false);
        let moved = after.activities.iter().find(|a| &a.activity == id).unwrap();
        prop_assert_eq!(moved.wait, k, "{:#?}", moved);
    }

    #[test]
    fn the_unforced_wait_is_exactly_how_far_the_verifier_lets_an_activity_move_earlier(case in cases()) {
        let Some(case) = case else { return Ok(()) };
        let e = explained(&case, &case.plan, false);
        for (index, entry) in case.plan.iter().enumerate() {
            let a = e.activities.iter().find(|a| a.activity == entry.activity).unwrap();
            for d in 1..=a.wait {
                let moved = shifted(&case.plan, index, -d);
                prop_assert!(verify(&case.instance, &moved).valid, "{} moved {d} earlier of its wait {}: {}", a.activity, a.wait, verify(&case.instance, &moved).render_text());
            }
            let beyond = shifted(&case.plan, index, -(a.wait + 1));
            let start = beyond[index].pieces[0].0;
            prop_assert!(start < 0 || !verify(&case.instance, &beyond).valid,
                "{} could move {} earlier but the explanation says {} ({:?})", a.activity, a.wait + 1, a.wait, a.reasons);
        }
    }
}
