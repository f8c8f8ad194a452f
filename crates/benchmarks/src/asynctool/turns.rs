//! Turn lists (AsyncTool): for each assistant round (1-based), the
//! tool calls issued in it, as activity ids (`"c1-2"` = call 2 of subtask `c1`); `null`,
//! `[]` or `"-"` is an idle round. Checked against the instance's chains: one call per
//! round, each call after its chain predecessor's result has arrived (round ≥ previous
//! round + 1 + delay, the precedence's `min_lag`), every call exactly once, no unknown call.
//! Independent of the solver: it reads only the instance and the turns.

use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;

use makespan_model::instance::{Instance, LoadError};
use makespan_model::schedule::ScheduledActivity;
use makespan_verify::{Report, Rule, Violation};

/// One round as written: idle, one call, or (wrongly) several.
#[derive(Deserialize)]
#[serde(untagged)]
enum Round {
    Idle(()),
    One(String),
    Many(Vec<String>),
}

/// Reads a JSON list of rounds.
pub fn read_turns(path: &Path, text: &str) -> Result<Vec<Vec<String>>, LoadError> {
    let rounds: Vec<Round> = serde_json::from_str(text).map_err(|e| {
        let mut err = LoadError::json_in(path, text, &e);
        if let LoadError::Json { message, .. } = &mut err {
            message.push_str(
                "; expected a JSON list with one entry per round: a call id such as \"c1-2\", null for an idle round, or a list of ids",
            );
        }
        err
    })?;
    Ok(rounds
        .into_iter()
        .map(|r| match r {
            Round::Idle(_) => Vec::new(),
            Round::One(id) if id.trim() == "-" || id.trim().is_empty() => Vec::new(),
            Round::One(id) => vec![id],
            Round::Many(ids) => ids,
        })
        .collect())
}

/// The turns as a schedule of the instance: the call of round `r` (its first call, if the
/// round has several) runs over `[r − 1, r)` on the one agent, so a result delayed by `d`
/// rounds is the precedence's `min_lag` of `d`. A repeated call counts where it first appears.
pub fn turn_schedule(instance: &Instance, turns: &[Vec<String>]) -> Vec<ScheduledActivity> {
    let mut schedule: Vec<ScheduledActivity> = Vec::new();
    for (k, calls) in turns.iter().enumerate() {
        for id in calls {
            let known = instance.activities.iter().find(|a| &a.id == id);
            if let Some(a) = known.filter(|_| !schedule.iter().any(|s| &s.activity == id)) {
                schedule.push(ScheduledActivity::at(
                    id.clone(),
                    Some(0),
                    k as i64,
                    a.duration,
                ));
            }
        }
    }
    schedule
}

