//! An agent's run against a world instance: its actions (one string per line, a JSON list
//! of strings, or the log an upstream agent writes) replayed in the simulator step by step,
//! and the schedule replay that the facade's `verify` of a world solution uses.
//!
//! Logs: the IO, IO-CoT and ReAct agents write a `ACTION PROPOSAL RESPONSE` block per
//! response; its actions are the lines after `Plan:` (IO: a whole plan) or the line after
//! `Action:` (IO-CoT, ReAct: one action), as the agents read them.

use std::path::Path;

use makespan_model::instance::{Instance, LoadError};
use makespan_model::schedule::ScheduledActivity;
use makespan_model::solution::{Solution, Status};
use makespan_verify::{Report, Rule, Violation};
use serde_json::json;

use super::replay::{replay_texts, StepOutcome, WorldReplay};
use super::{kitchen_of, upstream_budget, Kitchen};
use crate::robotouille::checkout::WorldNote;
use crate::{Answer, NativeJson, VerifiedAnswer};

/// The action strings of an answer: a JSON list, an agent's log, or one per line.
pub fn read_texts(path: &Path, text: &str) -> Result<Vec<String>, LoadError> {
    if text.trim_start().starts_with('[') {
        return serde_json::from_str(text).map_err(|e| {
            let mut err = LoadError::json_in(path, text, &e);
            if let LoadError::Json { message, .. } = &mut err {
                message.push_str("; expected a JSON list of action strings such as \"Move robot1 from table1 to stove1\"");
            }
            err
        });
    }
    if text.contains("ACTION PROPOSAL RESPONSE") {
        return Ok(log_actions(text));
    }
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect())
}

/// The actions of an upstream agent's log, in order.
fn log_actions(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let header = |k: usize| {
        let l = lines[k].trim();
        !l.is_empty()
            && l.chars().all(|c| c.is_ascii_uppercase() || c == ' ')
            && lines
                .get(k + 1)
                .is_some_and(|n| n.trim().len() >= 5 && n.trim().chars().all(|c| c == '-'))
    };
    let mut out = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        if !(header(k) && lines[k].trim() == "ACTION PROPOSAL RESPONSE") {
            k += 1;
            continue;
        }
        let start = k + 2;
        let mut end = start;
        while end < lines.len() && !header(end) {
            end += 1;
        }
        let block = &lines[start..end];
        if let Some(p) = block
            .iter()
            .position(|l| l.trim_start().starts_with("Plan:"))
        {
            let first = block[p].trim_start().trim_start_matches("Plan:").trim();
            out.extend(
                std::iter::once(first)
                    .chain(block[p + 1..].iter().map(|l| l.trim()))
                    .filter(|l| !l.is_empty())
                    .map(String::from),
            );
        } else if let Some(a) = block.iter().find(|l| l.starts_with("Action:")) {
            out.push(a.trim_start_matches("Action:").trim().to_string());
        }
        k = end;
    }
    out
}

/// The verifier's report on a replay: every refused step, the goal, the steps used.
pub fn report_of(instance: &str, replay: &WorldReplay, starts: &[i64]) -> Report {
    let mut violations = Vec::new();
    for (n, (text, outcome)) in replay.lines.iter().enumerate() {
        if let StepOutcome::Invalid { reason } = outcome {
            violations.push(Violation::new(
                Rule::PreconditionFailed,
                vec![text.clone()],
                starts.get(n).copied().or(Some(n as i64)),
                format!("line {}: \"{text}\" is refused: {reason}", n + 1),
                "take a valid action instead (the refused one is neither executed nor counted)"
                    .into(),
            ));
        }
    }
    if replay.goal_step.is_none() {
        violations.push(Violation::new(
            Rule::GoalNotReached,
            Vec::new(),
            Some(replay.executed as i64),
            format!(
                "the goal does not hold after the {} executed step(s)",
                replay.executed
            ),
            "finish the recipe: every literal of the goal must hold at the end".into(),
        ));
    }
    let makespan = replay.goal_step.unwrap_or(replay.executed) as i64;
    Report {
        instance: instance.to_string(),
        valid: violations.is_empty(),
        violations,
        makespan: Some(makespan),
        busy_time: makespan,
        agent_idle_time: Some(0),
        peak_agents: u32::from(makespan > 0),
    }
}

/// The plan's action strings in order of their start, with their starts.
pub fn plan_texts(plan: &[ScheduledActivity]) -> (Vec<String>, Vec<i64>) {
    let mut order: Vec<&ScheduledActivity> = plan.iter().collect();
    order.sort_by_key(|a| a.pieces.first().map_or(0, |p| p.0));
    order
        .into_iter()
        .map(|a| (a.activity.clone(), a.pieces.first().map_or(0, |p| p.0)))
        .unzip()
}

/// The schedule of executed actions: the `n`-th executed action at `[n − 1, n)`.
pub fn step_schedule(k: &Kitchen, replay: &WorldReplay) -> Vec<ScheduledActivity> {
    let robot = |text: &str| {
        k.robots
            .iter()
            .position(|r| text.split_whitespace().any(|w| w == r))
            .map(|p| p as u32)
    };
    replay
        .lines
        .iter()
        .filter_map(|(text, outcome)| match outcome {
            StepOutcome::Executed { step } => Some(ScheduledActivity::at(
                text.clone(),
                robot(text),
                *step as i64 - 1,
                1,
            )),
            _ => None,
        })
        .collect()
}

