//! The makespan half of the side-by-side with OR-Tools CP-SAT:
//! `cargo bench --bench cpsat_export`, then `scripts/cpsat-compare DIR` (see
//! [speed](../docs/speed.md#beside-or-tools-cp-sat)).
//!
//! Imports every benchmark corpus under `../shared/benchmarks` as the corpus bench does,
//! writes each instance as unified JSON to `DIR/<corpus>/<k>.json` (`DIR` from
//! `MAKESPAN_CPSAT_DIR`, default `cpsat-corpora`), solves it alone with the default options
//! (`--threads` from `MAKESPAN_THREADS`, default 1) and records its status, makespan and
//! seconds in `DIR/<corpus>/makespan.csv`, so that the CP-SAT script times the same models
//! one by one on the same machine. CP-SAT is a measurement peer here, never a dependency.

use std::fmt::Write as _;
use std::num::NonZeroU32;
use std::path::Path;

use makespan::benchmarks::{self, ImportOptions};
use makespan::instance::Instance;
use makespan::solve::{solve_detailed, Run, SolveOptions};

fn main() {
    let dir = std::env::var("MAKESPAN_CPSAT_DIR").unwrap_or_else(|_| "cpsat-corpora".into());
    let threads = std::env::var("MAKESPAN_THREADS")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(NonZeroU32::MIN);
    let agents = |agents| ImportOptions {
        agents,
        ..ImportOptions::default()
    };
    let corpora = [
        (
            "paracook",
            "../shared/benchmarks/paracook/abstract",
            agents(vec![Some(1), Some(2), Some(3)]),
        ),
        (
            "robotouille",
            "../shared/benchmarks/robotouille/task_graphs.json",
            ImportOptions::default(),
        ),
        (
            "asynchow",
            "../shared/benchmarks/asynchow/instances.json",
            agents(vec![]),
        ),
        (
            "timearena",
            "../shared/benchmarks/timearena/tasks.json",
            ImportOptions::default(),
        ),
        (
            "timearena-constraint",
            "../shared/benchmarks/timearena/tasks.json",
            ImportOptions::default()
                .with("constraint", &["true"])
                .expect("a known knob"),
        ),
        (
            "recipe2plan",
            "../shared/benchmarks/recipe2plan/cooking.json",
            ImportOptions::default(),
        ),
    ];
    let options = SolveOptions {
        threads,
        ..SolveOptions::default()
    };
    for (name, path, import) in corpora {
        let path = Path::new(path);
        if !path.exists() {
            println!("{name:<22} skipped: {} is not there", path.display());
            continue;
        }
        let instances: Vec<Instance> = benchmarks::input_files(path)
            .expect("readable corpus")
            .iter()
            .flat_map(|f| benchmarks::import(f, &import).expect("importable corpus"))
            .collect();
        let folder = Path::new(&dir).join(name);
        std::fs::create_dir_all(&folder).expect("a writable export folder");
        let mut table = String::from("file,name,status,makespan,seconds\n");
        let (mut total, mut slowest) = (0.0f64, 0.0f64);
        for (k, instance) in instances.iter().enumerate() {
            let file = format!("{k:04}.json");
            let json = serde_json::to_string(instance).expect("an instance serialises");
            std::fs::write(folder.join(&file), json).expect("a writable export folder");
            let solution = solve_detailed(instance, &options, &Run::default()).0;
            total += solution.seconds;
            slowest = slowest.max(solution.seconds);
            let makespan = solution.makespan.map_or(String::new(), |m| m.to_string());
            let _ = writeln!(
                table,
                "{file},\"{}\",{:?},{makespan},{:.4}",
                instance.name.replace('"', "'"),
                solution.status,
                solution.seconds
            );
        }
        std::fs::write(folder.join("makespan.csv"), table).expect("a writable export folder");
        println!(
            "{name:<22} {:>5} instances  total {total:>7.2} s  slowest {slowest:>6.3} s",
            instances.len()
        );
    }
}
