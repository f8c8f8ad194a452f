//! TimeArena's runs (the benchmark's `timearena/tasks.json`) against the solver's own
//! bounds: on any run in any task order, every lower bound stays at or below the optimum,
//! which the greedy oracle never beats. (The benchmark end to end is the root package's
//! `tests/timearena.rs`.)

use std::path::Path;

use makespan_model::instance::Instance;
use makespan_model::solution::{Solution, Status};
use makespan_solve::internals::{bounds, Problem};
use makespan_solve::{solve, SolveOptions};
use proptest::prelude::*;

fn named(tasks: &Path, name: &str) -> Instance {
    let text = std::fs::read_to_string(tasks).unwrap();
    makespan_benchmarks::timearena::import_named(tasks, &text, name).unwrap()
}

fn greedy(instance: &Instance) -> Solution {
    let baseline = makespan_benchmarks::baselines()
        .find(|b| b.name == "timearena-greedy")
        .expect("TimeArena has a baseline");
    baseline.solve(instance)
}

/// Any run in any task order: the optimum is at least every lower bound, and at most the
/// greedy oracle's value whenever the oracle's schedule is valid.
#[test]
fn optimum_between_bounds_and_greedy() {
    let Some(tasks) = makespan_testkit::data("timearena/tasks.json") else {
        return;
    };
    proptest!(ProptestConfig::with_cases(24), |(
        scenario in prop::sample::select(vec!["cooking", "household", "lab"]),
        order in prop::sample::subsequence((1..=10).collect::<Vec<u32>>(), 1..=3).prop_shuffle(),
        constraint in any::<bool>(),
    )| {
        let list: Vec<String> = order.iter().map(|t| format!("{scenario}{t}")).collect();
        let suffix = if constraint { "-constraint" } else { "" };
        let instance = named(&tasks, &format!("{}{suffix}", list.join("+")));
        let solution = solve(&instance, &SolveOptions::default());
        prop_assert_eq!(solution.status, Status::Optimal);
        let optimum = solution.makespan.unwrap();
        let problem = Problem::compile(&instance).unwrap();
        prop_assert!(bounds::best(&problem, None).value <= optimum);
        prop_assert!(bounds::critical_path(&problem).value <= optimum);
        let g = greedy(&instance);
        if g.status == Status::Feasible {
            prop_assert!(optimum <= g.makespan.unwrap());
        }
    });
}
