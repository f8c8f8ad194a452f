//! The concrete kitchens' oracle on the benchmark's own maps: its plans serve every order in
//! both modes of the game, its proofs hold, and no bound exceeds a plan.

use std::sync::OnceLock;
use std::time::Duration;

use makespan_benchmarks::paracook::concrete::bounds::{instance_bound, Estimator, Rules};
use makespan_benchmarks::paracook::concrete::checkout::read_checkout;
use makespan_benchmarks::paracook::concrete::oracle::beam::beam;
use makespan_benchmarks::paracook::concrete::oracle::layout::Layout;
use makespan_benchmarks::paracook::concrete::oracle::model::State;
use makespan_benchmarks::paracook::concrete::oracle::solve::plan_kitchen;
use makespan_benchmarks::paracook::concrete::oracle::world::KitchenWorld;
use makespan_benchmarks::paracook::concrete::oracle::{answer, replay};
use makespan_benchmarks::paracook::concrete::sim::{simulate, Mode, Plan};
use makespan_benchmarks::paracook::concrete::Kitchen;
use makespan_world::{Limits, World};
use proptest::prelude::*;

/// The checkout's kitchens, read once; `None` (skipped) without the data.
fn kitchens() -> Option<&'static Vec<Kitchen>> {
    static KITCHENS: OnceLock<Option<Vec<Kitchen>>> = OnceLock::new();
    KITCHENS
        .get_or_init(|| {
            let root = makespan_testkit::data("paracook/upstream")?;
            Some(read_checkout(&root).expect("the checkout reads"))
        })
        .as_ref()
}

fn kitchen(key: &str) -> Option<&'static Kitchen> {
    Some(
        kitchens()?
            .iter()
            .find(|k| k.key == key)
            .expect("the key is in the checkout"),
    )
}

#[test]
fn one_cook_one_order_is_planned_and_replays_in_both_modes() {
    for key in [
        "salad/seed_42/agent_num_1/orders_num_1",
        "sashimi/seed_84/agent_num_1/orders_num_1",
        "pasta/seed_42/agent_num_1/orders_num_1",
    ] {
        let Some(k) = kitchen(key) else { return };
        let limits = Limits {
            time: Some(Duration::from_secs(20)),
            ..Limits::default()
        };
        let oracle = plan_kitchen(k, &limits).unwrap();
        let best = oracle.best.as_ref().expect("a plan");
        assert!(oracle.refused.is_empty(), "{key}: {:?}", oracle.refused);
        assert!(best.replica.done && best.intended.done, "{key}");
        assert_eq!(best.replica.oct, best.time as f64, "{key}");
        assert_eq!(best.intended.oct, best.time as f64, "{key}");
        assert!(
            oracle.intended_bound.value <= best.time
                && oracle.replica_bound.value <= oracle.intended_bound.value
        );
    }
}

#[test]
fn the_bounds_of_salad_on_seed_42_alone_are_the_chains_and_the_load() {
    let Some(k) = kitchen("salad/seed_42/agent_num_1/orders_num_2") else {
        return;
    };
    let lay = Layout::of_kitchen(k).unwrap();
    let (intended, replica) = instance_bound(&lay);
    // No cooking in a salad: both rule sets give the same bound.
    assert_eq!(intended, replica);
    assert!(intended.value >= 28, "{intended:?}");
}

/// Plans a kitchen by beam search, then checks along the plan that the estimate from every
/// state it passes, plus the time spent, never exceeds the plan's time, that the instance's
/// bounds do not, and that both modes of the game replay the plan to that time.
fn bounds_hold_along_a_plan(
    k: &Kitchen,
    width: usize,
    weight: i64,
    along: bool,
) -> Result<(), TestCaseError> {
    let lay = Layout::of_kitchen(k).unwrap();
    let world = KitchenWorld {
        restricted: true,
        ..KitchenWorld::new(&lay)
    };
    let Some((decisions, cost)) = beam(&world, width, weight, None, i64::MAX) else {
        return Ok(()); // the beam may find nothing; nothing to check
    };
    let planned = replay(&lay, &decisions).expect("the model replays its own plan");
    prop_assert_eq!(i64::from(planned.time), cost);
    let plan = Plan::from_json(&answer(&lay, &planned)).unwrap();
    for mode in Mode::BOTH {
        let run = simulate(k, &plan, mode);
        prop_assert!(run.done, "{} {:?}: {:?}", k.key, mode, run.error);
        prop_assert_eq!(run.oct, cost as f64, "{} {:?}", k.key, mode);
    }
    let (intended, replica) = instance_bound(&lay);
    prop_assert!(
        intended.value <= cost && replica.value <= cost,
        "{}: {intended:?} {replica:?} > {cost}",
        k.key
    );
    if !along {
        return Ok(());
    }
    let est = Estimator::new(&lay, Rules::Intended);
    let mut state = world.initial();
    let mut now = 0i64;
    for d in &decisions {
        let rest = est.remaining(&lay, &state).value;
        prop_assert!(
            now + rest <= cost,
            "{}: at {now} the estimate {rest} passes the plan's {cost}",
            k.key
        );
        state.apply(&lay, *d, None).unwrap();
        now += i64::from(state.settle(&lay, None).unwrap());
    }
    prop_assert!(state.done(&lay));
    let _: &State = &state;
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn no_bound_exceeds_a_plan_the_game_replays(
        pick in 0usize..1000,
        width in 5usize..40,
        weight in 0i64..9,
    ) {
        let Some(all) = kitchens() else { return Ok(()) };
        let small: Vec<&Kitchen> = all.iter().filter(|k| k.orders_num <= 2).collect();
        bounds_hold_along_a_plan(small[pick % small.len()], width, weight, false)?;
    }
}

/// Known to fail: from some states the estimate passes the plan (burrito, seed 84, one cook:
/// 34 at time 17 against a plan of 49), so the exact search claims nothing yet.
#[test]
#[ignore = "the estimate from mid-plan states is not yet admissible"]
fn the_estimate_never_passes_a_plan_from_any_state_on_it() {
    let Some(k) = kitchen("burrito/seed_84/agent_num_1/orders_num_1") else {
        return;
    };
    bounds_hold_along_a_plan(k, 19, 3, true).unwrap();
}
