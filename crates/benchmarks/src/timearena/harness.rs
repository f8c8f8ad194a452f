//! TimeArena's harness output: `LLM_test.py --save_path DIR` writes
//! one trajectory per run, `DIR/<name>.json`, `[instruction, record, …, final record]`. The run's
//! tasks are named only by the instruction at its head: each task's section carries its
//! description (`<Description>` then the text), which names the task; the constrained variant
//! shows in the object list (a pool of several instances listed by its bare name).
//!
//! The original's verdict is the environment's own final record (`isCompleted`,
//! `total_score`); its headline is `metrics/cal_metric.py` replayed exactly (progress
//! scores keyed by minute, T as a record index; a record with `time` but no `progress score`
//! crashes it, so its metrics are then missing). Corrected: the strict check's progress score
//! and completion time, summed up as the paper defines AS, CS, CR and CT.

use std::collections::HashMap;
use std::path::Path;

use serde_json::{json, Value};

use super::log::{aggregate, read_decisions, verify_decisions, RunMetrics};
use super::tasks::Task;
use crate::harness::{
    json_files, mean, rule_counts, Entry, Harness, Headline, Metric, Row, Scored,
};
use makespan_model::instance::{Instance, LoadError};
use makespan_verify::{Report, Rule};

/// The TimeArena harness.
pub struct TimeArenaHarness;

fn is_trajectory(value: &Value) -> bool {
    value.as_array().is_some_and(|list| {
        matches!(list.first(), Some(Value::String(s)) if s.contains("<Description>"))
            && list[1..].iter().all(Value::is_object)
    })
}

/// The descriptions of the instruction's task sections, in order.
fn descriptions(instruction: &str) -> Vec<&str> {
    let mut lines = instruction.lines();
    let mut found = Vec::new();
    while let Some(line) = lines.next() {
        if line.trim() == "<Description>" {
            if let Some(text) = lines.next() {
                found.push(text.trim());
            }
        }
    }
    found
}

/// The objects the instruction lists as available.
fn listed_objects(instruction: &str) -> Vec<&str> {
    instruction
        .lines()
        .skip_while(|l| !l.starts_with("**All Available Objects"))
        .skip(1)
        .take_while(|l| !l.starts_with("**"))
        .filter_map(|l| l.trim().strip_prefix("- "))
        .map(|l| l.split('(').next().unwrap_or(l).trim())
        .collect()
}

impl Harness for TimeArenaHarness {
    fn recognises(&self, run: &Path) -> bool {
        json_files(run).iter().any(|p| {
            makespan_model::input::read_text(p)
                .ok()
                .and_then(|t| serde_json::from_str::<Value>(&t).ok())
                .is_some_and(|v| is_trajectory(&v))
        })
    }

