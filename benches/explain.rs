//! Speed of the explanation and the Gantt pictures on a 200-activity plan (target: under
//! 50 ms each), and of the HTML page of a 360-answer run (target: under 3 s):
//! `cargo bench --profile dev --bench explain`.

use criterion::{criterion_group, criterion_main, Criterion};
use makespan::explain::gantt::{self, Chart};
use makespan::explain::{explain, Reference};
use makespan::instance::{Activity, Instance, Precedence, Resource, ResourceUse};
use makespan::schedule::{makespan as makespan_of, ScheduledActivity};
use makespan::{verify, SolveOptions};

/// 200 activities of 1–9 units for 4 agents, each after one or two earlier ones (lags 0–3),
/// every tenth on a unary oven and every fifth on a pot of capacity 2; seeded, so every run
/// measures the same plan.
fn kitchen(n: usize) -> Instance {
    kitchen_seeded(n, 42)
}

fn kitchen_seeded(n: usize, seed: u64) -> Instance {
    let mut state: u64 = seed;
    let mut next = move |m: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % m
    };
    let mut activities = Vec::new();
    let mut precedences = Vec::new();
    for i in 0..n {
        let mut a = Activity::new(format!("a{i}"), 1 + next(9) as i64);
        a.label = Some(format!("step {i}"));
        if i % 10 == 0 {
            a.uses.push(ResourceUse {
                resource: "oven".into(),
                amount: 1,
            });
        } else if i % 5 == 0 {
            a.uses.push(ResourceUse {
                resource: "pot".into(),
                amount: 1,
            });
        }
        activities.push(a);
        for _ in 0..(1 + next(2)) {
            if i > 0 {
                let before = next(i as u64) as usize;
                precedences.push(Precedence::finish_to_start(
                    format!("a{before}"),
                    format!("a{i}"),
                    next(4) as i64,
                ));
            }
        }
    }
    precedences.sort_by(|x, y| (&x.before, &x.after).cmp(&(&y.before, &y.after)));
    precedences.dedup_by(|x, y| x.before == y.before && x.after == y.after);
    Instance {
        resources: vec![
            Resource {
                id: "oven".into(),
                capacity: 1,
                states: vec![],
            },
            Resource {
                id: "pot".into(),
                capacity: 2,
                states: vec![],
            },
        ],
        activities,
        precedences,
        ..Instance::new(format!("kitchen-{n}-{seed}"), Some(4))
    }
}

fn explain_and_draw(c: &mut Criterion) {
    let instance = kitchen(200);
    let options = SolveOptions {
        heuristic_only: true,
        ..SolveOptions::default()
    };
    let solution = makespan::solve(&instance, &options);
    let reference: Vec<ScheduledActivity> = solution.schedule.clone();
    // The plan: the heuristic's schedule with every seventh activity started 3 later where
    // the verifier still accepts it, so it has waits to find.
    let mut plan = reference.clone();
    for k in (0..plan.len()).step_by(7) {
        let mut moved = plan.clone();
        for p in &mut moved[k].pieces {
            p.0 += 3;
            p.1 += 3;
        }
        if verify(&instance, &moved).valid {
            plan = moved;
        }
    }
    let report = verify(&instance, &plan);
    assert!(report.valid, "{}", report.render_text());
    let reference = Reference {
        schedule: &reference,
        makespan: makespan_of(&reference),
        optimal: false,
    };
    c.bench_function("explain/200 activities", |b| {
        b.iter(|| explain(&instance, &plan, &report.violations, Some(reference)).unwrap())
    });
    let explanation = explain(&instance, &plan, &report.violations, Some(reference)).unwrap();
    let chart = Chart {
        instance: &instance,
        schedule: &plan,
        explanation: &explanation,
        reference: Some(reference.schedule),
    };
    c.bench_function("gantt svg/200 activities", |b| {
        b.iter(|| gantt::svg(&chart))
    });
    c.bench_function("gantt html/200 activities", |b| {
        b.iter(|| gantt::html(&chart))
    });
    c.bench_function("explain + gantt html/200 activities", |b| {
        b.iter(|| {
            let e = explain(&instance, &plan, &report.violations, Some(reference)).unwrap();
            gantt::html(&Chart {
                explanation: &e,
                ..chart
            })
        })
    });
}

/// A run of 360 answers (30-activity kitchens, 36 instances × 10 answers, every fifth answer
/// invalid), each drawn beside its optimum on the run's page.
fn run_page(c: &mut Criterion) {
    use makespan::score::page::{self, RunAnswer};
    use makespan::score::{Headline, Row, RunReport, RUN_REPORT_FORMAT};
    let options = SolveOptions {
        heuristic_only: true,
        ..SolveOptions::default()
    };
    let instances: Vec<(Instance, Vec<ScheduledActivity>)> = (0..36)
        .map(|seed| {
            let instance = kitchen_seeded(30, seed);
            let schedule = makespan::solve(&instance, &options).schedule;
            (instance, schedule)
        })
        .collect();
    let mut plans = Vec::new();
    for k in 0..360 {
        let (instance, optimum) = &instances[k % 36];
        let mut plan = optimum.clone();
        let shift = if k % 5 == 0 { -2 } else { 2 };
        let entry = &mut plan[k % optimum.len()];
        for p in &mut entry.pieces {
            p.0 += shift;
            p.1 += shift;
        }
        let report = verify(instance, &plan);
        plans.push((format!("answer-{k}"), instance, optimum, plan, report));
    }
    let rows: Vec<Row> = plans
        .iter()
        .map(|(key, instance, optimum, _, report)| Row {
            key: key.clone(),
            instance: Some(instance.name.clone()),
            valid: Some(report.valid),
            makespan: report.makespan,
            optimum: Some(makespan_of(optimum)),
            proven: Some(false),
            ratio: report
                .makespan
                .filter(|_| report.valid)
                .map(|m| m as f64 / makespan_of(optimum) as f64),
            messages: report
                .violations
                .iter()
                .map(|v| format!("{}: {}", v.rule, v.message))
                .collect(),
            ..Row::default()
        })
        .collect();
    let report = RunReport {
        format: RUN_REPORT_FORMAT.into(),
        benchmark: "kitchen".into(),
        run: "bench".into(),
        data: "-".into(),
        score_name: "makespan".into(),
        rows,
        headline: Headline::default(),
        differences: Vec::new(),
        unanswered: Vec::new(),
        time_unit: instances[0].0.time_unit,
    };
    let answers: Vec<RunAnswer> = plans
        .iter()
        .map(|(key, instance, optimum, plan, report)| RunAnswer {
            key,
            instance,
            schedule: plan,
            violations: &report.violations,
            reference: Some(Reference {
                schedule: optimum,
                makespan: makespan_of(optimum),
                optimal: false,
            }),
        })
        .collect();
    let mut group = c.benchmark_group("run page");
    group.sample_size(10);
    group.bench_function("360 answers", |b| b.iter(|| page::html(&report, &answers)));
    group.finish();
}

criterion_group!(benches, explain_and_draw, run_page);
criterion_main!(benches);
