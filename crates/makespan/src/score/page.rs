//! One HTML page for a whole scored run (`makespan score --html`): the headline metrics
//! (original and corrected), a chart of the ratio to the optimum across the answers, the
//! differences between the original scorer and the strict verdict, the table of answers with
//! their violations, and each answer's Gantt chart beside its optimum (collapsed, so the page
//! stays quick to open with hundreds of answers). Self-contained like the Gantt page; the same
//! run gives the same bytes.

use makespan_benchmarks::harness::RunReport;
use makespan_model::instance::Instance;
use makespan_model::schedule::ScheduledActivity;
use makespan_verify::Violation;
use minijinja::context;
use serde::Serialize;
use svg::node::element::{Circle, Group, Line, Path, Text, Title};
use svg::Document;

use makespan_explain::gantt::{self, Chart};
use makespan_explain::{explain, Reference};

use crate::Drawing;

use super::{template, ScoredRun};
use crate::instance::problem_hash;
use crate::{schedule, Status};

const PAGE: &str = include_str!("page.html");

/// The page of a scored run ([`crate::score::score_run_detailed`]).
pub fn score_html(scored: &ScoredRun) -> String {
    let answers: Vec<RunAnswer> = scored
        .entries
        .iter()
        .filter_map(|entry| {
            let s = entry.scored.as_ref().ok()?;
            let reference = scored
                .optima
                .get(&problem_hash(&s.instance))
                .and_then(|o| o.as_ref().ok())
                .map(|solution| Reference {
                    schedule: &solution.schedule,
                    makespan: solution
                        .makespan
                        .unwrap_or_else(|| schedule::makespan(&solution.schedule)),
                    optimal: solution.status == Status::Optimal,
                });
            Some(RunAnswer {
                key: &entry.key,
                instance: &s.instance,
                schedule: &s.schedule,
                violations: &s.report.violations,
                reference,
            })
        })
        .collect();
    html(&scored.report, &answers)
}

/// One answer of the run, to draw: the row's key, its instance, its schedule as written and
/// its violations, and the optimum's schedule when there is one.
#[derive(Debug, Clone, Copy)]
pub struct RunAnswer<'a> {
    /// The row's key ([`makespan_benchmarks::harness::Row::key`]).
    pub key: &'a str,
    /// The instance it answers.
    pub instance: &'a Instance,
    /// The answer as a schedule.
    pub schedule: &'a [ScheduledActivity],
    /// Its violations.
    pub violations: &'a [Violation],
    /// The optimum (or best known) schedule of the instance.
    pub reference: Option<Reference<'a>>,
}

#[derive(Serialize)]
struct MetricRow {
    name: String,
    about: String,
    original: String,
    corrected: String,
    fair: String,
    note: Option<String>,
}

#[derive(Serialize)]
struct AnswerRow {
    key: String,
    anchor: Option<String>,
    instance: String,
    valid: String,
    invalid: bool,
    makespan: String,
    optimum: String,
    ratio: String,
    original_score: String,
    corrected_score: String,
    violations: String,
    error: Option<String>,
}

#[derive(Serialize)]
struct GanttBlock {
    anchor: String,
    summary: String,
    messages: Vec<String>,
    svg: String,
}

fn cell<T: ToString>(value: Option<T>) -> String {
    value.map_or("–".into(), |v| v.to_string())
}

fn number(value: Option<f64>) -> String {
    value.map_or("–".into(), |v| format!("{v:.4}"))
}