/// Every violation of a turn list, and its metrics (the makespan is the last round with a
/// call).
pub fn verify_turns(instance: &Instance, turns: &[Vec<String>]) -> Report {
    let known: HashMap<&str, ()> = instance
        .activities
        .iter()
        .map(|a| (a.id.as_str(), ()))
        .collect();
    let mut out = Vec::new();
    let mut round_of: HashMap<&str, i64> = HashMap::new();
    for (k, calls) in turns.iter().enumerate() {
        let round = k as i64 + 1;
        if calls.len() > 1 {
            out.push(Violation::new(
                Rule::TwoCallsInOneTurn,
                calls.clone(),
                Some(round),
                format!(
                    "round {round} issues {} calls ({}); the assistant may issue one call per round",
                    calls.len(),
                    calls.join(", ")
                ),
                "move all but one of them to later (idle) rounds".into(),
            ));
        }
        for id in calls {
            if !known.contains_key(id.as_str()) {
                out.push(Violation::new(
                    Rule::UnknownActivity,
                    vec![id.clone()],
                    Some(round),
                    format!("round {round} calls `{id}`, which is no call of this instance"),
                    "use the ids of the instance, e.g. `c1-1` for the first call of subtask c1"
                        .into(),
                ));
            } else if let Some(first) = round_of.get(id.as_str()) {
                out.push(Violation::new(
                    Rule::DuplicateActivity,
                    vec![id.clone()],
                    Some(round),
                    format!("round {round} repeats `{id}`, already called in round {first}"),
                    "call each function once".into(),
                ));
            } else {
                round_of.insert(id, round);
            }
        }
    }
    for p in &instance.precedences {
        let (Some(&before), Some(&after)) = (
            round_of.get(p.before.as_str()),
            round_of.get(p.after.as_str()),
        ) else {
            continue;
        };
        let ready = before + 1 + p.min_lag;
        if after < before {
            out.push(Violation::new(
                Rule::PrecedenceViolated,
                vec![p.after.clone(), p.before.clone()],
                Some(after),
                format!(
                    "`{}` (round {after}) is called before `{}` (round {before}), out of chain order",
                    p.after, p.before
                ),
                format!("call `{}` after `{}`, in round {ready} or later", p.after, p.before),
            ));
        } else if after < ready {
            out.push(Violation::new(
                Rule::ResultNotArrived,
                vec![p.after.clone(), p.before.clone()],
                Some(after),
                format!(
                    "`{}` is called in round {after}, but the result of `{}` (round {before}) arrives only {} round(s) later, in time for round {ready}",
                    p.after, p.before, p.min_lag
                ),
                format!("call `{}` in round {ready} or later", p.after),
            ));
        }
    }
    for a in &instance.activities {
        if !round_of.contains_key(a.id.as_str()) {
            out.push(Violation::new(
                Rule::MissingActivity,
                vec![a.id.clone()],
                None,
                format!("`{}` is never called", a.id),
                format!("call `{}` in some round", a.id),
            ));
        }
    }
    let makespan = turns
        .iter()
        .rposition(|c| !c.is_empty())
        .map(|k| k as i64 + 1);
    let busy: i64 = turns.iter().map(|c| c.len() as i64).sum();
    Report {
        instance: instance.name.clone(),
        valid: out.is_empty(),
        violations: out,
        makespan,
        busy_time: busy,
        agent_idle_time: makespan.map(|m| m - busy),
        peak_agents: turns.iter().map(|c| c.len() as u32).max().unwrap_or(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use makespan_model::instance::{Activity, Precedence};

    /// The paper's Fig. 11 example: trading (3 calls), file (2 calls), delay 1.
    fn example_a() -> Instance {
        Instance {
            activities: ["t-1", "t-2", "t-3", "f-1", "f-2"]
                .iter()
                .map(|id| Activity::new(*id, 1))
                .collect(),
            precedences: vec![
                Precedence::finish_to_start("t-1", "t-2", 1),
                Precedence::finish_to_start("t-2", "t-3", 1),
                Precedence::finish_to_start("f-1", "f-2", 1),
            ],
            ..Instance::new("a", Some(1))
        }
    }

    fn turns(rounds: &[&[&str]]) -> Vec<Vec<String>> {
        rounds
            .iter()
            .map(|r| r.iter().map(|s| s.to_string()).collect())
            .collect()
    }

    #[test]
    fn the_papers_correct_trajectory_is_valid_in_five_rounds() {
        let r = verify_turns(
            &example_a(),
            &turns(&[&["t-1"], &["f-1"], &["t-2"], &["f-2"], &["t-3"]]),
        );
        assert!(r.valid, "{}", r.render_text());
        assert_eq!(r.makespan, Some(5));
    }

    #[test]
    fn every_violation_is_named() {
        let r = verify_turns(
            &example_a(),
            &turns(&[&["t-1", "f-1"], &["t-2"], &[], &["x-9"], &["f-1"]]),
        );
        let rules: Vec<Rule> = r.violations.iter().map(|v| v.rule).collect();
        assert_eq!(
            rules,
            [
                Rule::TwoCallsInOneTurn,
                Rule::UnknownActivity,
                Rule::DuplicateActivity,
                Rule::ResultNotArrived,
                Rule::MissingActivity,
                Rule::MissingActivity,
            ]
        );
    }

    #[test]
    fn idle_rounds_are_read_in_every_spelling() {
        let t = read_turns(Path::new("t.json"), r#"["t-1", null, [], "-", ["f-1"]]"#).unwrap();
        assert_eq!(t, turns(&[&["t-1"], &[], &[], &[], &["f-1"]]));
    }
}
