//! Recipe2Plan's harness output: one log per recipe pair,
//! `<R1>_<R2>.json`, in a folder `logs/<model>/<level>/<agent>/<domain>/`. A plan-and-solve log
//! is an object whose `response` is the model's raw text, with the metrics the harness (or
//! `result_summarizer.py`, which rewrites them) computed: `complete`, `progress_rate`,
//! `complete_speed`. A ReAct log is a list of turns, each with its `response`.
//!
//! The level (`easy`, `medium`) is read from the folder names, as `result_summarizer.py` does;
//! the instance from `data/cooking.json` of the checkout, the heuristic reference plans from
//! `data/plan.json` beside it. The answer is the text after the last `</think>`; for a ReAct
//! turn, up to its second `Action: `, and a turn whose feedback is not a success is dropped
//! (the environment rejected its actions). The original's verdict and scores are what
//! `result_summarizer.py` computes, replayed from the log's text ([`super::original`]): the
//! metrics a log stores are the agent's own until the summarizer rewrites them, so they are
//! never read. The corrected ones come from the strict check.

use std::collections::HashMap;
use std::path::Path;

use serde_json::{json, Value};

use super::original::{self, Log, RawRecipe, Summary};
use super::steps::{final_answer, parse_steps, verify_steps, StepPlan, ORIGINAL_LETS_THROUGH};
use super::{key_and_level, read_baseline, BaselinePlans, Level, PlanAction};
use crate::harness::{
    find_in_checkout, json_files, mean, rule_counts, Entry, Harness, Headline, Metric, Row, Scope,
    Scored,
};
use crate::ImportOptions;
use makespan_model::instance::{Instance, LoadError};
use makespan_verify::Rule;

/// The Recipe2Plan harness.
pub struct Recipe2PlanHarness;

/// Where a checkout keeps `cooking.json`.
const COOKING: [&str; 3] = [
    "data/cooking.json",
    "cooking.json",
    "recipe2plan/cooking.json",
];

/// A log's key, `<R1>_<R2>`, from its file name.
fn log_key(path: &Path) -> Option<String> {
    let stem = path.file_stem()?.to_str()?;
    stem.contains('_').then(|| stem.to_string())
}

/// The level named by a folder of the run's path.
fn level_of(run: &Path) -> Option<Level> {
    let full = run.canonicalize().unwrap_or_else(|_| run.to_path_buf());
    full.components()
        .rev()
        .filter_map(|c| c.as_os_str().to_str())
        .find_map(|c| Level::parse(c).ok())
}

fn is_log(value: &Value) -> bool {
    match value {
        Value::Object(map) => map.contains_key("response"),
        Value::Array(turns) => {
            !turns.is_empty() && turns.iter().all(|t| t.get("response").is_some())
        }
        _ => false,
    }
}

impl Harness for Recipe2PlanHarness {
    fn recognises(&self, run: &Path) -> bool {
        json_files(run).iter().any(|p| {
            log_key(p).is_some()
                && makespan_model::input::read_text(p)
                    .ok()
                    .and_then(|t| serde_json::from_str::<Value>(&t).ok())
                    .is_some_and(|v| is_log(&v))
        })
    }

