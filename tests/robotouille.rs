//! Robotouille's 10 asynchronous tasks, imported from `task_graphs.json` and solved: every
//! task proven optimal, compared with the upstream hard-coded `optimal_steps`. (The exact
//! search on these tasks and their certificates: `crates/solve/tests/robotouille.rs`.)

use std::path::PathBuf;

use makespan::benchmarks::{self, robotouille, ImportOptions};
use makespan::instance::Instance;
use makespan::solution::Status;
use makespan::solve::{solve, SolveOptions};
use makespan::verify::verify;

/// The benchmark's `task_graphs.json`, or `None` (the test is skipped) where it is absent.
fn task_graphs() -> Option<PathBuf> {
    makespan_testkit::data("robotouille/task_graphs.json")
}

/// The instances `task_graphs.json` imports to, or `None` where it is absent.
fn imported() -> Option<Vec<Instance>> {
    let instances = benchmarks::import(&task_graphs()?, &ImportOptions::default()).expect("import");
    Some(instances)
}

#[test]
fn every_task_is_proven_optimal_and_compared_with_the_upstream_reference() {
    let Some(instances) = imported() else {
        return;
    };
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
        // Upstream is beaten exactly where its hard-coded number is not optimal (7, 8, 9);
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
fn import_gives_45_instances_of_one_robot_and_unit_moves() {
    let Some(instances) = imported() else {
        return;
    };
    // One instance per task, ×2 for the optional pot parking (tasks 5–9), × the pot's
    // placements for every add (2 each).
    assert_eq!(instances.len(), 45);
    let first = &instances[0];
    assert_eq!(first.activities.len(), 11);
    assert_eq!(first.agents, Some(1));
    assert!(first.setups.iter().all(|s| s.time == 1));
}

/// Part of the task graph follows from the native environment files alone: station and
/// object names, where each object starts (bottom to top), where the robot starts, and how
/// many cook/fry/cut/boil/fill/add/fill-bowl steps the goal demands. It must agree with
/// `task_graphs.json` on every task.
#[test]
fn native_files_agree_with_the_task_graphs() {
    let Some(task_graphs) = task_graphs() else {
        return;
    };
    let graphs: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&task_graphs).unwrap()).unwrap();
    let tasks = graphs["tasks"].as_array().unwrap();
    assert_eq!(tasks.len(), 10);
    for t in tasks {
        let name = t["task"].as_str().unwrap();
        let path = task_graphs.with_file_name(format!("{name}.json"));
        let native =
            robotouille::read_native(&path, &std::fs::read_to_string(&path).unwrap()).unwrap();
        // The same names (the task graph lists them in its own order).
        let stations: std::collections::BTreeSet<String> = t["stations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect();
        let mine: std::collections::BTreeSet<String> = native.stations.iter().cloned().collect();
        assert_eq!(mine, stations, "{name}");
        assert_eq!(
            native.robot_start,
            t["robot_start"].as_str().unwrap(),
            "{name}"
        );
        // The same objects under the same names (numbered by position, as the simulator
        // does), kinds and start stations, and the same order bottom to top per station.
        let graph: Vec<(String, String, String)> = t["objects"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(o, v)| {
                (
                    o.clone(),
                    v["kind"].as_str().unwrap().to_string(),
                    v["initial_station"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        let stacks = |list: &[(String, String, String)]| {
            let mut per: std::collections::BTreeMap<String, Vec<(String, String)>> =
                std::collections::BTreeMap::new();
            for (o, k, st) in list {
                per.entry(st.clone())
                    .or_default()
                    .push((o.clone(), k.clone()));
            }
            per
        };
        assert_eq!(stacks(&native.objects), stacks(&graph), "{name}");
        let mut ops = std::collections::BTreeMap::new();
        for a in t["activities"].as_array().unwrap() {
            let kind = a["kind"].as_str().unwrap();
            if ["cook", "fry", "cut", "boil", "fill", "add", "fill_bowl"].contains(&kind) {
                *ops.entry(kind.to_string()).or_insert(0usize) += 1;
            }
        }
        assert_eq!(native.operations, ops, "{name}");
    }
}

/// A checkout's instances are worlds whose activities are a relaxation: the scheduling
/// engine's optimum on them is a lower bound, so on every default layout it stays at or
/// below upstream's hard-coded step count (a count of a plan upstream's authors found), and
/// every seeded kitchen's relaxation asks for at least one step.
#[test]
fn a_checkouts_relaxations_are_lower_bounds_below_upstreams_counts() {
    let Some(root) = makespan_testkit::data("robotouille/upstream") else {
        return;
    };
    let opts = ImportOptions::default()
        .with("seeds", &["default", "42"])
        .unwrap();
    let instances = benchmarks::import(&root, &opts).unwrap();
    assert_eq!(instances.len(), 60);
    for i in &instances {
        assert!(i.source.as_ref().unwrap().notes.contains_key("world"));
        let s = solve(i, &SolveOptions::default());
        assert_eq!(s.status, Status::Optimal, "{}", i.name);
        let bound = s.makespan.unwrap();
        if i.name.ends_with("-default") {
            if let Some(theirs) = robotouille::reference_steps(i) {
                assert!(bound <= theirs, "{}: {bound} > {theirs}", i.name);
            }
        } else {
            assert!(bound > 0, "{}", i.name);
        }
    }
}

/// `verify --solution` compares an action plan with the task's optimum: the least over the
/// solutions of all its variants in the solution's folder, whichever variant was named; with
/// only some variants there, the least of those, called a best known length.
#[test]
fn verify_compares_with_the_least_optimum_over_the_tasks_variants() {
    use crate::common::{makespan, text};
    let Some(task_graphs) = task_graphs() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let all = dir.path().join("all");
    let solved = makespan(&[
        "solve",
        task_graphs.to_str().unwrap(),
        "--out",
        all.to_str().unwrap(),
        "--emit-native",
        "--quiet",
    ]);
    assert!(solved.status.success(), "{}", text(&solved));
    let data = task_graphs.parent().unwrap().parent().unwrap();
    let mut checked = 0;
    for task in 5..10 {
        // The task's variants, worst first.
        let mut variants: Vec<(i64, PathBuf)> = std::fs::read_dir(&all)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                name.starts_with(&format!("robotouille-{task}_")) && !name.contains(".answer.")
            })
            .map(|p| {
                let s: serde_json::Value =
                    serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
                (s["makespan"].as_i64().unwrap(), p)
            })
            .collect();
        variants.sort_by(|a, b| b.cmp(a));
        let n = variants.len();
        assert!(n > 1, "task {task} has variants");
        let (worst, worst_file) = &variants[0];
        let (best, best_file) = &variants[n - 1];
        let answer = best_file.with_extension("answer.txt");
        let verify = |solution: &PathBuf| {
            let out = makespan(&[
                "verify",
                answer.to_str().unwrap(),
                "--instance",
                &format!("robotouille:{task}"),
                "--data",
                data.to_str().unwrap(),
                "--solution",
                solution.to_str().unwrap(),
            ]);
            assert!(out.status.success(), "{}", text(&out));
            text(&out)
        };
        // Named the worst variant, the ratio is still to the task's optimum.
        let shown = verify(worst_file);
        assert!(
            shown.contains(&format!("ratio to the optimum {best} ("))
                && shown.contains(&format!("the least over the task's {n} variants): 1.0000")),
            "task {task}: {shown}"
        );
        // The worst variant alone: its length, not called the optimum.
        let alone = dir.path().join(format!("alone{task}"));
        std::fs::create_dir_all(&alone).unwrap();
        let copy = alone.join(worst_file.file_name().unwrap());
        std::fs::copy(worst_file, &copy).unwrap();
        let shown = verify(&copy);
        assert!(
            shown.contains(&format!("ratio to the best known length {worst} ("))
                && shown.contains(&format!("the least over 1 of the task's {n} variants")),
            "task {task}: {shown}"
        );
        checked += usize::from(worst > best);
    }
    // Some task has variants of different lengths, so the least is not the one named.
    assert!(checked > 0);
}
