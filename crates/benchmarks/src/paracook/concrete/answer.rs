//! A model's answer to a concrete kitchen, as the harness takes it: a JSON object with one
//! action list per cook (`{"agent1": [...], ...}`, or the same under `"plan"`), in the raw
//! text of the response.
//!
//! Read two ways: strictly (standard JSON, thinking and text around one fenced block
//! ignored), which makespan judges, and as the harness's `extract_json` reads it (comments
//! cut, single quotes turned into double ones outside a ```` ```json ```` block), which the
//! benchmark scores; where they differ the report says how.

use std::path::Path;

use serde_json::{json, Value};

use super::kitchen::Kitchen;
use super::replay::{report, schedule_of, verdict, violations};
use super::sim::{Outcome, Plan};
use crate::answers::{malformed_answer, NativeJson, VerifiedAnswer};
use crate::paracook::lists::{original_value, read_strict_value};
use makespan_model::instance::{Instance, LoadError};

/// The plan the harness's `extract_json` reads from an answer, or why it reads none.
pub fn harness_plan(text: &str) -> Result<Plan, String> {
    let value = original_value(text)?;
    if !value.is_object() {
        return Err("the parsed value is not a JSON object of action lists".into());
    }
    Plan::from_json(&value)
}

/// The plan of an answer read strictly.
pub fn strict_plan(path: &Path, text: &str) -> Result<Plan, LoadError> {
    let value = read_strict_value(path, text)?;
    Plan::from_json(&value).map_err(|why| LoadError::format(path, "top level", why))
}

/// One replay as JSON: the verdict, times and per-cook times.
pub fn outcome_json(o: &Outcome) -> Value {
    json!({
        "done": o.done,
        "all_served": o.all_served,
        "oct": o.oct,
        "last_serve": o.last_serve,
        "served": o.served.iter().map(|(d, t)| json!({"dish": d, "time": t})).collect::<Vec<_>>(),
        "remaining": o.remaining,
        "agents": o.agents,
        "error": o.error,
        "warnings": o.warnings,
    })
}

fn outcome_lines(o: &Outcome) -> String {
    let mut out = format!(
        "{}: {}, OCT {}, last serve {}\n",
        o.mode.name(),
        if o.done { "done" } else { "not done" },
        o.oct,
        o.last_serve
            .map_or_else(|| "none".to_string(), |t| t.to_string()),
    );
    for a in &o.agents {
        out.push_str(&format!(
            "  {}: move {}, wait {}, process {}, execution {} ({}/{} actions)\n",
            a.name, a.moving, a.waiting, a.processing, a.execution, a.started, a.total
        ));
    }
    for w in &o.warnings {
        out.push_str(&format!("  warning at t = {}: {}\n", w.time, w.rule));
    }
    out
}

/// Verifies a concrete answer: both modes' verdicts, times and every violation.
pub fn verify_answer(
    instance: &Instance,
    kitchen: &Kitchen,
    path: &Path,
    text: &str,
) -> VerifiedAnswer {
    let strict = strict_plan(path, text);
    let harness = harness_plan(text);
    let note = match (&strict, &harness) {
        (Ok(a), Ok(b)) if a.to_json() == b.to_json() => None,
        (Err(_), Err(_)) => None,
        (Ok(_), Ok(b)) => Some(format!(
            "the harness's extract_json reads another plan from this text: {}",
            b.to_json()
        )),
        (Ok(_), Err(why)) => Some(format!(
            "the harness's extract_json cannot read this text ({why}): it records an error and retries"
        )),
        (Err(_), Ok(b)) => Some(format!(
            "the harness's extract_json accepts this text (comments or single quotes, which strict JSON refuses) and reads {}",
            b.to_json()
        )),
    };
    let plan = match strict {
        Ok(plan) => plan,
        Err(e) => {
            let mut check = malformed_answer(instance, &e);
            if let Some(note) = note {
                check.text = format!("note: {note}\n");
            }
            return check;
        }
    };
    let v = verdict(kitchen, &plan);
    let mut text = String::new();
    if let Some(note) = &note {
        text.push_str(&format!("note: {note}\n"));
    }
    text.push_str(&outcome_lines(&v.replica));
    text.push_str(&outcome_lines(&v.intended));
    let listed: Vec<Value> = violations(&v)
        .into_iter()
        .map(|(x, replica, intended)| {
            json!({
                "agent": x.agent,
                "index": x.index,
                "time": x.time,
                "rule": x.rule,
                "class": x.class,
                "replica": replica,
                "intended": intended,
            })
        })
        .collect();
    let json = json!({
        "replica": outcome_json(&v.replica),
        "intended": outcome_json(&v.intended),
        "violations": listed,
        "harness_reading": note,
    });
    VerifiedAnswer {
        schedule: schedule_of(&plan, &v.replica),
        report: report(&instance.name, kitchen, &plan),
        text,
        json: NativeJson::Extra("paracook", json.clone()),
        compared: false,
        run: Some(json),
    }
}