    fn score_name(&self) -> &'static str {
        "progress score"
    }

    fn run_form(&self) -> &'static str {
        "a folder of TimeArena trajectories (LLM_test.py --save_path)"
    }

    fn read(&self, run: &Path, data: &Path) -> Result<Vec<Entry>, LoadError> {
        let checkout = super::Checkout::open(data)?;
        let by_description: HashMap<&str, &Task> = checkout
            .tasks
            .iter()
            .map(|t| (t.description.trim(), t))
            .collect();
        let mut built: HashMap<String, Instance> = HashMap::new();
        let mut entries = Vec::new();
        for path in json_files(run) {
            let key = path
                .file_stem()
                .map_or(String::new(), |s| s.to_string_lossy().into_owned());
            let text = match makespan_model::input::read_text(&path) {
                Ok(t) => t,
                Err(e) => {
                    entries.push(Entry::error(key, e.to_string()));
                    continue;
                }
            };
            let value: Value = match serde_json::from_str(&text) {
                Ok(v) => v,
                Err(e) => {
                    entries.push(Entry::error(
                        key,
                        format!("the trajectory cannot be read (truncated?): {e}"),
                    ));
                    continue;
                }
            };
            if !is_trajectory(&value) {
                entries.push(Entry::error(
                    key,
                    "not an LLM_test.py trajectory: expected [instruction, record, …]",
                ));
                continue;
            }
            let instruction = value[0].as_str().unwrap_or_default();
            let mut run_tasks = Vec::new();
            let mut unknown = Vec::new();
            for d in descriptions(instruction) {
                match by_description.get(d) {
                    Some(t) => run_tasks.push(*t),
                    None => unknown.push(d),
                }
            }
            if !unknown.is_empty() || run_tasks.is_empty() {
                entries.push(Entry::error(
                    key,
                    format!(
                        "a trajectory of a task this checkout does not have (description {:?})",
                        unknown.first().copied().unwrap_or("none")
                    ),
                ));
                continue;
            }
            if run_tasks
                .iter()
                .any(|t| t.scenario != run_tasks[0].scenario)
            {
                entries.push(Entry::error(
                    key,
                    "the instruction mixes scenarios; TimeArena combines tasks of one scenario",
                ));
                continue;
            }
            let objects = listed_objects(instruction);
            let mut pools: HashMap<&str, u32> = HashMap::new();
            for t in &run_tasks {
                for (kind, n) in &t.pools {
                    *pools.entry(kind.as_str()).or_default() += n;
                }
            }
            let constraint = pools
                .iter()
                .any(|(kind, n)| *n > 1 && objects.contains(kind));
            let name = super::combine::run_name(&run_tasks, constraint);
            let instance = built.entry(name).or_insert_with(|| {
                super::combine::build(
                    Some(checkout.source.display().to_string()),
                    &run_tasks,
                    constraint,
                    checkout.graph.as_ref(),
                )
            });
            entries.push(Entry {
                scored: score(instance, &path, &text, &value),
                key,
            });
        }
        Ok(entries)
    }

    fn headline(&self, rows: &[Row], entries: &[Entry]) -> Headline {
        let scored: Vec<&Scored> = rows
            .iter()
            .zip(entries)
            .filter_map(|(_, e)| e.scored.as_ref().ok())
            .collect();
        let strict: Vec<RunMetrics> = scored
            .iter()
            .filter_map(|s| serde_json::from_value(s.extra["metrics"].clone()).ok())
            .collect();
        let corrected = aggregate(&strict);
        // cal_metric.py: per trajectory the minute-keyed progress scores; None if it crashes.
        let series: Option<Vec<Vec<f64>>> = scored
            .iter()
            .map(|s| serde_json::from_value(s.extra["cal_metric"].clone()).ok())
            .collect();
        let original = series.filter(|s| !s.is_empty()).map(|s| cal_metric(&s));
        let pick = |k: usize| original.as_ref().map(|o: &[f64; 4]| o[k]);
        let n = scored.len().max(1) as f64;
        let any = !scored.is_empty();
        Headline {
            metrics: vec![
                Metric {
                    name: "AS".into(),
                    about: "average progress score".into(),
                    original: pick(0),
                    corrected: any.then_some(corrected.average_progress_score),
                },
                Metric {
                    name: "CS".into(),
                    about: "completion speed, score per minute (original: per logged record)".into(),
                    original: pick(1),
                    corrected: any.then_some(corrected.completion_speed),
                },
                Metric {
                    name: "CR".into(),
                    about: "completion rate, %".into(),
                    original: pick(2),
                    corrected: any.then(|| 100.0 * strict.iter().filter(|m| m.completed).count() as f64 / n),
                },
                Metric {
                    name: "CT".into(),
                    about: "average completion time of completed runs, minutes (original: record index)".into(),
                    original: pick(3),
                    corrected: corrected.average_completion_time,
                },
            ],
        }
    }
}

