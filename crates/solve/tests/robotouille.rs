//! Robotouille's 10 asynchronous tasks (the benchmark's `robotouille/task_graphs.json`)
//! through the solver's exact methods: the unit-step search finds every optimum the pipeline
//! proves by itself, and the smaller tasks' optima carry certificates that check. (The
//! benchmark end to end, against the upstream `optimal_steps`, is the root package's
//! `tests/robotouille.rs`.)

use makespan_model::certificate::ProofKind;
use makespan_model::instance::Instance;
use makespan_model::solution::Status;
use makespan_solve::internals::unit_search::{search, SearchOutcome};
use makespan_solve::internals::Problem;
use makespan_solve::{solve, Cancel, SolveOptions};

use crate::common::certified;

/// The instances `task_graphs.json` imports to, or `None` (the test is skipped) where it is
/// absent.
fn imported() -> Option<Vec<Instance>> {
    let task_graphs = makespan_testkit::data("robotouille/task_graphs.json")?;
    let options = makespan_benchmarks::ImportOptions::default();
    Some(makespan_benchmarks::import(&task_graphs, &options).expect("import"))
}

/// Given room for one more step than the proven optimum, the search must find the optimum
/// by itself.
#[test]
fn the_unit_search_finds_every_optimum_by_itself() {
    let Some(instances) = imported() else {
        return;
    };
    for instance in &instances {
        let s = solve(instance, &SolveOptions::default());
        if s.status != Status::Optimal {
            continue;
        }
        let problem = Problem::compile(instance).unwrap();
        let found = search(&problem, s.makespan.unwrap() + 1, 60.0, &Cancel::new());
        assert!(
            matches!(found, SearchOutcome::Optimal { makespan, .. } if Some(makespan) == s.makespan),
            "{}: {found:?}",
            instance.name
        );
    }
}

/// The optima of tasks 0–5 (9 instances) carry DRCP certificates that check: travel
/// and held items enter the proof as order variables (task 9's proofs take minutes each and
/// are measured in docs/certificates.md instead).
#[test]
fn the_optima_of_the_smaller_tasks_are_certified() {
    let Some(instances) = imported() else {
        return;
    };
    let small: Vec<_> = instances
        .iter()
        .filter(|i| ('0'..='5').any(|t| i.name.starts_with(&format!("robotouille-{t}_"))))
        .collect();
    assert!(small.len() >= 6, "{}", small.len());
    for instance in small {
        let dir = tempfile::tempdir().unwrap();
        let solution = certified(instance, dir.path()).expect("an optimum");
        let certificate = solution.certificate.expect("certified");
        assert_eq!(certificate.kind, ProofKind::Drcp, "{}", instance.name);
    }
}
