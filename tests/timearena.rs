//! TimeArena end to end on the benchmark's `timearena/tasks.json`: every run proven optimal with
//! a verified schedule, the greedy oracle replica against the paper and against the
//! optima, the environment's known faults found by computation, and decision-list
//! mutations reported under the right rule. (The solver's own bounds against these optima:
//! `crates/solve/tests/timearena.rs`.)

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use makespan::benchmarks::timearena::log::{verify_decisions, Decision, DecisionLog};
use makespan::benchmarks::{self, timearena, ImportOptions};
use makespan::instance::Instance;
use makespan::references::References;
use makespan::solution::{Solution, Status};
use makespan::solve::{solve, SolveOptions};
use makespan::verify::{verify, Rule};
use makespan::Method;
use rayon::prelude::*;

/// The benchmark's `tasks.json`, or `None` (the test is skipped) where the data is absent.
fn tasks() -> Option<PathBuf> {
    makespan_testkit::data("timearena/tasks.json")
}

fn runs(tasks: &Path, options: &ImportOptions) -> Vec<Instance> {
    benchmarks::import(tasks, options).unwrap()
}

fn named(tasks: &Path, name: &str) -> Instance {
    let text = std::fs::read_to_string(tasks).unwrap();
    timearena::import_named(tasks, &text, name).unwrap()
}

fn greedy(instance: &Instance) -> Solution {
    let method = Method::parse("timearena-greedy").expect("TimeArena has a baseline");
    makespan::solve_with(instance, method, &SolveOptions::default())
}

fn size(instance: &Instance) -> usize {
    instance.name.split('+').count()
}

#[test]
fn all_runs_and_constrained_runs_are_proven_optimal_and_verify() {
    let Some(tasks) = tasks() else {
        return;
    };
    let mut instances = runs(&tasks, &ImportOptions::default());
    let count = |n| instances.iter().filter(|i| size(i) == n).count();
    assert_eq!((count(1), count(2), count(3)), (30, 135, 360));
    let constrained = runs(
        &tasks,
        &ImportOptions::default()
            .with("constraint", &["true"])
            .unwrap(),
    );
    assert_eq!(constrained.len(), 175, "the cooking runs");
    instances.extend(constrained);
    let names: BTreeSet<&str> = instances.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names.len(), 700);
    let failures: Vec<String> = instances
        .par_iter()
        .filter_map(crate::common::unproven)
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The runs of `bash_cal_oracle.sh`: consecutive pairs and triples, cyclic.
fn paper_runs(scenario: &str, size: usize) -> Vec<String> {
    (1..=10)
        .map(|i| {
            let tasks: Vec<String> = (0..size)
                .map(|k| format!("{scenario}{}", (i - 1 + k) % 10 + 1))
                .collect();
            tasks.join("+")
        })
        .collect()
}

#[test]
fn the_greedy_replica_reproduces_the_papers_oracle_completion_times() {
    let Some(tasks) = tasks() else {
        return;
    };
    // The oracle's mean completion times (the paper's Table 2): cooking 18.9 / 35.0 / 52.5,
    // household 12.7 / 23.6 / 35.4, lab 24.4 / 34.7 for two and three tasks (the replica's
    // values; the paper prints 12.8, 24.6, 35.5).
    let expected = [
        ("cooking", 1, 18.9),
        ("cooking", 2, 35.0),
        ("cooking", 3, 52.5),
        ("household", 1, 12.7),
        ("household", 2, 23.6),
        ("household", 3, 35.4),
        ("lab", 2, 24.4),
        ("lab", 3, 34.7),
    ];
    for (scenario, n, mean) in expected {
        let values: Vec<i64> = paper_runs(scenario, n)
            .par_iter()
            .map(|name| greedy(&named(&tasks, name)).makespan.unwrap())
            .collect();
        let average = values.iter().sum::<i64>() as f64 / values.len() as f64;
        assert!(
            (average - mean).abs() < 0.051,
            "{scenario} × {n}: {average} ≠ {mean}"
        );
    }
}

