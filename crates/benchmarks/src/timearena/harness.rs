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
                        format!(
                            "the trajectory cannot be read: {}",
                            LoadError::json_in(&path, &text, &e)
                        ),
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
        let metrics_of = |s: &Scored| -> Option<RunMetrics> {
            serde_json::from_value(s.extra["metrics"].clone()).ok()
        };
        let strict: Vec<RunMetrics> = scored.iter().filter_map(|s| metrics_of(s)).collect();
        let corrected = aggregate(&strict);
        // The fair figures: the runs the original environment can complete at all.
        let finishable: Vec<RunMetrics> = scored
            .iter()
            .filter(|s| s.unfinishable.is_none())
            .filter_map(|s| metrics_of(s))
            .collect();
        let fair = (finishable.len() < strict.len()).then(|| aggregate(&finishable));
        // cal_metric.py: per trajectory the minute-keyed progress scores; None if it crashes.
        let series: Option<Vec<Vec<f64>>> = scored
            .iter()
            .map(|s| serde_json::from_value(s.extra["cal_metric"].clone()).ok())
            .collect();
        let crashed = series.is_none() && !scored.is_empty();
        let original = series.filter(|s| !s.is_empty()).map(|s| cal_metric(&s));
        let pick = |k: usize| original.as_ref().map(|o: &[f64; 4]| o[k]);
        let rate = |runs: &[RunMetrics]| {
            (!runs.is_empty()).then(|| {
                100.0 * runs.iter().filter(|m| m.completed).count() as f64 / runs.len() as f64
            })
        };
        let any = !scored.is_empty();
        let crash_note = crashed.then(|| {
            "cal_metric.py stops with a KeyError on these trajectories (a record with a time but no progress score, as ReAct, Reflexion and SelfPlan runs write them): it prints nothing".to_string()
        });
        // cal_metric.py reads T as the index of the first record holding the final score and
        // counts a run complete only if a logged record reaches 100: the final record, where the
        // environment reports completion, is not among them.
        // cal_metric.py reads only the records that carry a time: the environment's final
        // record, with the final score and the completion, is not among them.
        let completed = scored
            .iter()
            .filter(|s| s.original_valid == Some(true))
            .count();
        let finals: Option<Vec<f64>> = scored.iter().map(|s| s.original_score).collect();
        let meant = [
            finals.and_then(mean),
            None,
            (!scored.is_empty()).then(|| 100.0 * completed as f64 / scored.len() as f64),
            None,
        ];
        let off_by_one = |k: usize| {
            const WHY: &str = "cal_metric.py reads only the records that carry a time, and the environment's final record (the final score, and whether the run is complete) has none";
            match (pick(k), meant[k]) {
                (Some(printed), Some(value)) if (printed - value).abs() > 1e-9 => {
                    Some(format!("{WHY}; counting it, it would print {value:.2}"))
                }
                (Some(0.0), None) if completed > 0 => {
                    Some(format!("{WHY}, so no run counts as complete"))
                }
                _ => None,
            }
        };
        let metric =
            |name: &str, about: &str, k: usize, corrected: Option<f64>, fair: Option<f64>| Metric {
                fair,
                note: crash_note.clone().or_else(|| off_by_one(k)),
                ..Metric::new(name, about, pick(k), corrected)
            };
        Headline {
            metrics: vec![
                metric(
                    "AS",
                    "average progress score",
                    0,
                    any.then_some(corrected.average_progress_score),
                    fair.as_ref().map(|f| f.average_progress_score),
                ),
                metric(
                    "CS",
                    "completion speed, score per minute (original: per logged record)",
                    1,
                    any.then_some(corrected.completion_speed),
                    fair.as_ref().map(|f| f.completion_speed),
                ),
                metric(
                    "CR",
                    "completion rate, %",
                    2,
                    rate(&strict),
                    fair.as_ref().and(rate(&finishable)),
                ),
                metric(
                    "CT",
                    "average completion time of completed runs, minutes (original: record index)",
                    3,
                    corrected.average_completion_time,
                    fair.as_ref().and_then(|f| f.average_completion_time),
                ),
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
    let unfinishable = unfinishable(instance);
    let difference = match original_valid {
        Some(o) if o != report.valid => Some(reason(o, &report, unfinishable.as_deref())),
        _ => None,
    };
    let records = value.as_array().map(Vec::as_slice).unwrap_or_default();
    // A stricter check takes progress away, never adds it: an invalid run keeps at most the
    // environment's own final score.
    let mut metrics = verdict.metrics;
    if let (false, Some((_, original, _))) = (report.valid, log.final_record) {
        let capped = metrics.progress_score.min(original);
        if capped < metrics.progress_score {
            metrics.progress_score = capped;
            metrics.completion_speed = if metrics.completion_time > 0 {
                capped as f64 / metrics.completion_time as f64
            } else {
                0.0
            };
        }
    }
    Ok(Scored {
        instance: instance.clone(),
        original_valid,
        original_score: log.final_record.map(|(_, score, _)| score as f64),
        corrected_score: Some(metrics.progress_score as f64),
        difference,
        notes: verdict.warnings,
        unfinishable,
        extra: json!({ "metrics": metrics, "cal_metric": cal_metric_series(records) }),
        report,
        schedule: verdict.schedule,
    })
}

/// Why the original environment cannot complete this run whatever the answer: its container
/// restriction rejects some action with every container (the instance's note).
pub(super) fn unfinishable(instance: &Instance) -> Option<String> {
    let actions: Vec<String> = instance
        .source
        .as_ref()?
        .notes
        .get("environment_unfinishable")?
        .as_array()?
        .iter()
        .filter_map(|a| Some(format!("`{}`", a.as_str()?)))
        .collect();
    (!actions.is_empty()).then(|| {
        format!(
            "the original environment cannot complete this run whatever the answer: its container restriction (built only from the objects renamed in the run) rejects {} with every container",
            actions.join(", ")
        )
    })
}

/// Why the environment's `isCompleted` differs from the strict verdict.
fn reason(original: bool, report: &Report, unfinishable: Option<&str>) -> String {
    if let (false, Some(why)) = (original, unfinishable) {
        return format!("every action is done by the intended rules, but {why}");
    }
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
    use makespan_model::instance::Source;

    /// A scored run: one task of `minutes`, the environment's final score and completion, the
    /// strict progress, and the actions the environment rejects with every container.
    fn run(minutes: i64, original: (i64, bool), strict: i64, rejected: &[&str]) -> (Row, Entry) {
        let mut instance = makespan_model::instance::Instance::new("run", Some(1));
        instance.activities = vec![makespan_model::instance::Activity::new("a", minutes)];
        let mut notes = std::collections::BTreeMap::new();
        if !rejected.is_empty() {
            notes.insert("environment_unfinishable".into(), json!(rejected));
        }
        instance.source = Some(Source {
            benchmark: "timearena".into(),
            file: None,
            notes,
        });
        let report = makespan_verify::verify(&instance, &[]);
        let metrics = RunMetrics {
            progress_score: strict,
            completion_time: minutes,
            completion_speed: strict as f64 / minutes as f64,
            completed: strict == 100,
        };
        let scored = Scored {
            unfinishable: unfinishable(&instance),
            instance,
            report,
            schedule: Vec::new(),
            original_valid: Some(original.1),
            original_score: Some(original.0 as f64),
            corrected_score: Some(strict as f64),
            difference: None,
            notes: Vec::new(),
            // The last logged record is below the final score, as when the last action completes.
            extra: json!({"metrics": metrics, "cal_metric": [0.0, (original.0 as f64).min(61.0)]}),
        };
        let row = Row {
            unfinishable: scored.unfinishable.clone(),
            original_valid: scored.original_valid,
            ..Row::default()
        };
        (
            row,
            Entry {
                key: "run".into(),
                scored: Ok(scored),
            },
        )
    }

    #[test]
    fn the_fair_column_leaves_out_runs_the_environment_cannot_complete() {
        let (rows, entries): (Vec<Row>, Vec<Entry>) = [
            run(10, (100, true), 100, &[]),
            run(10, (40, false), 40, &["cook rice in pot"]),
        ]
        .into_iter()
        .unzip();
        let unfinishable = entries[1].scored.as_ref().unwrap().unfinishable.as_deref();
        assert!(unfinishable.unwrap().contains("`cook rice in pot`"));
        let headline = TimeArenaHarness.headline(&rows, &entries);
        let cr = headline.metrics.iter().find(|m| m.name == "CR").unwrap();
        assert_eq!((cr.corrected, cr.fair), (Some(50.0), Some(100.0)));
        // Without such a run there is no fair figure.
        let headline = TimeArenaHarness.headline(&rows[..1], &entries[..1]);
        assert!(headline.metrics.iter().all(|m| m.fair.is_none()));
    }

    #[test]
    fn cal_metric_misses_the_final_record_and_the_note_gives_the_meant_value() {
        let (rows, entries): (Vec<Row>, Vec<Entry>) =
            [run(10, (100, true), 100, &[])].into_iter().unzip();
        let headline = TimeArenaHarness.headline(&rows, &entries);
        let cr = headline.metrics.iter().find(|m| m.name == "CR").unwrap();
        assert_eq!(cr.original, Some(0.0));
        assert!(
            cr.note
                .as_deref()
                .unwrap()
                .contains("it would print 100.00"),
            "{cr:?}"
        );
    }

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