    fn score_name(&self) -> &'static str {
        "relative efficiency"
    }

    fn run_form(&self) -> &'static str {
        "a folder of Recipe2Plan logs (<Recipe1>_<Recipe2>.json)"
    }

    fn read(&self, run: &Path, data: &Path) -> Result<Vec<Entry>, LoadError> {
        let level = level_of(run).ok_or_else(|| {
            LoadError::usage(run, "the level is not in the run's path: Recipe2Plan logs live in logs/<model>/<easy|medium>/<agent>/<domain>/")
        })?;
        let cooking = find_in_checkout(data, &COOKING, "Recipe2Plan data/cooking.json")?;
        let opts = ImportOptions::default()
            .with("level", &[level.name()])
            .map_err(|e| LoadError::usage(run, e.0))?;
        let instances: HashMap<String, Instance> = crate::import(&cooking, &opts)?
            .into_iter()
            .filter_map(|i| Some((key_and_level(&i)?.0, i)))
            .collect();
        let recipes: HashMap<String, Vec<RawRecipe>> = {
            let text = makespan_model::input::read_text(&cooking)?;
            let pairs: Vec<Vec<RawRecipe>> =
                serde_json::from_str(&text).map_err(|e| LoadError::json_in(&cooking, &text, &e))?;
            pairs
                .into_iter()
                .map(|pair| (original::pair_key(&pair), pair))
                .collect()
        };
        // The summarizer reads `plan.json` beside `cooking.json`; without it, it stops.
        let plan_file = cooking.with_file_name("plan.json");
        let plans: Option<BaselinePlans> = if plan_file.exists() {
            Some(read_baseline(&plan_file)?)
        } else {
            None
        };
        let mut entries = Vec::new();
        for path in json_files(run) {
            let file = path
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned());
            let Some(key) = log_key(&path) else {
                entries.push(Entry::error(
                    file,
                    "the log's name is not <Recipe1>_<Recipe2>.json",
                ));
                continue;
            };
            let (Some(instance), Some(pair)) = (instances.get(&key), recipes.get(&key)) else {
                entries.push(Entry::error(
                    key,
                    format!("{} has no recipe pair of this name", cooking.display()),
                ));
                continue;
            };
            let value = match makespan_model::input::read_text(&path).and_then(|t| {
                serde_json::from_str::<Value>(&t).map_err(|e| LoadError::json_in(&path, &t, &e))
            }) {
                Ok(v) if is_log(&v) => v,
                Ok(_) => {
                    entries.push(Entry::error(key, "not a Recipe2Plan log: expected an object with \"response\" (plan-and-solve) or a list of turns with \"response\" (ReAct)"));
                    continue;
                }
                Err(why) => {
                    entries.push(Entry::error(key, format!("the log cannot be read: {why}")));
                    continue;
                }
            };
            let reference = plans
                .as_ref()
                .and_then(|p| p.get(&(key.clone(), level)))
                .map(|plan| plan.as_deref());
            entries.push(Entry {
                scored: Ok(score(instance, pair, reference, level, &value)),
                key,
            });
        }
        Ok(entries)
    }

    /// Every recipe pair of the checkout's `cooking.json`: an agent that crashed on a pair
    /// leaves no log of it.
    fn scope(&self, _run: &Path, data: &Path, _entries: &[Entry]) -> Option<Scope> {
        let cooking = find_in_checkout(data, &COOKING, "Recipe2Plan data/cooking.json").ok()?;
        let text = makespan_model::input::read_text(&cooking).ok()?;
        let pairs: Vec<Vec<RawRecipe>> = serde_json::from_str(&text).ok()?;
        Some(Scope {
            keys: pairs.iter().map(|pair| original::pair_key(pair)).collect(),
            success_metric: "pass",
            about: "the recipe pairs of the checkout's cooking.json".into(),
        })
    }

    fn headline(&self, rows: &[Row], entries: &[Entry]) -> Headline {
        let scored: Vec<(&Row, &Scored)> = rows
            .iter()
            .zip(entries)
            .filter_map(|(r, e)| Some((r, e.scored.as_ref().ok()?)))
            .collect();
        let pct = |v: Option<f64>| v.map(|x| 100.0 * x);
        let original = |f: &dyn Fn(&Row, &Scored) -> Option<f64>| -> Option<f64> {
            let values: Option<Vec<f64>> = scored.iter().map(|(r, s)| f(r, s)).collect();
            pct(values.and_then(mean))
        };
        let corrected =
            |f: &dyn Fn(&Row, &Scored) -> f64| pct(mean(scored.iter().map(|(r, s)| f(r, s))));
        let progress = |s: &Scored, k: &str| s.extra[k].as_f64();
        let valid = |r: &Row| r.valid == Some(true);
        let flag = |b: bool| if b { 1.0 } else { 0.0 };
        // The summarizer stops at a recipe pair plan.json lacks: it prints nothing then.
        let no_plan = scored
            .iter()
            .find(|(r, s)| r.original_score.is_none() && s.original_valid.is_some())
            .map(|(r, _)| {
                format!("result_summarizer.py stops with a KeyError: data/plan.json (beside cooking.json) has no plan for {}, so it prints nothing for this run (pass and progress shown as it computes them)", r.key)
            });
        Headline {
            metrics: vec![
                Metric {
                    name: "pass".into(),
                    about: "pass rate, % of recipe pairs with every step done".into(),
                    original: original(&|r, _| r.original_valid.map(flag)),
                    corrected: corrected(&|r, _| flag(valid(r))),
                    fair: None,
                    note: no_plan.clone(),
                },
                Metric {
                    name: "progress".into(),
                    about: "mean progress, %".into(),
                    original: original(&|_, s| progress(s, "original_progress")),
                    corrected: corrected(&|_, s| progress(s, "progress").unwrap_or(0.0)),
                    fair: None,
                    note: no_plan.clone(),
                },
                Metric {
                    name: "speed".into(),
                    about: "completion speed: mean relative efficiency against the heuristic, %"
                        .into(),
                    original: original(&|r, _| r.original_score),
                    corrected: corrected(&|r, _| r.corrected_score.unwrap_or(0.0)),
                    fair: None,
                    note: no_plan.clone(),
                },
                Metric {
                    name: "score".into(),
                    about: "multitasking score: mean relative efficiency of complete plans, %"
                        .into(),
                    original: original(&|r, s| {
                        Some(if progress(s, "original_progress")? >= 1.0 {
                            r.original_score?
                        } else {
                            0.0
                        })
                    }),
                    corrected: corrected(&|r, _| {
                        if valid(r) {
                            r.corrected_score.unwrap_or(0.0)
                        } else {
                            0.0
                        }
                    }),
                    fair: None,
                    note: no_plan.clone(),
                },
            ],
        }
    }
}

