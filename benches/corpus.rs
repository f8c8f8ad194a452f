//! Speed on whole benchmark corpora, as a table: `cargo bench --bench corpus`.
//! Solves every ParaCook instance (72 files × 1–3 agents), every AsyncHow instance and every
//! Recipe2Plan instance (65 × easy/medium) from `../shared/benchmarks` with the default
//! options and all cores, and prints counts and times.

use std::path::Path;
use std::time::Instant;

use makespan::formats::{self, ImportOptions};
use makespan::instance::Instance;
use makespan::solution::{Solution, Status};
use makespan::solve::{solve, SolveOptions};
use rayon::prelude::*;

fn main() {
    println!(
        "{:<22} {:>9} {:>8} {:>6} {:>10} {:>10} {:>10} {:>10}",
        "corpus", "instances", "optimal", "milp", "wall s", "cpu s", "median s", "max s"
    );
    run(
        "paracook (m=1,2,3)",
        "../shared/benchmarks/paracook/abstract",
        vec![Some(1), Some(2), Some(3)],
    );
    run(
        "asynchow (unlimited)",
        "../shared/benchmarks/asynchow/instances.json",
        vec![],
    );
    run(
        "recipe2plan (easy+med)",
        "../shared/benchmarks/recipe2plan/cooking.json",
        vec![],
    );
}

fn run(label: &str, path: &str, agents: Vec<Option<u32>>) {
    let path = Path::new(path);
    if !path.exists() {
        println!("{label:<22} skipped: {} is not there", path.display());
        return;
    }
    let options = ImportOptions {
        agents,
        ..Default::default()
    };
    let instances: Vec<Instance> = formats::input_files(path)
        .expect("readable corpus")
        .iter()
        .flat_map(|f| formats::import(f, &options).expect("importable corpus"))
        .collect();
    let clock = Instant::now();
    let solutions: Vec<Solution> = instances
        .par_iter()
        .map(|i| solve(i, &SolveOptions::default()))
        .collect();
    let wall = clock.elapsed().as_secs_f64();
    let mut seconds: Vec<f64> = solutions.iter().map(|s| s.seconds).collect();
    seconds.sort_by(f64::total_cmp);
    println!(
        "{:<22} {:>9} {:>8} {:>6} {:>10.2} {:>10.2} {:>10.4} {:>10.3}",
        label,
        solutions.len(),
        solutions
            .iter()
            .filter(|s| s.status == Status::Optimal)
            .count(),
        solutions.iter().filter(|s| s.nodes.is_some()).count(),
        wall,
        seconds.iter().sum::<f64>(),
        seconds.get(seconds.len() / 2).copied().unwrap_or(0.0),
        seconds.last().copied().unwrap_or(0.0),
    );
}
