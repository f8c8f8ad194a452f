//! Robotouille's replay verifier on an agent's 100-step log: the longest committed
//! one-robot plan (`references/robotouille.jsonl`, kitchens embedded, so no data is needed)
//! behind enough `Do nothing` lines to make 100, verified as `makespan verify` does it
//! (read the lines, replay each in the simulator, name the failed precondition of a refused
//! one, render the report). The target is under 1 ms. `cargo bench --bench world_replay`.

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion};
use makespan::references::{InstanceSource, References};

/// Lines in the log, as the target names it.
const STEPS: usize = 100;

fn world_replay(c: &mut Criterion) {
    let references = References::read(Path::new("references/robotouille.jsonl"))
        .expect("the committed references read");
    let (instance, answer) = references
        .iter()
        .filter(|r| !r.name.contains("multi_agent"))
        .filter_map(|r| match (&r.instance, &r.answer) {
            (InstanceSource::Embedded(i), Some(a)) => Some((i, a.text.as_str())),
            _ => None,
        })
        .max_by_key(|(_, text)| text.lines().count())
        .expect("a one-robot plan");
    let plan = answer.lines().count();
    let log: String = std::iter::repeat_n("Do nothing", STEPS.saturating_sub(plan))
        .chain(answer.lines())
        .map(|line| format!("{line}\n"))
        .collect();
    c.bench_function(
        &format!("robotouille/verify a {STEPS}-step log ({})", instance.name),
        |b| {
            b.iter(|| {
                let checked = makespan::verify_plan(Path::new("<log>"), &log, Some(instance), None)
                    .expect("the log reads");
                assert!(checked.answer.report.valid);
                checked
            })
        },
    );
}

criterion_group!(benches, world_replay);
criterion_main!(benches);