/// The answer text of a log: a plan-and-solve response, or the accepted ReAct turns.
fn answer(value: &Value) -> (StepPlan, Vec<String>) {
    let mut notes = Vec::new();
    match value {
        Value::Array(turns) => {
            let mut plan = StepPlan::default();
            for (t, turn) in turns.iter().enumerate() {
                let text = final_answer(turn["response"].as_str().unwrap_or_default());
                // The text up to the second `Action: ` is what the agent parses.
                let cut = text
                    .match_indices("Action: ")
                    .nth(1)
                    .map_or(text.len(), |(i, _)| i);
                let feedback = ["feedback", "observation", "msg"]
                    .iter()
                    .find_map(|k| turn.get(*k).and_then(Value::as_str));
                if feedback.is_some_and(|f| !f.contains("successfully")) {
                    notes.push(format!("turn {t}: the environment rejected it; its actions are not part of the plan"));
                    continue;
                }
                let part = parse_steps(&text[..cut]);
                plan.actions.extend(part.actions);
                plan.malformed.extend(part.malformed);
            }
            (plan, notes)
        }
        _ => (
            parse_steps(final_answer(value["response"].as_str().unwrap_or_default())),
            notes,
        ),
    }
}

fn score(
    instance: &Instance,
    recipes: &[RawRecipe],
    reference: Option<Option<&[PlanAction]>>,
    level: Level,
    value: &Value,
) -> Scored {
    let (plan, mut notes) = answer(value);
    let checked = verify_steps(instance, &plan, reference.flatten(), None);
    notes.extend(checked.notes.iter().cloned());
    let text = |v: &Value| v["response"].as_str().unwrap_or_default().to_string();
    let log_texts: Vec<String> = match value {
        Value::Array(turns) => turns.iter().map(text).collect(),
        _ => vec![text(value)],
    };
    let log = match value {
        Value::Array(_) => Log::React(log_texts.iter().map(String::as_str).collect()),
        _ => Log::PlanSolve(&log_texts[0]),
    };
    let summary = original::summarize(recipes, reference, level, &log);
    if let Err(why) = &summary {
        notes.push(format!(
            "result_summarizer.py cannot replay this log: {why}"
        ));
    }
    let summary = summary.ok();
    let report = checked.report;
    let original_valid = summary.as_ref().map(Summary::pass);
    let difference = match (original_valid, &summary) {
        (Some(o), Some(s)) if o != report.valid => Some(reason(
            o,
            s,
            matches!(value, Value::Array(_)) && thinks_in_steps(&log_texts),
            &report,
        )),
        _ => None,
    };
    let original_progress = summary.as_ref().map(|s| s.progress);
    Scored {
        instance: instance.clone(),
        original_valid,
        original_score: summary.as_ref().and_then(|s| s.complete_speed),
        corrected_score: Some(if report.valid {
            checked.metrics.relative_efficiency_heuristic.unwrap_or(0.0)
        } else {
            0.0
        }),
        difference,
        notes,
        unfinishable: None,
        extra: json!({
            "original_progress": original_progress,
            "progress": corrected_progress(report.valid, checked.metrics.progress, original_progress),
        }),
        report,
        schedule: checked.schedule,
    }
}

