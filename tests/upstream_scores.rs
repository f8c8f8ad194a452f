//! The "original" figures of `makespan score` against the benchmarks' own scoring scripts,
//! run with `python3` on the upstream checkouts in `../shared`: a run folder is written by the
//! benchmark's own harness code (its agent classes, with a scripted model), scored by
//! makespan before and after the benchmark's summarizer rewrites it, and by the summarizer.
//! Skipped, saying so, where `python3` or the checkout is missing.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use makespan::benchmarks::recipe2plan::{answer_steps, key_and_level, Level};
use makespan::score::{score_run, RunReport, ScoreOptions};
use makespan::{ImportOptions, ScheduledActivity};
use serde_json::{json, Value};

/// `python3` can be run.
fn python3() -> bool {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        makespan_testkit::skip("python3 is not installed");
    }
    ok
}

/// The optimal schedules of the committed references, by instance name.
fn reference_schedules() -> BTreeMap<String, Vec<ScheduledActivity>> {
    let text = std::fs::read_to_string("references/recipe2plan.jsonl").unwrap();
    text.lines()
        .skip(1)
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .map(|v| {
            (
                v["name"].as_str().unwrap().to_string(),
                serde_json::from_value(v["schedule"].clone()).unwrap(),
            )
        })
        .collect()
}

/// A model's answer: the optimum's answer, broken in one of several ways by `i`.
fn plan_solve_answer(answer: &str, first_recipe: &str, i: usize) -> String {
    let lines: Vec<&str> = answer.lines().collect();
    match i % 8 {
        // A Step inside the thoughts: the agent runs it, the summarizer does not.
        1 => format!(
            "<think>Maybe Step(0, {first_recipe}, 00:00:30, 00:00:00) first.</think>\n{answer}"
        ),
        2 => lines[..lines.len() - 1].join("\n"),
        3 => lines[1..].join("\n"),
        4 => format!("{answer}\n{}", lines[0]),
        5 => lines.iter().rev().copied().collect::<Vec<_>>().join("\n"),
        6 => lines
            .iter()
            .map(|l| match l.rsplit_once(", ") {
                // The 3-field form: the step's full duration.
                Some((head, start)) => {
                    format!("{}, {start}", head.rsplit_once(", ").unwrap().0)
                }
                None => l.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        7 => "I would rather not plan this.".to_string(),
        _ => answer.to_string(),
    }
}

/// ReAct turns: one action each, a `<think>` block with a Step in one of them.
fn react_turns(answer: &str, first_recipe: &str, i: usize) -> Vec<String> {
    let mut turns: Vec<String> = answer
        .lines()
        .map(|l| format!("Thought: next. Action: {l}"))
        .collect();
    if i % 2 == 1 {
        turns[1] = format!(
            "Thought: <think>or Step(0, {first_recipe}, 00:00:10, 00:00:00)?</think> {}",
            &turns[1]["Thought: ".len()..]
        );
    }
    if i % 3 == 2 {
        turns.swap(1, 2);
    }
    turns.push("Thought: done. Action: Finish".into());
    turns
}

fn metric(report: &RunReport, name: &str) -> Option<f64> {
    report
        .headline
        .metrics
        .iter()
        .find(|m| m.name == name)
        .unwrap()
        .original
}

#[test]
fn recipe2plan_original_figures_are_result_summarizers_on_raw_and_summarized_logs() {
    let (Some(evaluation), Some(upstream_data)) = (
        makespan_testkit::data("recipe2plan/upstream/evaluation"),
        makespan_testkit::data("recipe2plan/upstream/data"),
    ) else {
        return;
    };
    if !python3() {
        return;
    }
    let evaluation = evaluation.canonicalize().unwrap();
    let checkout = tempfile::tempdir().unwrap();
    let root = checkout.path();
    std::fs::create_dir_all(root.join("data")).unwrap();
    std::fs::create_dir_all(root.join("evaluation")).unwrap();
    for file in ["cooking.json", "plan.json"] {
        std::fs::copy(upstream_data.join(file), root.join("data").join(file)).unwrap();
    }
    let instances =
        makespan::benchmarks::import(&root.join("data/cooking.json"), &ImportOptions::default())
            .unwrap();
    let optima = reference_schedules();
    let driver = Path::new("tests/fixtures/upstream/recipe2plan_harness.py")
        .canonicalize()
        .unwrap();
    let solutions = root.join("solutions");
    let mut compared = 0;
    for level in Level::ALL {
        let mut plan_solve = serde_json::Map::new();
        let mut react = serde_json::Map::new();
        for (i, instance) in instances
            .iter()
            .filter(|i| key_and_level(i).is_some_and(|(_, l)| l == level))
            .enumerate()
        {
            let (key, _) = key_and_level(instance).unwrap();
            let answer = answer_steps(instance, &optima[&instance.name]);
            let first = key.split('_').next().unwrap().to_string();
            plan_solve.insert(key.clone(), json!(plan_solve_answer(&answer, &first, i)));
            if i < 16 {
                react.insert(key, json!(react_turns(&answer, &first, i)));
            }
        }
        let request = root.join(format!("request-{}.json", level.name()));
        let body = json!({"model": "scripted", "level": level.name(), "plan_solve": plan_solve, "react": react});
        std::fs::write(&request, body.to_string()).unwrap();
        let output = Command::new("python3")
            .arg(&driver)
            .arg(&evaluation)
            .arg(&request)
            .current_dir(root.join("evaluation"))
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let printed: Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
        for agent in ["plan_solve_oracle", "react_oracle"] {
            let expected = &printed[agent];
            let folder = format!("scripted/{}/{agent}/cooking", level.name());
            for run in [
                root.join("raw").join(&folder),
                root.join("evaluation/logs").join(&folder),
            ] {
                let options = ScoreOptions {
                    data: Some(root.to_path_buf()),
                    solutions: Some(solutions.clone()),
                    ..ScoreOptions::default()
                };
                let report = score_run(&run, &options).unwrap();
                assert_eq!(report.unscored(), 0, "{run:?}");
                for (ours, theirs) in [
                    ("pass", "pass_rate"),
                    ("progress", "progress_rate"),
                    ("speed", "complete_speed"),
                    ("score", "score"),
                ] {
                    let ours = metric(&report, ours).unwrap();
                    let theirs = expected[theirs].as_f64().unwrap();
                    assert!(
                        (ours - theirs).abs() < 1e-9,
                        "{run:?} {agent}: makespan {ours} against result_summarizer.py {theirs}"
                    );
                    compared += 1;
                }
                // No corrected figure exceeds its original for being stricter.
                for row in &report.rows {
                    if row.valid == Some(false) {
                        let original = row.original_score.unwrap_or(0.0).max(0.0);
                        assert!(row.corrected_score.unwrap() <= original, "{row:?}");
                    }
                }
            }
        }
    }
    assert_eq!(compared, 2 * 2 * 2 * 4);
}