/// `metrics/cal_metric.py` over the per-trajectory value lists: AS, CS, CR, CT.
fn cal_metric(series: &[Vec<f64>]) -> [f64; 4] {
    let last = |s: &Vec<f64>| s.last().copied().unwrap_or(0.0);
    let first = |s: &Vec<f64>, v: f64| {
        s.iter()
            .position(|x| *x == v)
            .map_or(0.0, |i| i as f64 + 1.0)
    };
    let sum_last: f64 = series.iter().map(last).sum();
    let sum_t: f64 = series.iter().map(|s| first(s, last(s))).sum();
    let complete: Vec<&Vec<f64>> = series.iter().filter(|s| last(s) == 100.0).collect();
    [
        mean(series.iter().map(last)).unwrap_or(0.0),
        if sum_t > 0.0 { sum_last / sum_t } else { 0.0 },
        100.0 * complete.len() as f64 / series.len() as f64,
        mean(complete.iter().map(|s| first(s, 100.0))).unwrap_or(0.0),
    ]
}

/// The minute-keyed progress scores `cal_metric.py` builds from a trajectory, in the order
/// a Python dict keeps them; `None` where it raises (a `time` record without a score).
fn cal_metric_series(records: &[Value]) -> Option<Vec<f64>> {
    let mut order: Vec<i64> = Vec::new();
    let mut values: HashMap<i64, f64> = HashMap::new();
    for record in records.iter().filter(|r| r.is_object()) {
        let Some(time) = record.get("time").and_then(Value::as_i64) else {
            continue;
        };
        let score = record.get("progress score")?.as_f64()?;
        if values.insert(time, score).is_none() {
            order.push(time);
        }
    }
    Some(order.iter().map(|t| values[t]).collect())
}

fn score(instance: &Instance, path: &Path, text: &str, value: &Value) -> Result<Scored, String> {
    let log = read_decisions(path, text).map_err(|e| e.to_string())?;
    let verdict = verify_decisions(instance, &log);
    let report = verdict.report;
    let original_valid = log.final_record.map(|(_, _, done)| done);
    let difference = match original_valid {
        Some(o) if o != report.valid => Some(reason(o, &report)),
        _ => None,
    };
    let records = value.as_array().map(Vec::as_slice).unwrap_or_default();
    Ok(Scored {
        instance: instance.clone(),
        original_valid,
        original_score: log.final_record.map(|(_, score, _)| score as f64),
        corrected_score: Some(verdict.metrics.progress_score as f64),
        difference,
        notes: verdict.warnings,
        extra: json!({ "metrics": verdict.metrics, "cal_metric": cal_metric_series(records) }),
        report,
        schedule: verdict.schedule,
    })
}

/// Why the environment's `isCompleted` differs from the strict verdict.
fn reason(original: bool, report: &Report) -> String {
    if !original {
        return "the environment did not complete the run (time or invalid-action limit, or its container restriction), yet every action is done by the intended rules".into();
    }
    if report
        .violations
        .iter()
        .any(|v| v.rule == Rule::UnknownActivity)
    {
        format!(
            "the environment accepts another task's container where the intended rules do not: {}",
            rule_counts(report)
        )
    } else {
        format!(
            "the environment completed a run that breaks: {}",
            rule_counts(report)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cal_metric_reports_cr_and_ct_zero_on_a_complete_trajectory() {
        // The last logged score is below 100: the final 100 is only in the final record.
        let series = vec![vec![0.0, 30.0, 61.0, 61.0]];
        let [as_, cs, cr, ct] = cal_metric(&series);
        assert_eq!((as_, cr, ct), (61.0, 0.0, 0.0));
        assert!((cs - 61.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn a_thinking_record_crashes_cal_metric() {
        let records = vec![
            json!({"time": 0, "progress score": 0}),
            json!({"time": 1, "thinking": "…"}),
        ];
        assert!(cal_metric_series(&records).is_none());
        let later = vec![
            json!({"time": 0, "progress score": 0}),
            json!({"time": 0, "progress score": 5}),
        ];
        assert_eq!(cal_metric_series(&later), Some(vec![5.0]));
    }
}
