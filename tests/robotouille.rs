//! Robotouille's 10 asynchronous tasks, imported from `task_graphs.json` and solved: every
//! task proven optimal, compared with the upstream hard-coded `optimal_steps`.

use std::path::Path;

use makespan::formats::{self, robotouille, ImportOptions};
use makespan::solution::Status;
use makespan::solve::{solve, SolveOptions};
use makespan::verify::verify;

const TASK_GRAPHS: &str = "../shared/benchmarks/robotouille/task_graphs.json";

#[test]
fn every_task_is_proven_optimal_and_compared_with_the_upstream_reference() {
    let instances =
        formats::import(Path::new(TASK_GRAPHS), &ImportOptions::default()).expect("import");
    let solutions: Vec<_> = instances
        .iter()
        .map(|i| solve(i, &SolveOptions::default()))
        .collect();
    for s in &solutions {
        assert!(
            matches!(s.status, Status::Optimal | Status::Infeasible),
            "{}: {:?} {:?}",
            s.instance.name,
            s.status,
            s.reason
        );
        if s.status == Status::Optimal {
            assert!(verify(&s.instance.instance, &s.schedule).valid);
        }
    }
    let rows = robotouille::by_task(&solutions);
    println!("{}", robotouille::markdown(&rows));
    assert_eq!(rows.len(), 10);
    for r in &rows {
        let (ours, theirs) = (r.ours.unwrap(), r.reference.unwrap());
        assert!(r.proven, "{}", r.task);
        // Upstream is beaten exactly where the spec says shorter plans exist (7, 8, 9);
        // elsewhere the proven optimum confirms the hard-coded number.
        let shorter = ["7_", "8_", "9_"]
            .iter()
            .any(|p| r.task.starts_with(&format!("robotouille-{p}")));
        if shorter {
            assert!(ours < theirs, "{}: {ours} vs {theirs}", r.task);
        } else {
            assert_eq!(ours, theirs, "{}", r.task);
        }
    }
}

#[test]
fn import_counts_match_the_spec() {
    let instances =
        formats::import(Path::new(TASK_GRAPHS), &ImportOptions::default()).expect("import");
    // One instance per task, ×2 for the optional pot parking (tasks 5–9), × the pot's
    // placements for every add (2 each).
    assert_eq!(instances.len(), 45);
    let first = &instances[0];
    assert_eq!(first.activities.len(), 11);
    assert_eq!(first.agents, Some(1));
    assert!(first.setups.iter().all(|s| s.time == 1));
}
