//! Speed and agreement on the external validation samples, as a table:
//! `cargo bench --profile dev --bench validation`.
//!
//! Solves the PSPLIB j30 sample, RCPSP/max sm_j10 and UBO10, ft06 and la01–la05 from
//! `../shared/external-validation` with the ordinary pipeline and a 60 s MILP limit per
//! instance (override with `MAKESPAN_TIME_LIMIT`), two instances at a time (override with
//! `MAKESPAN_JOBS`), and prints every instance, then per set: instances, proven (optimal or
//! infeasible), disagreements, median and max seconds.

use std::path::{Path, PathBuf};
use std::time::Instant;

use makespan::solve::SolveOptions;
use makespan::validation::{self, Optima, Outcome};

const SAMPLES: &str = "../shared/external-validation";

/// (instances, tables) per sample set, relative to [`SAMPLES`].
const SETS: [(&[&str], &[&str]); 4] = [
    (&["psplib-j30"], &["psplib-j30/j30_optimum.csv"]),
    (&["rcpsp-max/sm_j10"], &["rcpsp-max/sm_j10/optimum.csv"]),
    (&["rcpsp-max/ubo10"], &["rcpsp-max/ubo10/optimum.csv"]),
    (
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
    let options = SolveOptions {
        time_limit: env_or("MAKESPAN_TIME_LIMIT", 60.0),
        ..SolveOptions::default()
    };
    let jobs = env_or("MAKESPAN_JOBS", 2usize);
    let mut all: Vec<Outcome> = Vec::new();
    let clock = Instant::now();
    for (inputs, tables) in SETS {
        let mut optima = Optima::default();
        for t in tables {
            optima
                .read(&Path::new(SAMPLES).join(t))
                .expect("readable table");
        }
        let inputs: Vec<PathBuf> = inputs.iter().map(|i| Path::new(SAMPLES).join(i)).collect();
        let cases = validation::load_cases(&inputs).expect("importable samples");
        all.extend(
            validation::run(&cases, &optima, &options, jobs, &|_| {}).expect("the workers start"),
        );
    }
    print!("{}", validation::render(&all));
    println!(
        "time limit {} s per instance, {jobs} at a time, wall {:.1} s",
        options.time_limit,
        clock.elapsed().as_secs_f64()
    );
}