#[test]
fn exact_results_find_where_the_greedy_oracle_is_wrong() {
    let Some(tasks) = tasks() else {
        return;
    };
    let instances = runs(&tasks, &ImportOptions::default());
    let results: Vec<(String, i64, Solution)> = instances
        .par_iter()
        .map(|i| {
            let optimum = solve(i, &SolveOptions::default()).makespan.unwrap();
            (i.name.clone(), optimum, greedy(i))
        })
        .collect();
    let suboptimal: Vec<&str> = results
        .iter()
        .filter(|(_, opt, g)| g.status == Status::Feasible && g.makespan.unwrap() > *opt)
        .map(|(n, _, _)| n.as_str())
        .collect();
    assert_eq!(suboptimal, vec!["lab1+lab7", "lab3+lab7"]);
    let unachievable: Vec<&str> = results
        .iter()
        .filter(|(_, opt, g)| g.makespan.unwrap() < *opt)
        .map(|(n, _, _)| n.as_str())
        .collect();
    assert_eq!(unachievable, vec!["household4"]);
    let invalid = |rule: &str| -> Vec<&str> {
        results
            .iter()
            .filter(|(_, _, g)| g.status == Status::Invalid)
            .filter(|(_, _, g)| g.reason.as_deref().unwrap_or("").contains(rule))
            .map(|(n, _, _)| n.as_str())
            .collect()
    };
    // The reversed household6 edge breaks 46 schedules; household4's occupied
    // fruit_tree the single task, 4 pairs and 6 triples.
    let reversed = invalid("`put suit on ironing_board` starts at");
    assert_eq!(reversed.len(), 46);
    assert!(reversed
        .iter()
        .all(|n| n.split('+').any(|t| t == "household6")));
    let fruit_tree = invalid("resource `fruit_tree`");
    let by_size =
        |list: &[&str], n: usize| list.iter().filter(|x| x.split('+').count() == n).count();
    assert_eq!(
        (
            by_size(&fruit_tree, 1),
            by_size(&fruit_tree, 2),
            by_size(&fruit_tree, 3)
        ),
        (1, 4, 6)
    );
    // Single tasks: the optimum equals the paper's oracle value except for household4.
    for (name, optimum, g) in results.iter().filter(|(n, _, _)| !n.contains('+')) {
        assert_eq!(
            *optimum == g.makespan.unwrap(),
            name != "household4",
            "{name}: optimum {optimum}, oracle {:?}",
            g.makespan
        );
    }
}

#[test]
fn under_the_constraint_the_greedy_overfills_pools() {
    let Some(tasks) = tasks() else {
        return;
    };
    let instances = runs(
        &tasks,
        &ImportOptions::default()
            .with("constraint", &["true"])
            .and_then(|o| o.with("combine", &["1", "2"]))
            .unwrap(),
    );
    let mut over: BTreeMap<usize, usize> = BTreeMap::new();
    for instance in &instances {
        let g = greedy(instance);
        let pools = ["`pot`", "`fryer`", "`oven`"];
        if g.reason.as_deref().is_some_and(|r| {
            r.contains("resource_over_capacity")
                && pools.iter().any(|p| r.contains(&format!("resource {p}")))
        }) {
            *over.entry(size(instance)).or_default() += 1;
        }
    }
    // The oracle overfills a pool in 2 of 10 singles and 22 of 45 pairs.
    assert_eq!(over, BTreeMap::from([(1, 2), (2, 22)]));
}

