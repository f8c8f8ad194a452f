//! Speed and agreement on the external validation sets, as a table:
//! `cargo bench --profile dev --bench validation`.
//!
//! Solves the sets named in `MAKESPAN_SETS` (comma-separated; default
//! `j30,sm_j10,ubo10,jobshop`) from `../shared/external-validation` with the ordinary
//! pipeline and a 60 s limit per instance (override with `MAKESPAN_TIME_LIMIT`), two
//! instances at a time (override with `MAKESPAN_JOBS`), and prints every instance, then per
//! set: instances, proven (optimal or infeasible), disagreements, median and max seconds.
//! Sets: `j30` (the 18-file PSPLIB sample), `j30-all` (all 480), `sm_j10`, `ubo10`,
//! `jobshop` (ft06, la01–la05), `ft10`.
//!
//! With `MAKESPAN_COMPARE=1` each set is solved twice, with and without the constraint
//! model (the pipeline before it), and a last table compares them: proven, summed, median
//! and max seconds, and how many took under a second.

use std::path::{Path, PathBuf};
use std::time::Instant;

use makespan::solve::{Run, SolveOptions};
use makespan::validation::{self, Optima, Outcome};

const SAMPLES: &str = "../shared/external-validation";

/// Name, instances and tables of each set, relative to [`SAMPLES`].
type Set = (
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
);

const SETS: [Set; 6] = [
    ("j30", &["psplib-j30"], &["psplib-j30/j30_optimum.csv"]),
    (
        "j30-all",
        &["psplib-j30-all"],
        &["psplib-j30-all/optimum.csv"],
    ),
    (
        "sm_j10",
        &["rcpsp-max/sm_j10"],
        &["rcpsp-max/sm_j10/optimum.csv"],
    ),
    (
        "ubo10",
        &["rcpsp-max/ubo10"],
        &["rcpsp-max/ubo10/optimum.csv"],
    ),
    (
        "jobshop",
        &[
            "jssp/ft06.jss",
            "jssp/la01.jss",
            "jssp/la02.jss",
            "jssp/la03.jss",
            "jssp/la04.jss",
            "jssp/la05.jss",
        ],
        &["jssp/ft_optimum.csv", "jssp/la_optimum.csv"],
    ),
    ("ft10", &["jssp/ft10.jss"], &["jssp/ft_optimum.csv"]),
];

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    if !Path::new(SAMPLES).exists() {
        println!("skipped: {SAMPLES} is not there");
        return;
    }
    let names = std::env::var("MAKESPAN_SETS").unwrap_or("j30,sm_j10,ubo10,jobshop".into());
    let sets: Vec<&Set> = names
        .split(',')
        .map(|name| {
            SETS.iter().find(|s| s.0 == name.trim()).unwrap_or_else(|| {
                let known: Vec<_> = SETS.iter().map(|s| s.0).collect();
                panic!("MAKESPAN_SETS: no set {name:?}; the sets are {known:?}")
            })
        })
        .collect();
    let options = SolveOptions {
        time_limit: env_or("MAKESPAN_TIME_LIMIT", 60.0),
        ..SolveOptions::default()
    };
    let compare = env_or("MAKESPAN_COMPARE", 0u8) == 1;
    let jobs = env_or("MAKESPAN_JOBS", 2usize);
    let mut all: Vec<Outcome> = Vec::new();
    let mut before: Vec<Outcome> = Vec::new();
    let clock = Instant::now();
    for (_, inputs, tables) in sets {
        let mut optima = Optima::default();
        for t in *tables {
            optima
                .read(&Path::new(SAMPLES).join(t))
                .expect("readable table");
        }
        let inputs: Vec<PathBuf> = inputs.iter().map(|i| Path::new(SAMPLES).join(i)).collect();
        let cases = validation::load_cases(&inputs).expect("importable samples");
        all.extend(
            validation::run(&cases, &optima, &options, &Run::default(), jobs, &|_| {})
                .expect("the workers start"),
        );
        if compare {
            let without = Run::default().without_constraint_model();
            before.extend(
                validation::run(&cases, &optima, &options, &without, jobs, &|_| {})
                    .expect("the workers start"),
            );
        }
    }
    print!("{}", validation::render(&all));
    if compare {
        println!();
        println!(
            "{:<16} {:<16} {:>5} {:>7} {:>9} {:>9} {:>9} {:>6}",
            "set", "pipeline", "count", "proven", "summed s", "median s", "max s", "< 1 s"
        );
        for (pipeline, outcomes) in [("without cp", &before), ("with cp", &all)] {
            for s in validation::summarise(outcomes) {
                let of_set = outcomes.iter().filter(|o| o.set == s.set);
                let summed: f64 = of_set.clone().map(|o| o.seconds).sum();
                let quick = of_set.filter(|o| o.proven() && o.seconds < 1.0).count();
                println!(
                    "{:<16} {:<16} {:>5} {:>7} {:>9.1} {:>9.2} {:>9.2} {:>6}",
                    s.set,
                    pipeline,
                    s.count,
                    s.proven,
                    summed,
                    s.median_seconds,
                    s.max_seconds,
                    quick
                );
            }
        }
    }
    println!(
        "time limit {} s per instance, {jobs} at a time, wall {:.1} s",
        options.time_limit,
        clock.elapsed().as_secs_f64()
    );
}
