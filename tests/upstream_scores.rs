//! The "original" figures of `makespan score` against the benchmarks' own scoring scripts,
//! run with `python3` on the upstream checkouts in `../shared`: a run folder is written by the
//! benchmark's own harness code (its agent classes or run loop, with a scripted model), then
//! scored by makespan and by the benchmark's script (Recipe2Plan's `result_summarizer.py`,
//! before and after it rewrites the logs; TimeArena's `cal_metric.py`; ParaCook's
//! `get_abstract_results.py`). Where a script crashes or has a known bug, the report's note and
//! the value it meant are checked instead. Skipped, saying so, where `python3` or the checkout
//! is missing.

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

/// Runs a driver in `tests/fixtures/upstream/` and returns the JSON of its last line.
fn driver(name: &str, args: &[&Path], cwd: &Path) -> Value {
    let script = Path::new("tests/fixtures/upstream")
        .join(name)
        .canonicalize()
        .unwrap();
    let output = Command::new("python3")
        .arg(script)
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_str(stdout.lines().last().unwrap()).unwrap()
}

/// A figure as a script rounds it (`round(x, 2)`, or `:.2f`): equal to the digit.
fn same_to_the_digit(ours: f64, theirs: f64, digits: i32) -> bool {
    (ours - theirs).abs() <= 0.5 * 10f64.powi(-digits) + 1e-9
}

#[test]
fn paracook_original_figures_are_get_abstract_results_on_a_run_test_py_wrote() {
    let Some(upstream) = makespan_testkit::data("paracook/upstream") else {
        return;
    };
    if !python3() {
        return;
    }
    let upstream = upstream.canonicalize().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let root = scratch.path();
    let (mut model, mut reference) = (serde_json::Map::new(), serde_json::Map::new());
    let mut dropped = Vec::new();
    let mut i = 0;
    for recipe in ["burger", "salad"] {
        for orders in 1..=3 {
            let file = upstream.join(format!(
                "data/abstract/{recipe}/seed_42/orders_num_{orders}.json"
            ));
            let options = ImportOptions {
                agents: vec![Some(1), Some(2), Some(3)],
                ..ImportOptions::default()
            };
            for instance in makespan::benchmarks::import(&file, &options).unwrap() {
                let agents = instance.agents.unwrap();
                let key = format!("{recipe}/seed_42/agent_num_{agents}/orders_num_{orders}");
                let optimum = makespan::solve(&instance, &makespan::SolveOptions::default());
                let native =
                    makespan::benchmarks::export_native(&instance, &optimum.schedule).unwrap();
                let mut lists: Vec<Vec<String>> = serde_json::from_str(&native.text).unwrap();
                let optimal = serde_json::to_string(&lists).unwrap();
                let text = match i % 6 {
                    // Everything for the first cook, in the optimum's order: valid and slower.
                    1 => {
                        let all: Vec<String> = lists.concat();
                        let mut serial = vec![Vec::new(); lists.len()];
                        serial[0] = all;
                        serde_json::to_string(&serial).unwrap()
                    }
                    // One list more than cooks: done for test.py, too many agents here.
                    2 => {
                        lists.push(Vec::new());
                        serde_json::to_string(&lists).unwrap()
                    }
                    // The busiest cook's list backwards: it deadlocks.
                    3 => {
                        let busiest = (0..lists.len()).max_by_key(|&k| lists[k].len()).unwrap();
                        lists[busiest].reverse();
                        serde_json::to_string(&lists).unwrap()
                    }
                    // Prose: extract_json fails and test.py records nothing.
                    4 => {
                        dropped.push(key.clone());
                        "Sorry, I cannot schedule this.".to_string()
                    }
                    // A subtask left out: not done.
                    5 => {
                        lists[0].pop();
                        serde_json::to_string(&lists).unwrap()
                    }
                    _ => optimal.clone(),
                };
                model.insert(key.clone(), json!(format!("```json\n{text}\n```")));
                // The reference run lacks some keys: get_abstract_results.py skips them.
                if i % 5 != 3 {
                    reference.insert(key, json!(optimal));
                }
                i += 1;
            }
        }
    }
    let request = root.join("request.json");
    std::fs::write(
        &request,
        json!({"model": model, "reference": reference}).to_string(),
    )
    .unwrap();
    let printed = driver("paracook_harness.py", &[&upstream, &request], root);
    let options = ScoreOptions {
        data: Some(upstream.clone()),
        solutions: Some(root.join("solutions")),
        ..ScoreOptions::default()
    };
    let run = root.join("results/abstract/gpt-5.json");
    let report = score_run(&run, &options).unwrap();
    assert_eq!(report.rows.len() as u64, printed["count"].as_u64().unwrap());
    let (sr, noct, poct) = (
        metric(&report, "SR").unwrap(),
        metric(&report, "nOCT").unwrap(),
        metric(&report, "pOCT").unwrap(),
    );
    println!(
        "ParaCook: makespan original SR {sr:.4} nOCT {noct:.4} pOCT {poct:.4}; get_abstract_results.py: {}",
        printed["line"].as_str().unwrap()
    );
    assert!(
        same_to_the_digit(sr / 100.0, printed["success_rate"].as_f64().unwrap(), 2),
        "{sr}"
    );
    assert!(
        same_to_the_digit(noct, printed["average_time_rate"].as_f64().unwrap(), 4),
        "{noct}"
    );
    assert!(
        same_to_the_digit(poct, printed["average_time"].as_f64().unwrap(), 2),
        "{poct}"
    );
    // The answers test.py dropped are the checkout's unanswered keys, and count as failures
    // in the success rate over every key.
    assert!(!dropped.is_empty());
    for key in &dropped {
        assert!(
            report.unanswered.contains(key),
            "{key} not among {:?}",
            report.unanswered
        );
    }
    assert!(report.headline.metrics.iter().any(|m| m.name == "SR-all"));
    // Without cp_sat.json the script counts no success: the note says so.
    let alone = root.join("alone");
    std::fs::create_dir_all(&alone).unwrap();
    std::fs::copy(&run, alone.join("gpt-5.json")).unwrap();
    let report = score_run(&alone.join("gpt-5.json"), &options).unwrap();
    let sr = report
        .headline
        .metrics
        .iter()
        .find(|m| m.name == "SR")
        .unwrap();
    assert!(
        sr.note.as_deref().unwrap().contains("prints 0.00"),
        "{sr:?}"
    );
    assert_eq!(metric(&report, "nOCT"), None);
}