#[test]
fn the_container_restriction_bug_is_found_by_replaying_it() {
    let Some(tasks) = tasks() else {
        return;
    };
    let instances = runs(&tasks, &ImportOptions::default());
    let mut unfinishable: BTreeMap<(String, usize), usize> = BTreeMap::new();
    let mut foreign = 0;
    let mut cooking_pairs = Vec::new();
    for instance in &instances {
        let notes = &instance.source.as_ref().unwrap().notes;
        let scenario = notes["scenario"].as_str().unwrap().to_string();
        if notes.contains_key("environment_unfinishable") {
            *unfinishable
                .entry((scenario.clone(), size(instance)))
                .or_default() += 1;
            if scenario == "cooking" && size(instance) == 2 {
                cooking_pairs.push(instance.name.replace("cooking", "c"));
            }
        } else if notes.contains_key("environment_needs_foreign_container") {
            foreign += 1;
        }
    }
    let key = |s: &str, n| (s.to_string(), n);
    assert_eq!(
        unfinishable,
        BTreeMap::from([
            (key("cooking", 2), 18),
            (key("cooking", 3), 32),
            (key("household", 2), 1),
            (key("household", 3), 8),
        ])
    );
    assert_eq!(foreign, 64);
    cooking_pairs.sort();
    assert!(cooking_pairs.contains(&"c2+c3".to_string()));
    assert!(!cooking_pairs.contains(&"c1+c2".to_string()));
}

/// The decisions of a schedule: each activity's label (pool slot filled by the exporter).
fn decisions(instance: &Instance, solution: &Solution) -> Vec<Decision> {
    let text = benchmarks::timearena::decisions(instance, &solution.schedule);
    let records: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    records
        .iter()
        .filter(|r| r["action"] != "wait")
        .map(|r| Decision {
            time: r["time"].as_i64().unwrap(),
            action: r["action"].as_str().unwrap().to_string(),
        })
        .collect()
}

fn rules_of(instance: &Instance, decisions: Vec<Decision>) -> BTreeSet<Rule> {
    let log = DecisionLog {
        decisions,
        ..DecisionLog::default()
    };
    verify_decisions(instance, &log)
        .report
        .violations
        .iter()
        .map(|v| v.rule)
        .collect()
}

#[test]
fn mutated_optimal_decision_lists_are_reported_with_the_right_rule() {
    let Some(tasks) = tasks() else {
        return;
    };
    let instance = named(&tasks, "cooking1+cooking2");
    let solution = solve(&instance, &SolveOptions::default());
    let plan = decisions(&instance, &solution);
    assert!(rules_of(&instance, plan.clone()).is_empty());
    let verdict = verify_decisions(
        &instance,
        &DecisionLog {
            decisions: plan.clone(),
            ..DecisionLog::default()
        },
    );
    assert_eq!(verdict.metrics.progress_score, 100);
    assert_eq!(verdict.metrics.completion_time, solution.makespan.unwrap());

    // A dependent action issued one minute before its prerequisite ends.
    let piece = |id: &str| {
        solution
            .schedule
            .iter()
            .find(|s| s.activity == id)
            .unwrap()
            .pieces[0]
    };
    let edge = &instance.precedences[0];
    let mut early = plan.clone();
    let k = early
        .iter()
        .position(|d| d.time == piece(&edge.after).start())
        .unwrap();
    early[k].time = piece(&edge.before).end() - 1;
    assert!(rules_of(&instance, early).contains(&Rule::PrecedenceViolated));

    // Two actions issued in one minute.
    let mut doubled = plan.clone();
    doubled[1].time = doubled[0].time;
    assert!(rules_of(&instance, doubled).contains(&Rule::AgentDoubleBooked));

    // A held object: household4's fruit_tree while it is being watered.
    let garden = named(&tasks, "household4");
    let best = solve(&garden, &SolveOptions::default());
    let mut plan = decisions(&garden, &best);
    let water = plan
        .iter()
        .find(|d| d.action.starts_with("water"))
        .unwrap()
        .time;
    let trim = plan
        .iter()
        .position(|d| d.action.starts_with("trim"))
        .unwrap();
    plan[trim].time = water + 1;
    assert!(rules_of(&garden, plan).contains(&Rule::ResourceOverCapacity));

    // A pool instance named twice while the first use holds it.
    let fries = named(&tasks, "cooking2");
    let best = solve(&fries, &SolveOptions::default());
    let mut plan = decisions(&fries, &best);
    let fried: Vec<usize> = (0..plan.len())
        .filter(|&k| plan[k].action.starts_with("fry"))
        .collect();
    let (start, name) = {
        let first = &plan[fried[0]];
        (
            first.time,
            first.action.rsplit(' ').next().unwrap().to_string(),
        )
    };
    let second = &mut plan[fried[1]];
    second.time = start + 1;
    second.action = format!("{} {name}", second.action.rsplit_once(' ').unwrap().0);
    assert!(rules_of(&fries, plan).contains(&Rule::ResourceOverCapacity));
}

