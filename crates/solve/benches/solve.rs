//! Per-instance solve times of the bundled instances and of the pieces of the pipeline:
//! `cargo bench -p makespan-solve --bench solve`. The pieces are the crate's internals, so
//! the bench lives beside them.

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion};
use makespan_model::instance::parse_instance;
use makespan_solve::internals::bounds;
use makespan_solve::internals::heuristics::{self, Effort};
use makespan_solve::internals::Problem;
use makespan_solve::{solve, SolveOptions};

fn bundled(c: &mut Criterion) {
    for name in [
        "two-cooks-breakfast",
        "lab-incubation",
        "three-agent-assembly",
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../instances")
            .join(format!("{name}.json"));
        let text = std::fs::read_to_string(&path).expect("bundled instance");
        let instance = parse_instance(&path, &text).expect("valid bundled instance");
        let problem = Problem::compile(&instance).expect("solvable bundled instance");
        c.bench_function(&format!("{name}/solve"), |b| {
            b.iter(|| solve(&instance, &SolveOptions::default()))
        });
        c.bench_function(&format!("{name}/bounds"), |b| {
            b.iter(|| bounds::best(&problem, None))
        });
        c.bench_function(&format!("{name}/heuristic"), |b| {
            b.iter(|| {
                heuristics::best(
                    &problem,
                    0,
                    Effort {
                        samples: 16,
                        ..Effort::default()
                    },
                )
            })
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bundled
}
criterion_main!(benches);
