//! The Rust side of the Python binding's calling overhead: one `verify_plan` of a ParaCook
//! answer given as an LLM's raw response (burger, seed 42, 4 orders, 2 cooks), the call
//! `makespan.verify(text, instance)` makes. `cargo bench --bench verify_answer`; the Python
//! side is `python/benches/bench.py`. Skipped where the benchmark data is absent.

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion};
use makespan::benchmarks::ImportOptions;
use makespan::SolveOptions;

fn verify_answer(c: &mut Criterion) {
    let file = Path::new("../shared/benchmarks/paracook/abstract/burger/seed_42/orders_num_4.json");
    if !file.exists() {
        eprintln!("skipped: {} not found", file.display());
        return;
    }
    let options = ImportOptions {
        agents: vec![Some(2)],
        ..ImportOptions::default()
    };
    let instance = makespan::load(file, &options)
        .expect("ParaCook reads")
        .remove(0);
    let solution = makespan::solve(&instance, &SolveOptions::default());
    let answer = makespan::benchmarks::export_native(&instance, &solution.schedule)
        .expect("ParaCook has an answer form")
        .text;
    let text = format!("Here is the plan.\n\n```json\n{answer}\n```\n");
    c.bench_function("paracook/verify_plan (LLM text)", |b| {
        b.iter(|| {
            let checked =
                makespan::verify_plan(Path::new("<answer>"), &text, Some(&instance), None)
                    .expect("the answer reads");
            assert!(checked.answer.report.valid);
            checked
        })
    });
}

criterion_group!(benches, verify_answer);
criterion_main!(benches);