/// The committed references (`references/timearena.jsonl`), read as a program reads them.
fn references() -> References {
    References::read(Path::new("references/timearena.jsonl")).unwrap()
}

#[test]
fn committed_oracle_references_match_the_data_and_replay() {
    let Some(tasks) = tasks() else {
        return;
    };
    let mut instances = runs(&tasks, &ImportOptions::default());
    instances.extend(runs(
        &tasks,
        &ImportOptions::default()
            .with("constraint", &["true"])
            .unwrap(),
    ));
    let references = references();
    assert_eq!(
        references.len(),
        700,
        "regenerate with scripts/references (docs/references.md)"
    );
    let problems: Vec<String> = instances
        .par_iter()
        .filter_map(|instance| {
            let check = || -> Option<bool> {
                // The same problem (by hash), and a schedule that re-checks.
                let solution = references.solution(&instance.name, instance).ok()?;
                let answer = &references.get(&instance.name)?.answer.as_ref()?.text;
                let path = Path::new("references/timearena.jsonl");
                let log =
                    makespan::benchmarks::timearena::log::read_decisions(path, answer).ok()?;
                let verdict = verify_decisions(instance, &log);
                let ok = solution.status == Status::Optimal
                    && verify(instance, &solution.schedule).valid
                    && verdict.report.valid
                    && verdict.metrics.completed
                    && Some(verdict.metrics.completion_time) == solution.makespan;
                Some(ok)
            };
            (check() != Some(true)).then(|| instance.name.clone())
        })
        .collect();
    assert!(
        problems.is_empty(),
        "stale or wrong references: {problems:?}"
    );
}

/// A user's checkout holds `TimeArena/specificTasks/*.py`, not `tasks.json`: read from the
/// modules, every run is the same problem as from `tasks.json` (525 runs, 175 constrained).
#[test]
fn a_checkouts_task_modules_give_the_same_runs_as_tasks_json() {
    let (Some(json), Some(modules)) = (
        tasks(),
        makespan_testkit::data("timearena/upstream/specificTasks"),
    ) else {
        return;
    };
    for constraint in [false, true] {
        let options = ImportOptions::default()
            .with("constraint", &[constraint.to_string()])
            .unwrap();
        let hashes = |runs: Vec<Instance>| -> BTreeMap<String, String> {
            runs.iter()
                .map(|i| (i.name.clone(), makespan::instance::problem_hash(i)))
                .collect()
        };
        let from_json = hashes(runs(&json, &options));
        let from_modules = hashes(benchmarks::import(&modules, &options).unwrap());
        assert_eq!(from_modules.len(), if constraint { 175 } else { 525 });
        assert_eq!(from_modules, from_json);
    }
}

#[test]
fn solve_a_checkout_folder_gives_the_committed_optima() {
    let Some(modules) = makespan_testkit::data("timearena/upstream") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let output = crate::common::makespan(&[
        "solve",
        modules.to_str().unwrap(),
        "--combine",
        "1",
        "--out",
        dir.path().to_str().unwrap(),
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", crate::common::text(&output));
    let mut solved = 0;
    for committed in references().iter() {
        let name = &committed.name;
        if name.contains('+') || name.contains("constraint") {
            continue;
        }
        let ours = Solution::read(&makespan::batch::solution_path(dir.path(), name)).unwrap();
        assert_eq!(
            (ours.status, ours.makespan),
            (Status::Optimal, committed.makespan),
            "{name}"
        );
        solved += 1;
    }
    assert_eq!(solved, 30);
}
