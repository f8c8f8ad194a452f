//! Property: the exact search over time for one agent (`agent_search`) and the
//! time-indexed MILP find the same optimum on random Recipe2Plan-shaped instances: one
//! cook; continuous, interruptible and autonomous steps; a stove and a microwave; time
//! windows (max lags on every piece); an oven preheat and bake that set and require a
//! temperature. The search prunes with canonical forms (runs of free chunks, eager
//! autonomous starts), dominance (a state whose activities started no later) and bounds (start windows over maximum lags, due dates on the cook
//! and the appliances) whose soundness this checks against a method that has none, also
//! with the search's bound at the optimum.

use std::num::NonZeroU32;

use makespan_model::instance::Instance;
use makespan_solve::internals::agent_search;
use makespan_solve::internals::milp::{self, MilpOutcome, MilpSettings};
use makespan_solve::internals::unit_search::SearchOutcome;
use makespan_solve::internals::Problem;
use makespan_solve::Cancel;
use proptest::prelude::*;

use makespan_testkit::strategies::{
    long_wait_recipe_instances, oven_recipe, oven_recipe_instances,
};

/// The MILP's proven optimum within `horizon` (`None`: nothing ends by it).
fn milp_optimum(problem: &Problem, horizon: i64) -> Option<i64> {
    let settings = MilpSettings {
        time_limit: 60.0,
        threads: NonZeroU32::MIN,
        node_limit: None,
        export_lp: None,
        cancel: Cancel::new(),
    };
    match milp::solve(problem, horizon, 0, &settings).expect("the MILP runs") {
        MilpOutcome::Infeasible { .. } => None,
        MilpOutcome::Solved {
            makespan, proven, ..
        } => {
            assert!(proven, "the MILP did not prove its optimum");
            Some(makespan)
        }
        other => panic!("the MILP stopped: {other:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn search_optimum_equals_milp_optimum(instance in oven_recipe_instances()) {
        search_agrees_with_milp(&instance)?;
    }

    /// Long waits started at many instants: the dominance between states whose waits
    /// started at different instants is at work here.
    #[test]
    fn search_optimum_with_long_waits_equals_milp_optimum(instance in long_wait_recipe_instances()) {
        search_agrees_with_milp(&instance)?;
    }
}

/// The search and the MILP agree on `instance`'s optimum, also with the search's bound at
/// the optimum and one above.
fn search_agrees_with_milp(instance: &Instance) -> Result<(), TestCaseError> {
    instance.validate().expect("a valid instance");
    let Ok(problem) = Problem::compile_scaled(instance) else {
        // A positive lag cycle: infeasible before any search.
        return Ok(());
    };
    prop_assert!(agent_search::applies(&problem));
    let horizon: i64 = problem.durations.iter().sum::<i64>() * 2 + 8;
    let exact = milp_optimum(&problem, horizon);
    match agent_search::search(&problem, horizon + 1, 60.0, &Cancel::new(), 2) {
        SearchOutcome::Optimal { makespan, .. } => prop_assert_eq!(Some(makespan), exact),
        SearchOutcome::NoneShorter => prop_assert_eq!(None, exact),
        SearchOutcome::GaveUp => prop_assert!(false, "the search gave up on a tiny instance"),
    }
    // The bound at the optimum itself: the start windows and due dates it prunes with
    // (ending before the best known) keep the optimum one step above, and prove
    // nothing shorter exists at it.
    if let Some(optimum) = exact {
        match agent_search::search(&problem, optimum + 1, 60.0, &Cancel::new(), 2) {
            SearchOutcome::Optimal { makespan, .. } => prop_assert_eq!(makespan, optimum),
            other => prop_assert!(false, "no optimum below {}: {other:?}", optimum + 1),
        }
        let shorter = agent_search::search(&problem, optimum, 60.0, &Cancel::new(), 2);
        prop_assert!(matches!(shorter, SearchOutcome::NoneShorter), "{shorter:?}");
    }
    Ok(())
}

/// The canonical forms at work: two free interruptible steps and an autonomous one that
/// must wait for a window; the search still finds the MILP's optimum.
#[test]
fn runs_of_free_chunks_keep_the_optimum() {
    let steps = [(3, 1, 0), (3, 1, 0), (2, 2, 1), (2, 0, 1), (1, 0, 0)];
    let links = [(2, 3, Some(0)), (0, 4, None), (3, 4, Some(1))];
    let instance = oven_recipe(&steps, &links, true);
    let problem = Problem::compile_scaled(&instance).unwrap();
    let exact = milp_optimum(&problem, 40);
    let SearchOutcome::Optimal { makespan, .. } =
        agent_search::search(&problem, 41, 60.0, &Cancel::new(), 2)
    else {
        panic!("no optimum found");
    };
    assert_eq!(Some(makespan), exact);
}

/// Ages that a window reads must be equal in a dominating state: a step finished earlier
/// meets its successors' minimum lags sooner, but its window closes sooner too. These two
/// instances (shrunk by proptest) lose their optimum when such ages are compared as
/// "older is better".
#[test]
fn windows_pin_the_ages_dominance_compares() {
    // (duration, kind, appliance): one-unit continuous steps, and interruptible ones.
    let (unit, two, three) = ((1, 0, 0), (2, 1, 0), (3, 1, 0));
    let cases: [(&[_], &[_]); 2] = [
        (
            &[unit, unit, unit, unit, two, two],
            &[(0, 5, Some(0)), (1, 4, Some(0))],
        ),
        (
            &[unit, two, three, unit, unit, unit],
            &[(2, 5, Some(1)), (0, 1, Some(2)), (1, 5, Some(0))],
        ),
    ];
    for (steps, links) in cases {
        search_agrees_with_milp(&oven_recipe(steps, links, false)).unwrap();
    }
}

/// On a real instance whose instants hold thousands of states, the search on three threads
/// (states and bounds split between them) proves what it proves on one, with a schedule of
/// the same length.
#[test]
fn threads_change_nothing_but_the_time() {
    let Some(cooking) = makespan_testkit::data("recipe2plan/cooking.json") else {
        return;
    };
    let instance = makespan_benchmarks::import(&cooking, &Default::default())
        .unwrap()
        .into_iter()
        .find(|i| i.name == "recipe2plan-Choco_Strawberry-Cake-medium")
        .unwrap();
    let problem = Problem::compile_scaled(&instance).unwrap();
    let outcomes: Vec<SearchOutcome> = [1, 3]
        .into_iter()
        .map(|threads| agent_search::search(&problem, 141, 600.0, &Cancel::new(), threads))
        .collect();
    let SearchOutcome::Optimal { makespan, .. } = &outcomes[0] else {
        panic!("no optimum below 141: {:?}", outcomes[0]);
    };
    assert_eq!(*makespan, 140);
    assert_eq!(outcomes[0], outcomes[1]);
}