/// Verifies an answer to a world instance.
pub fn verify_answer(
    answer: &Answer<'_>,
    instance: &Instance,
) -> Result<VerifiedAnswer, LoadError> {
    let kitchen = kitchen_of(instance)
        .unwrap_or_else(|| Err("not a world instance".into()))
        .map_err(|e| {
            LoadError::usage(answer.path, format!("instance \"{}\": {e}", instance.name))
        })?;
    let texts = read_texts(answer.path, answer.text)?;
    let replay = replay_texts(&kitchen, &texts);
    let report = report_of(&instance.name, &replay, &[]);
    let optimum = match answer.reference {
        Some(path) => Some(reference(path, instance)?),
        None => None,
    };
    // The task's hard-coded step count, as the checkout's experiment configs give it.
    let upstream = WorldNote::of(instance)
        .and_then(Result::ok)
        .and_then(|note| note.reference_optimal_steps);
    let invalid = replay
        .lines
        .iter()
        .filter(|(_, o)| matches!(o, StepOutcome::Invalid { .. }))
        .count();
    let mut text = format!(
        "{}: {} line(s), {} executed, {invalid} refused (not counted); {}\n",
        answer.path.display(),
        replay.lines.len(),
        replay.executed,
        match replay.goal_step {
            Some(n) => format!("goal reached at step {n}"),
            None => "goal not reached".into(),
        }
    );
    for (n, (line, outcome)) in replay.lines.iter().enumerate() {
        match outcome {
            StepOutcome::Executed { step } => {
                text += &format!("  {:>3}  step {step:>3}  {line}\n", n + 1)
            }
            StepOutcome::Invalid { reason } => {
                text += &format!("  {:>3}  refused   {line}: {reason}\n", n + 1)
            }
            StepOutcome::AfterGoal => {
                text += &format!("  {:>3}  not run   {line} (after the goal)\n", n + 1)
            }
        }
    }
    if let Some(opt) = upstream {
        let budget = upstream_budget(opt);
        let within = replay.goal_step.is_some_and(|g| g as i64 <= budget);
        text += &format!(
            "upstream's budget: {budget} step(s) (1.5 × its hard-coded {opt}); upstream would score this run {}\n",
            if within { "done" } else { "not done" }
        );
    }
    if let Some((opt, status)) = optimum {
        let what = if status == Status::Optimal {
            "optimum"
        } else {
            "best known plan"
        };
        match replay.goal_step {
            Some(g) if opt > 0 => {
                text += &format!(
                    "{what}: {opt} step(s); ratio {:.4}\n",
                    g as f64 / opt as f64
                )
            }
            _ => text += &format!("{what}: {opt} step(s); no ratio (the goal is not reached)\n"),
        }
    }
    let json = json!({
        "lines": replay.lines.iter().map(|(t, o)| json!({"action": t, "result": o})).collect::<Vec<_>>(),
        "executed": replay.executed,
        "goal_step": replay.goal_step,
        "upstream_optimal_steps": upstream,
        "upstream_budget": upstream.map(upstream_budget),
        "optimum": optimum.map(|o| o.0),
        "ratio": optimum.and_then(|(o, _)| replay.goal_step.filter(|_| o > 0).map(|g| g as f64 / o as f64)),
    });
    Ok(VerifiedAnswer {
        schedule: step_schedule(&kitchen, &replay),
        report,
        text,
        json: NativeJson::Extra("robotouille", json),
        compared: optimum.is_some(),
        run: None,
    })
}

/// The length and status of a reference solution of the same world instance, its plan
/// replayed in the simulator first.
fn reference(path: &Path, instance: &Instance) -> Result<(i64, Status), LoadError> {
    let solution = Solution::read(path)?;
    let theirs = &solution.instance.instance;
    let same = |i: &Instance| {
        i.source
            .as_ref()
            .and_then(|s| s.notes.get(crate::WORLD_NOTE))
            .cloned()
    };
    if same(theirs).is_none() || same(theirs) != same(instance) {
        return Err(LoadError::usage(
            path,
            format!(
                "the solution is for instance \"{}\", not for the kitchen of \"{}\"",
                solution.instance.name, instance.name
            ),
        ));
    }
    let kitchen = kitchen_of(instance)
        .unwrap_or_else(|| Err("not a world instance".into()))
        .map_err(|e| LoadError::usage(path, e))?;
    let (texts, _) = plan_texts(&solution.schedule);
    let replay = replay_texts(&kitchen, &texts);
    match replay.goal_step {
        Some(g)
            if replay
                .lines
                .iter()
                .all(|(_, o)| matches!(o, StepOutcome::Executed { .. })) =>
        {
            Ok((g as i64, solution.status))
        }
        _ => Err(LoadError::usage(
            path,
            "not a trustworthy reference: its plan does not replay to the goal in the simulator",
        )),
    }
}
