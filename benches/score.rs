//! Speed of `makespan score` on whole runs, optima cached: `cargo bench --bench score`.
//!
//! Builds two runs in a temporary folder from the benchmark data (`$MAKESPAN_DATA`, else
//! `../shared/benchmarks`; skipped where absent) and makespan's own optimal answers: a ParaCook
//! results file of 360 answers (72 task files × 1–5 cooks) and a folder of 525 TimeArena
//! trajectories (every run of 1, 2 and 3 tasks). Each run is scored once to fill the solution
//! cache, then timed as `score --solutions` would run it (median of 5).

use std::path::Path;
use std::time::Instant;

use makespan::benchmarks::{self, ImportOptions};
use makespan::score::{score_run, ScoreOptions};
use makespan::solve::SolveOptions;
use rayon::prelude::*;
use serde_json::{json, Value};

fn main() {
    println!(
        "{:<34} {:>8} {:>10} {:>10}",
        "run", "answers", "median s", "max s"
    );
    let data = makespan_testkit::data_dir();
    if data.join("paracook/abstract").is_dir() {
        paracook(&data);
    } else {
        println!(
            "paracook: skipped, no {}",
            data.join("paracook/abstract").display()
        );
    }
    if data.join("timearena").is_dir() {
        timearena(&data);
    } else {
        println!(
            "timearena: skipped, no {}",
            data.join("timearena").display()
        );
    }
}

/// Times scoring `run` against the checkout `data` with a filled solution cache.
fn time(label: &str, run: &Path, data: &Path, solutions: &Path) {
    let options = ScoreOptions {
        data: Some(data.to_path_buf()),
        solutions: Some(solutions.to_path_buf()),
        solve: SolveOptions::default(),
    };
    let first = score_run(run, &options).expect("the run scores");
    assert_eq!(first.unscored(), 0, "every answer is scored");
    let mut seconds: Vec<f64> = (0..5)
        .map(|_| {
            let start = Instant::now();
            let report = score_run(run, &options).expect("the run scores");
            assert_eq!(report.rows.len(), first.rows.len());
            start.elapsed().as_secs_f64()
        })
        .collect();
    seconds.sort_by(f64::total_cmp);
    println!(
        "{label:<34} {:>8} {:>10.3} {:>10.3}",
        first.rows.len(),
        seconds[seconds.len() / 2],
        seconds[seconds.len() - 1]
    );
}

fn paracook(data: &Path) {
    let dir = tempfile::tempdir().unwrap();
    let options = ImportOptions {
        agents: (1..=5).map(Some).collect(),
        ..ImportOptions::default()
    };
    let mut results = serde_json::Map::new();
    for file in benchmarks::input_files(&data.join("paracook/abstract")).unwrap() {
        let rel = file.strip_prefix(data.join("paracook/abstract")).unwrap();
        let parts: Vec<String> = rel
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        let orders = parts[2].trim_end_matches(".json");
        let instances = benchmarks::import(&file, &options).unwrap();
        let answers: Vec<(String, Value)> = instances
            .par_iter()
            .map(|instance| {
                let solution = makespan::solve(instance, &SolveOptions::default());
                let lists = benchmarks::export_native(instance, &solution.schedule).unwrap();
                let key = format!(
                    "{}/{}/agent_num_{}/{orders}",
                    parts[0],
                    parts[1],
                    instance.agents.unwrap()
                );
                let answer: Value = serde_json::from_str(&lists.text).unwrap();
                (
                    key,
                    json!({"done": true, "time": solution.makespan, "answer": answer}),
                )
            })
            .collect();
        results.extend(answers);
    }
    let run = dir.path().join("model.json");
    std::fs::write(&run, serde_json::to_string(&results).unwrap()).unwrap();
    time(
        "paracook results file",
        &run,
        &data.join("paracook"),
        &dir.path().join("solutions"),
    );
}

fn timearena(data: &Path) {
    let dir = tempfile::tempdir().unwrap();
    let trajectories = dir.path().join("trajectory");
    std::fs::create_dir_all(&trajectories).unwrap();
    let tasks: Value =
        serde_json::from_str(&std::fs::read_to_string(data.join("timearena/tasks.json")).unwrap())
            .unwrap();
    let description = |name: &str| -> String {
        tasks["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .unwrap()["description"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let instances = benchmarks::import(
        &data.join("timearena/tasks.json"),
        &ImportOptions::default(),
    )
    .unwrap();
    instances.par_iter().for_each(|instance| {
        let solution = makespan::solve(instance, &SolveOptions::default());
        let decisions: Vec<Value> = serde_json::from_str(&benchmarks::export_native(instance, &solution.schedule).unwrap().text).unwrap();
        let instruction: String = instance
            .name
            .split('+')
            .enumerate()
            .map(|(k, task)| format!("**Task {}**\n<Description>\n{}\n", k + 1, description(task)))
            .collect();
        let mut records = vec![Value::String(instruction)];
        for d in decisions {
            let action = d["action"].as_str().unwrap().to_string();
            let observation = if action == "wait" { String::new() } else { format!("You are doing ``{action}``, it will take some minutes.\n") };
            records.push(json!({"time": d["time"], "observation": observation, "increment": 0, "progress score": 0, "isCompleted": false, "action": action}));
        }
        records.push(json!({"total_time": solution.makespan, "total_score": 100, "isCompleted": true}));
        std::fs::write(trajectories.join(format!("{}.json", instance.name)), serde_json::to_string(&records).unwrap()).unwrap();
    });
    time(
        "timearena trajectory folder",
        &trajectories,
        &data.join("timearena"),
        &dir.path().join("solutions"),
    );
}
