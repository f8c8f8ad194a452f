//! Robotouille's seeded kitchens through the commands a user runs: `solve` on the upstream
//! checkout gives proven optima whose plans `verify` replays and `gantt` draws, and `score`
//! reads an evaluation folder as `main.py evaluate` writes it, replaying the agents' logs.
//! Skipped, saying so, where the checkout is absent.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::common::{makespan, text};

/// The upstream checkout, or `None` (the test is skipped) where it is absent.
fn checkout() -> Option<PathBuf> {
    makespan_testkit::data("robotouille/upstream")
}

/// Solves one (set, task, seed) of the checkout into `out` and returns its solution.
fn solved(checkout: &Path, out: &Path, set: &str, task: &str, seed: &str) -> Value {
    let output = makespan(&[
        "solve",
        checkout.to_str().unwrap(),
        "--sets",
        set,
        "--tasks",
        task,
        "--seeds",
        seed,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output));
    let name = format!("robotouille-{set}-{task}-seed{seed}.json");
    serde_json::from_str(&std::fs::read_to_string(out.join(name)).unwrap()).unwrap()
}

fn actions(solution: &Value) -> Vec<String> {
    solution["schedule"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["activity"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_seeded_kitchen_is_solved_to_a_proven_optimum_that_verify_replays_and_gantt_draws() {
    let Some(checkout) = checkout() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let solution = solved(&checkout, dir.path(), "asynchronous", "0", "42");
    assert_eq!(solution["status"], "optimal");
    assert_eq!(solution["bound_source"], "world");
    assert_eq!(solution["makespan"], solution["lower_bound"]);
    let steps = actions(&solution);
    assert_eq!(Some(steps.len() as i64), solution["makespan"].as_i64());

    let file = dir.path().join("robotouille-asynchronous-0-seed42.json");
    let verified = makespan(&["verify", file.to_str().unwrap()]);
    assert!(verified.status.success(), "{}", text(&verified));

    // A plan with one step dropped no longer reaches the goal, or is refused on the way.
    let mut broken = solution.clone();
    broken["schedule"].as_array_mut().unwrap().remove(1);
    let broken_file = dir.path().join("broken.json");
    std::fs::write(&broken_file, broken.to_string()).unwrap();
    let refused = makespan(&["verify", broken_file.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(1), "{}", text(&refused));

    let svg = dir.path().join("plan.svg");
    let drawn = makespan(&["gantt", file.to_str().unwrap(), "-o", svg.to_str().unwrap()]);
    assert!(drawn.status.success(), "{}", text(&drawn));
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.contains(&steps[0]), "the first action is drawn");

    // The explanation follows the robot's steps in turn, each right after the one before.
    let explained = makespan(&["explain", file.to_str().unwrap(), "--json"]);
    assert!(explained.status.success(), "{}", text(&explained));
    let e: Value = serde_json::from_slice(&explained.stdout).unwrap();
    let chain: Vec<&str> = e["chain"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["activity"].as_str().unwrap())
        .collect();
    let numbered: Vec<String> = steps
        .iter()
        .enumerate()
        .map(|(n, a)| format!("{}: {a}", n + 1))
        .collect();
    assert_eq!(chain, numbered);
    assert_eq!(e["waits"].as_array().unwrap().len(), 0, "{}", e["waits"]);
}

/// An agent's log as upstream's IO-CoT agent writes it: one response block per action.
fn agent_log(actions: &[String]) -> String {
    actions
        .iter()
        .map(|a| {
            format!(
                "ACTION PROPOSAL PROMPT\n--------------------\nthe state\nACTION PROPOSAL RESPONSE\n--------------------\nReasoning: next\nAction: {a}\n"
            )
        })
        .collect()
}

#[test]
fn an_evaluation_folder_is_scored_against_each_seeds_optimum_with_its_logs_replayed() {
    let Some(checkout) = checkout() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let solution = solved(
        &checkout,
        &dir.path().join("solutions"),
        "asynchronous",
        "0",
        "42",
    );
    let optimum = solution["makespan"].as_i64().unwrap();
    let evaluation = dir.path().join("evaluation");
    let env = "asynchronous/0_cheese_chicken_sandwich";
    // Seed 42: a refused action first (neither executed nor counted), then the optimal plan.
    let mut run = vec!["Pick up the moon using robot1".to_string()];
    run.extend(actions(&solution));
    let logs = evaluation.join(format!("{env}_42"));
    std::fs::create_dir_all(&logs).unwrap();
    std::fs::write(logs.join("log.txt"), agent_log(&run)).unwrap();
    // Seed 84: the results file says done, and no log backs it.
    let results = json!({
        format!("{env}_42"): {"done": true, "steps": optimum, "max_steps": 31.5},
        format!("{env}_84"): {"done": true, "steps": 25, "max_steps": 31.5},
        "accuracy": 1.0,
        "average_steps": (optimum + 25) as f64 / 2.0,
    });
    std::fs::write(evaluation.join("results.json"), results.to_string()).unwrap();

    let output = makespan(&[
        "score",
        evaluation.to_str().unwrap(),
        "--data",
        checkout.to_str().unwrap(),
        "--json",
        "-",
    ]);
    assert!(output.status.success(), "{}", text(&output));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["benchmark"], "robotouille");
    let rows = report["rows"].as_array().unwrap();
    let row = |key: &str| rows.iter().find(|r| r["key"] == key).unwrap();
    let replayed = row(&format!("{env}_42"));
    assert_eq!(replayed["valid"], true);
    assert_eq!(
        (replayed["makespan"].as_i64(), replayed["ratio"].as_f64()),
        (Some(optimum), Some(1.0))
    );
    let notes = replayed["notes"].to_string();
    assert!(notes.contains("refused and not counted"), "{notes}");
    let unlogged = row(&format!("{env}_84"));
    assert!(unlogged["notes"].to_string().contains("no agent log"));
    let accuracy = &report["headline"]["metrics"][0];
    assert_eq!(accuracy["name"], "accuracy");
    assert_eq!(accuracy["original"], 100.0);
    // The run answers 2 of the 100 keys its configuration evaluates (every asynchronous
    // experiment runs the set's 10 tasks × 10 seeds); the others are listed, none of another set.
    let unanswered: Vec<&str> = report["unanswered"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap())
        .collect();
    assert_eq!(unanswered.len(), 98, "{unanswered:?}");
    assert!(unanswered.iter().all(|k| k.starts_with("asynchronous/")));
    assert!(unanswered.contains(&"asynchronous/9_onion_potato_soup_and_fried_onion_ring_lettuce_burger_and_onion_cheese_sandwich_420"));
    assert!(!unanswered.contains(&format!("{env}_42").as_str()));
    let all = report["headline"]["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "accuracy-all")
        .unwrap();
    assert_eq!(all["original"], 2.0);
    assert!(all["about"].as_str().unwrap().contains("io.yaml"), "{all}");
}

/// A set no experiment configuration evaluates (multi-agent): the scope is the evaluation
/// seeds of the environments in the results.
#[test]
fn a_run_of_a_set_without_configuration_is_scoped_to_its_environments_seeds() {
    let Some(checkout) = checkout() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let env = "multi_agent/1_lettuce_burger";
    let results = json!({
        format!("{env}_42"): {"done": false, "steps": 3, "max_steps": 30},
        "accuracy": 0.0,
        "average_steps": 3.0,
    });
    std::fs::write(dir.path().join("results.json"), results.to_string()).unwrap();
    let output = makespan(&[
        "score",
        dir.path().to_str().unwrap(),
        "--data",
        checkout.to_str().unwrap(),
        "--json",
        "-",
    ]);
    // Exit code 1: the run does not reach the goal.
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let unanswered: Vec<String> = report["unanswered"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap().to_string())
        .collect();
    let expected: Vec<String> = [84, 126, 168, 210, 252, 294, 336, 378, 420]
        .iter()
        .map(|s| format!("{env}_{s}"))
        .collect();
    let mut expected = expected;
    expected.sort();
    assert_eq!(unanswered, expected);
}

/// `references/robotouille.jsonl`: every (set, task, seed) of the checkout, each with its
/// bound, the plans of a sample replayed again in the simulator (they must reach the goal at
/// their recorded length), each budget verdict the one the plan and bound give, and the
/// per-seed table of `docs/robotouille.md` made from the file. Needs no data: the kitchens
/// are embedded.
#[test]
fn the_committed_references_cover_every_kitchen_replay_and_are_the_docs_table() {
    use makespan::benchmarks::robotouille::checkout::WorldNote;
    use makespan::benchmarks::robotouille::{seed_table, SeedResult};
    use makespan::benchmarks::{simulated_of, BudgetVerdict};
    use makespan::references::{InstanceSource, References};
    use makespan::solution::Status;
    let references = References::read(Path::new("references/robotouille.jsonl")).unwrap();
    assert_eq!(references.len(), 330);
    let mut results = Vec::new();
    let mut seeds = Vec::new();
    let mut replayed = 0;
    for (k, r) in references.iter().enumerate() {
        let InstanceSource::Embedded(instance) = &r.instance else {
            panic!("{}: the kitchen is embedded", r.name);
        };
        let note = WorldNote::of(instance).unwrap().unwrap();
        let bound = r
            .lower_bound
            .unwrap_or_else(|| panic!("{}: a bound", r.name));
        match r.makespan {
            Some(m) => {
                assert!(bound <= m, "{}", r.name);
                assert_eq!(r.status == Status::Optimal, bound == m, "{}", r.name);
                assert_eq!(r.schedule.len() as i64, m, "{}", r.name);
                let answer = &r.answer.as_ref().unwrap().text;
                assert_eq!(answer.lines().count() as i64, m, "{}", r.name);
            }
            None => assert!(r.schedule.is_empty(), "{}", r.name),
        }
        match (&r.budget, note.reference_optimal_steps) {
            (Some(b), Some(stated)) => {
                assert_eq!((b.stated, b.allowed), (stated, (3 * stated + 1) / 2));
                assert_eq!(
                    b.verdict,
                    BudgetVerdict::of(stated, r.lower_bound, r.makespan)
                );
            }
            (None, None) => assert_eq!(note.set, "multi_agent"),
            _ => panic!("{}: a budget exactly where the task has a count", r.name),
        }
        if k % 7 == 0 && r.makespan.is_some() {
            let report = simulated_of(instance)
                .unwrap()
                .replay(instance, &r.schedule);
            assert!(report.valid, "{}: {}", r.name, report.render_text());
            assert_eq!(report.makespan, r.makespan, "{}", r.name);
            replayed += 1;
        }
        if let Some(s) = note.seed.filter(|s| !seeds.contains(s)) {
            seeds.push(s);
        }
        results.push(SeedResult {
            set: note.set,
            task: note.task,
            seed: note.seed,
            status: r.status,
            makespan: r.makespan,
            bound: r.lower_bound,
            budget: r.budget.clone(),
        });
    }
    assert!(replayed >= 20, "{replayed} plans replayed");
    seeds.sort_unstable();
    let table = seed_table(&results, &seeds);
    let docs = std::fs::read_to_string("docs/robotouille.md").unwrap();
    assert!(
        docs.contains(&table),
        "docs/robotouille.md lacks the table the references give:\n{table}"
    );
}
