//! Speed on whole benchmark corpora, as a table: `cargo bench --bench corpus`.
//! Solves every ParaCook instance (72 files × 1–3 agents), every Robotouille task-graph
//! instance (10 tasks, 45 variants), every AsyncHow instance, every Recipe2Plan instance (65 ×
//! easy/medium) and every TimeArena run (525, plus the 175 constrained cooking runs) from
//! `../shared/benchmarks` with the default
//! options and all cores, and prints counts and times.
//!
//! With `MAKESPAN_COMPARE=1` each corpus is solved twice, without and with the constraint
//! model (Pumpkin), and every instance the model took (or that changed method) and that took
//! over 1.5 times as long with it (and 0.2 s more) is listed: the rule that the constraint
//! model takes whatever it expresses is measured here.

use std::path::Path;
use std::time::Instant;

use makespan::benchmarks::{self, ImportOptions};
use makespan::instance::Instance;
use makespan::solution::{Solution, Status};
use makespan::solve::{solve_detailed, Run, SolveOptions};
use rayon::prelude::*;

fn main() {
    println!(
        "{:<32} {:>9} {:>8} {:>6} {:>6} {:>10} {:>10} {:>10} {:>10}",
        "corpus", "instances", "optimal", "milp", "cp", "wall s", "cpu s", "median s", "max s"
    );
    let agents = |agents| ImportOptions {
        agents,
        ..ImportOptions::default()
    };
    run(
        "paracook (m=1,2,3)",
        "../shared/benchmarks/paracook/abstract",
        agents(vec![Some(1), Some(2), Some(3)]),
    );
    run(
        "robotouille (variants)",
        "../shared/benchmarks/robotouille/task_graphs.json",
        ImportOptions::default(),
    );
    run(
        "asynchow (unlimited)",
        "../shared/benchmarks/asynchow/instances.json",
        agents(vec![]),
    );
    run(
        "timearena (1,2,3)",
        "../shared/benchmarks/timearena/tasks.json",
        ImportOptions::default(),
    );
    run(
        "timearena --constraint",
        "../shared/benchmarks/timearena/tasks.json",
        ImportOptions::default()
            .with("constraint", &["true"])
            .unwrap(),
    );
    run(
        "recipe2plan (easy+med)",
        "../shared/benchmarks/recipe2plan/cooking.json",
        ImportOptions::default(),
    );
}

fn run(label: &str, path: &str, options: ImportOptions) {
    let path = Path::new(path);
    if !path.exists() {
        println!("{label:<32} skipped: {} is not there", path.display());
        return;
    }
    let instances: Vec<Instance> = benchmarks::input_files(path)
        .expect("readable corpus")
        .iter()
        .flat_map(|f| benchmarks::import(f, &options).expect("importable corpus"))
        .collect();
    let compare = std::env::var("MAKESPAN_COMPARE").is_ok_and(|v| v == "1");
    let pipelines: &[bool] = if compare { &[false, true] } else { &[true] };
    let mut runs: Vec<Vec<Solution>> = Vec::new();
    let options = SolveOptions::default();
    for &cp in pipelines {
        let run = match cp {
            true => Run::default(),
            false => Run::default().without_constraint_model(),
        };
        let clock = Instant::now();
        let solutions: Vec<Solution> = instances
            .par_iter()
            .map(|i| solve_detailed(i, &options, &run).0)
            .collect();
        let wall = clock.elapsed().as_secs_f64();
        let mut seconds: Vec<f64> = solutions.iter().map(|s| s.seconds).collect();
        seconds.sort_by(f64::total_cmp);
        let name = match (compare, cp) {
            (false, _) => label.to_string(),
            (true, false) => format!("{label} (no cp)"),
            (true, true) => format!("{label} (cp)"),
        };
        println!(
            "{:<32} {:>9} {:>8} {:>6} {:>6} {:>10.2} {:>10.2} {:>10.4} {:>10.3}",
            name,
            solutions.len(),
            solutions
                .iter()
                .filter(|s| s.status == Status::Optimal)
                .count(),
            solutions.iter().filter(|s| s.nodes.is_some()).count(),
            solutions.iter().filter(|s| s.method.contains("cp")).count(),
            wall,
            seconds.iter().sum::<f64>(),
            seconds.get(seconds.len() / 2).copied().unwrap_or(0.0),
            seconds.last().copied().unwrap_or(0.0),
        );
        runs.push(solutions);
    }
    if let [without, with] = &runs[..] {
        for (a, b) in without.iter().zip(with) {
            // Where neither run took a different path, a difference is the machine's noise.
            let changed = a.method != b.method || b.method.contains("cp");
            if changed && b.seconds > 1.5 * a.seconds + 0.2 {
                println!(
                    "  slower with cp: {} {:.2} s ({}) -> {:.2} s ({})",
                    a.instance.name, a.seconds, a.method, b.seconds, b.method
                );
            }
        }
    }
}