/// The trajectories of a TimeArena run: for each of `names` (runs with their optimal decision
/// lists), the scripted answers, broken in one of several ways by its index.
fn timearena_runs(names: &[&str], prompting: Option<&str>) -> Vec<Value> {
    let text = std::fs::read_to_string("references/timearena.jsonl").unwrap();
    let answers: BTreeMap<String, Vec<(i64, String)>> = text
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter_map(|v| {
            let records: Vec<Value> = serde_json::from_str(v["answer"]["text"].as_str()?).ok()?;
            let decisions = records
                .iter()
                .map(|r| {
                    (
                        r["time"].as_i64().unwrap(),
                        r["action"].as_str().unwrap().to_string(),
                    )
                })
                .collect();
            Some((v["name"].as_str()?.to_string(), decisions))
        })
        .collect();
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let decisions = &answers[*name];
            let mut actions: Vec<String> = decisions.iter().map(|(_, a)| a.clone()).collect();
            // The last decision's minute and ample time for its action.
            let mut minutes = decisions.last().unwrap().0 + 16;
            match i % 4 {
                // Half the plan, then waits: never complete.
                1 => actions.truncate(actions.len() / 2),
                // An action the environment rejects, then the plan: complete, a minute later.
                2 => actions.insert(0, "fly to the moon".into()),
                // Too few minutes for the plan.
                3 => minutes = decisions[decisions.len() / 2].0 + 1,
                _ => {}
            }
            if prompting.is_some() {
                actions = actions
                    .into_iter()
                    .flat_map(|a| ["I should act.".to_string(), a])
                    .collect();
            }
            json!({
                "name": name.replace('+', "_"),
                "tasks": name.split('+').collect::<Vec<_>>(),
                "prompting": prompting,
                "minutes": minutes,
                "answers": actions,
            })
        })
        .collect()
}

#[test]
fn timearena_original_figures_are_cal_metrics_on_trajectories_llm_test_wrote() {
    let Some(checkout) = makespan_testkit::data("timearena/checkout") else {
        return;
    };
    if !python3() {
        return;
    }
    let checkout = checkout.canonicalize().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let root = scratch.path();
    let names = [
        "cooking1",
        "lab1",
        "household1",
        "cooking2",
        "lab2",
        "household2",
        "cooking1+cooking2",
        "lab1+lab3",
    ];
    let mut runs = timearena_runs(&names, None);
    runs.extend(timearena_runs(&names[..3], Some("react")));
    let request = root.join("request.json");
    std::fs::write(&request, Value::Array(runs).to_string()).unwrap();
    let out = root.join("trajectories");
    let printed = driver("timearena_harness.py", &[&checkout, &request, &out], root);
    let options = ScoreOptions {
        data: Some(checkout.clone()),
        solutions: Some(root.join("solutions")),
        ..ScoreOptions::default()
    };
    // The raw runs: cal_metric.py prints its figures, which never see the final record.
    let report = score_run(&out.join("raw"), &options).unwrap();
    assert_eq!(report.unscored(), 0, "{:?}", report.rows);
    let theirs: Vec<f64> = serde_json::from_value(printed["raw"].clone()).unwrap();
    let completed = report
        .rows
        .iter()
        .filter(|r| r.original_valid == Some(true))
        .count();
    assert!(completed > 0 && completed < report.rows.len());
    for (k, name) in ["AS", "CS", "CR", "CT"].into_iter().enumerate() {
        let m = report
            .headline
            .metrics
            .iter()
            .find(|m| m.name == name)
            .unwrap();
        let ours = m.original.unwrap();
        println!(
            "TimeArena raw: {name} makespan original {ours:.4} (note: {}); cal_metric.py {}",
            m.note.as_deref().unwrap_or("none"),
            theirs[k]
        );
        assert!(
            same_to_the_digit(ours, theirs[k], 2),
            "{name}: {ours} against {}",
            theirs[k]
        );
    }
    // Its bug: complete runs never reach 100 in a logged record, so CR reads 0; the note gives
    // the rate of the environment's own completions.
    let cr = report
        .headline
        .metrics
        .iter()
        .find(|m| m.name == "CR")
        .unwrap();
    assert_eq!(theirs[2], 0.0);
    let meant = 100.0 * completed as f64 / report.rows.len() as f64;
    assert!(
        cr.note
            .as_deref()
            .unwrap()
            .contains(&format!("it would print {meant:.2}")),
        "{cr:?}"
    );
    // ReAct trajectories crash it; makespan shows no original and says why.
    assert_eq!(printed["react"]["crash"], "KeyError");
    let report = score_run(&out.join("react"), &options).unwrap();
    assert_eq!(report.unscored(), 0, "{:?}", report.rows);
    for m in &report.headline.metrics {
        assert_eq!(m.original, None, "{m:?}");
        assert!(m.note.as_deref().unwrap().contains("KeyError"), "{m:?}");
        println!(
            "TimeArena react: {} makespan original - (note: {})",
            m.name,
            m.note.as_deref().unwrap()
        );
    }
}