/// The run's page. `answers` are drawn where their key matches a row.
pub fn html(report: &RunReport, answers: &[RunAnswer<'_>]) -> String {
    let anchor = |k: usize| format!("answer-{k}");
    let drawn: Vec<Option<usize>> = report
        .rows
        .iter()
        .map(|r| answers.iter().position(|a| a.key == r.key))
        .collect();
    let rows: Vec<AnswerRow> = report
        .rows
        .iter()
        .zip(&drawn)
        .enumerate()
        .map(|(k, (r, d))| AnswerRow {
            key: r.key.clone(),
            anchor: d.map(|_| anchor(k)),
            instance: cell(r.instance.as_ref()),
            valid: cell(r.valid),
            invalid: r.valid == Some(false),
            makespan: cell(r.makespan),
            optimum: match (r.optimum, r.proven) {
                (Some(o), Some(false)) => format!("{o} (best known)"),
                (o, _) => cell(o),
            },
            ratio: number(r.ratio),
            original_score: number(r.original_score),
            corrected_score: number(r.corrected_score),
            violations: r
                .violations
                .iter()
                .map(|(rule, n)| format!("{rule} ×{n}"))
                .collect::<Vec<_>>()
                .join(", "),
            error: r.error.clone(),
        })
        .collect();
    let gantts: Vec<GanttBlock> = report
        .rows
        .iter()
        .zip(&drawn)
        .enumerate()
        .filter_map(|(k, (r, d))| {
            let a = &answers[(*d)?];
            let drawing = Drawing::new(a.instance, a.schedule, a.reference.map(|x| x.schedule));
            let reference = a.reference.filter(|_| drawing.comparable);
            let explanation = explain(
                &drawing.instance,
                &drawing.schedule,
                a.violations,
                reference,
            )
            .or_else(|_| explain(&drawing.instance, &drawing.schedule, a.violations, None))
            .ok()?;
            let svg = gantt::svg(&Chart {
                instance: &drawing.instance,
                schedule: &drawing.schedule,
                explanation: &explanation,
                reference: drawing.reference.as_deref(),
            });
            let verdict = match (r.valid, r.ratio) {
                (Some(true), Some(ratio)) => format!("ratio {ratio:.4}"),
                (Some(true), None) => "valid".to_string(),
                _ => format!("INVALID, {} violation(s)", a.violations.len()),
            };
            Some(GanttBlock {
                anchor: anchor(k),
                summary: format!("{} — {verdict}", r.key),
                messages: r.messages.clone(),
                svg,
            })
        })
        .collect();
    let metrics: Vec<MetricRow> = report
        .headline
        .metrics
        .iter()
        .map(|m| MetricRow {
            name: m.name.clone(),
            about: m.about.clone(),
            original: number(m.original),
            corrected: number(m.corrected),
            fair: number(m.fair),
            note: m.note.clone(),
        })
        .collect();
    template::render(
        "run_page.html",
        PAGE,
        context! {
            title => format!("{} run: {}", report.benchmark, report.run),
            run => report.run.clone(),
            answers => report.rows.len(),
            invalid => report.invalid(),
            unscored => report.unscored(),
            score_name => report.score_name.clone(),
            fair => report.headline.metrics.iter().any(|m| m.fair.is_some()),
            metrics => minijinja::value::Serde(metrics),
            ratio_chart => ratio_chart(report),
            differences => minijinja::value::Serde(&report.differences),
            rows => minijinja::value::Serde(rows),
            gantts => minijinja::value::Serde(gantts),
        },
    )
}

/// Each answer's ratio to the optimum as a dot, in row order; invalid answers as red marks
/// above the chart, unscored ones left out. Both axes say what they measure.
fn ratio_chart(report: &RunReport) -> String {
    const LEFT: f64 = 66.0;
    const TOP: f64 = 28.0;
    const PLOT: f64 = 200.0;
    const BOTTOM: f64 = 44.0;
    let n = report.rows.len().max(1);
    let width = (LEFT + 16.0 + 6.0 * n as f64).clamp(600.0, 4000.0);
    let step = (width - LEFT - 16.0) / n as f64;
    let top = report
        .rows
        .iter()
        .filter_map(|r| r.ratio)
        .fold(1.5f64, f64::max)
        .min(10.0);
    let y = |r: f64| TOP + PLOT - (r.min(top) - 1.0) / (top - 1.0) * PLOT;
    let f = |v: f64| format!("{v:.1}");
    let mut doc = Document::new()
        .set("xmlns", "http://www.w3.org/2000/svg")
        .set("width", f(width))
        .set("height", f(TOP + PLOT + BOTTOM))
        .set(
            "viewBox",
            format!("0 0 {} {}", f(width), f(TOP + PLOT + BOTTOM)),
        )
        .set("font-family", "sans-serif")
        .set("font-size", 11)
        .add(
            Text::new("ratio to the optimum (makespan / optimum)")
                .set("class", "axis-label y")
                .set("x", f(14.0))
                .set("y", f(TOP + PLOT / 2.0))
                .set("text-anchor", "middle")
                .set(
                    "transform",
                    format!("rotate(-90 {} {})", f(14.0), f(TOP + PLOT / 2.0)),
                ),
        )
        .add(
            Text::new(format!(
                "answers, in the table's order ({}); hover a dot for its key",
                report.rows.len()
            ))
            .set("class", "axis-label x")
            .set("x", f(LEFT + (width - LEFT - 8.0) / 2.0))
            .set("y", f(TOP + PLOT + 30.0))
            .set("text-anchor", "middle"),
        );
    for k in 0..=4 {
        let r = 1.0 + (top - 1.0) * k as f64 / 4.0;
        doc = doc
            .add(
                Line::new()
                    .set("x1", f(LEFT))
                    .set("x2", f(width - 8.0))
                    .set("y1", f(y(r)))
                    .set("y2", f(y(r)))
                    .set("stroke", if k == 0 { "#555" } else { "#e1e4e8" }),
            )
            .add(
                Text::new(format!("{r:.2}"))
                    .set("x", f(LEFT - 6.0))
                    .set("y", f(y(r) + 4.0))
                    .set("text-anchor", "end"),
            );
    }
    doc = doc.add(
        Text::new("invalid")
            .set("x", f(LEFT - 6.0))
            .set("y", f(TOP - 10.0))
            .set("text-anchor", "end")
            .set("fill", "#d62728"),
    );
    for (k, r) in report.rows.iter().enumerate() {
        let x = LEFT + step * (k as f64 + 0.5);
        let point = match (r.valid, r.ratio) {
            (Some(false), _) => Group::new().set("class", "point invalid").add(
                Path::new()
                    .set(
                        "d",
                        format!("M{} {}l6 6m0 -6l-6 6", f(x - 3.0), f(TOP - 16.0)),
                    )
                    .set("stroke", "#d62728")
                    .set("stroke-width", 1.5),
            ),
            (Some(true), Some(ratio)) => Group::new().set("class", "point").add(
                Circle::new()
                    .set("cx", f(x))
                    .set("cy", f(y(ratio)))
                    .set("r", 3)
                    .set("fill", if ratio > 1.0 { "#f28e2b" } else { "#4e79a7" }),
            ),
            _ => continue,
        };
        let what = match r.ratio {
            Some(ratio) => format!("{}: ratio {ratio:.4}", r.key),
            None => format!("{}: invalid ({})", r.key, r.messages.len()),
        };
        doc = doc.add(point.add(Title::new(what)));
    }
    doc.to_string()
}