/// Corrected progress: a valid plan's strict progress (every step done); an invalid plan keeps
/// no more than the original gave it, and no more than the steps the strict check counts done,
/// so a stricter check never raises it.
fn corrected_progress(valid: bool, strict: f64, original: Option<f64>) -> f64 {
    match original {
        Some(o) if !valid => strict.min(o),
        _ => strict,
    }
}

/// Whether a ReAct turn has a `Step(` inside its `<think>` block: the summarizer runs each
/// turn's whole text, so it executes those as well.
fn thinks_in_steps(turns: &[String]) -> bool {
    turns.iter().any(|t| {
        t.rsplit_once("</think>")
            .is_some_and(|(thoughts, _)| thoughts.contains("Step("))
    })
}

/// Why the summarizer's pass differs from the strict verdict: where it stopped a valid plan,
/// or the faults it lets through, by the keys the violations end with
/// ([`ORIGINAL_LETS_THROUGH`]), else the rules.
fn reason(
    original: bool,
    summary: &Summary,
    thinks: bool,
    report: &makespan_verify::Report,
) -> String {
    if !original {
        let stop = summary
            .stopped
            .as_deref()
            .unwrap_or("it runs every action, yet some recipe is left incomplete");
        let think = if thinks {
            " (result_summarizer.py runs each ReAct turn's whole text, so it also executes the Step(...) actions written inside the <think> block)"
        } else {
            ""
        };
        return format!("the plan is valid, but result_summarizer.py does not count it as passed: {stop}{think}");
    }
    let mut faults: Vec<&str> = ORIGINAL_LETS_THROUGH
        .into_iter()
        .filter(|key| {
            let tag = format!("[{key}:");
            report.violations.iter().any(|v| v.message.contains(&tag))
        })
        .collect();
    let has = |rule: Rule| report.violations.iter().any(|v| v.rule == rule);
    if !has(Rule::MissingActivity) && (has(Rule::DuplicateActivity) || has(Rule::UnknownActivity)) {
        faults.push("error_after_complete (an error after every goal is complete still counts as a success)");
    }
    faults.sort();
    faults.dedup();
    if faults.is_empty() {
        format!(
            "the original counts as complete a plan that breaks: {}",
            rule_counts(report)
        )
    } else {
        format!(
            "the original lets through {}: {}",
            faults.join(", "),
            rule_counts(report)
        )
    }
}
