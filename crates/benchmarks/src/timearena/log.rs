//! TimeArena plans in the environment's own terms: a list of decisions
//! `{"time": t, "action": "..."}` (what `makespan solve --emit-native` writes), or a
//! trajectory file of `LLM_test.py` (`[instruction, record, …, final record]`).
//!
//! Each accepted decision starts its action at its minute; `wait` starts nothing. In a
//! trajectory, the environment's observation tells accepted decisions (`You are doing …`)
//! from rejected ones, which are reported as warnings (they cost the agent a minute, and
//! invalid ones also delay running `*` actions), and from the repeated record of
//! a Type-1 action's last minute. A bare decision list has no observations: every
//! decision counts as issued.
//!
//! The decoded schedule goes through [`verify`] (dependencies, agent busy, objects and
//! pools in use), and decoding adds what only the action text shows: unknown actions or
//! objects, an action issued twice, and two overlapping actions naming the same pool
//! instance (`fryer_2`), which the environment rejects even when another fryer is free.
//! The metrics are the benchmark's, for this one run.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::timearena::pool_instances;
use makespan_model::instance::{Instance, LoadError, MAX_TIME};
use makespan_model::schedule::ScheduledActivity;

use makespan_verify::{verify, Report, Rule, Violation};

/// One decision of the agent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// The minute at which the decision is made.
    pub time: i64,
    /// The action text, as the environment reads it.
    pub action: String,
}

/// A decision list or trajectory, reduced to what the verifier needs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DecisionLog {
    /// Decisions that started an action (every non-`wait` decision of a bare list).
    pub decisions: Vec<Decision>,
    /// Decisions the environment rejected, with the first line of its answer.
    pub rejected: Vec<(Decision, String)>,
    /// The final record of a trajectory: `total_time`, `total_score`, `isCompleted`.
    pub final_record: Option<(i64, i64, bool)>,
    /// Normalisations applied while reading (whitespace around an action), to report.
    pub notes: Vec<String>,
}

/// The benchmark's metrics for one run, computed from the decoded schedule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunMetrics {
    /// ⌊100 · minutes of the actions done / minutes of all actions⌋.
    pub progress_score: i64,
    /// Minute at which the last action done ends.
    pub completion_time: i64,
    /// Progress score per minute.
    pub completion_speed: f64,
    /// Every action done, and no violation.
    pub completed: bool,
}

/// The benchmark's metrics over several runs (as the paper defines them), with `P_i` the progress
/// score, `T_i` the completion time of run `i`, and `S` the completed runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Aggregate {
    /// The number of runs `N`.
    pub runs: usize,
    /// AS = Σ P_i / N.
    pub average_progress_score: f64,
    /// CS = Σ P_i / Σ T_i (score per minute).
    pub completion_speed: f64,
    /// CR = |S| / N, in percent.
    pub completion_rate: f64,
    /// CT = Σ_{i∈S} T_i / |S|; `None` when no run completed.
    pub average_completion_time: Option<f64>,
}

/// AS, CS, CR and CT over the given runs.
pub fn aggregate(runs: &[RunMetrics]) -> Aggregate {
    let n = runs.len().max(1) as f64;
    let score: i64 = runs.iter().map(|r| r.progress_score).sum();
    let time: i64 = runs.iter().map(|r| r.completion_time).sum();
    let done: Vec<i64> = runs
        .iter()
        .filter(|r| r.completed)
        .map(|r| r.completion_time)
        .collect();
    Aggregate {
        runs: runs.len(),
        average_progress_score: score as f64 / n,
        completion_speed: if time > 0 {
            score as f64 / time as f64
        } else {
            0.0
        },
        completion_rate: 100.0 * done.len() as f64 / n,
        average_completion_time: (!done.is_empty())
            .then(|| done.iter().sum::<i64>() as f64 / done.len() as f64),
    }
}

/// The verdict on a TimeArena plan.
#[derive(Debug, Clone, Serialize)]
pub struct TimeArenaVerdict {
    /// The verifier's report on the decoded schedule, with decoding's own violations.
    pub report: Report,
    /// The benchmark's metrics for this run.
    pub metrics: RunMetrics,
    /// The accepted decisions as a schedule of the instance.
    pub schedule: Vec<ScheduledActivity>,
    /// What the original environment would do differently, and rejected decisions.
    pub warnings: Vec<String>,
}

/// Whether a JSON value looks like a decision list or a trajectory: a list of records with
/// `time` and `action`, or the instruction string followed by records (objects) only.
pub fn is_decision_log(value: &Value) -> bool {
    value
        .as_array()
        .is_some_and(|list| match list.split_first() {
            Some((Value::String(_), records)) => {
                !records.is_empty() && records.iter().all(Value::is_object)
            }
            Some(_) => list.iter().all(|r| {
                (r.get("time").is_some() && r.get("action").is_some()) || pair(r).is_some()
            }),
            None => false,
        })
}

/// A decision written as a pair `[minute, "action"]`.
fn pair(record: &Value) -> Option<(&Value, &Value)> {
    match record.as_array()?.as_slice() {
        [time, action] if time.is_number() && action.is_string() => Some((time, action)),
        _ => None,
    }
}

/// Reads a decision list (`{"time", "action"}` records or `[minute, "action"]` pairs) or a
/// trajectory; errors name the file and the record.
pub fn read_decisions(path: &Path, text: &str) -> Result<DecisionLog, LoadError> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| LoadError::json_in(path, text, &e))?;
    let Some(records) = value.as_array() else {
        return Err(LoadError::format(
            path,
            "top level",
            "expected a JSON list of decisions",
        ));
    };
    let trajectory = matches!(records.first(), Some(Value::String(_)));
    let mut log = DecisionLog::default();
    // Type-1 actions started: their last minute repeats the action string.
    let mut last_minute: HashMap<String, i64> = HashMap::new();
    for (i, record) in records.iter().enumerate().skip(usize::from(trajectory)) {
        let at = || format!("record {i}");
        if let Some(total) = record.get("total_time") {
            let number = |key: &str| record.get(key).and_then(Value::as_i64);
            let time = total.as_i64().ok_or_else(|| {
                LoadError::format(path, at(), "total_time is not a whole number of minutes")
            })?;
            let completed = record
                .get("isCompleted")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            log.final_record = Some((time, number("total_score").unwrap_or(0), completed));
            continue;
        }
        let fields = pair(record).or(record.get("time").zip(record.get("action")));
        let Some((time, action)) = fields else {
            if trajectory {
                continue; // thinking, plan and reflexion records carry no decision
            }
            return Err(LoadError::format(
                path,
                at(),
                "a decision needs \"time\" (minute) and \"action\" (the action text), or is a pair [minute, \"action\"]",
            ));
        };
        let (Some(time), Some(action)) = (time.as_i64(), action.as_str()) else {
            return Err(LoadError::format(
                path,
                at(),
                "\"time\" must be a whole number of minutes and \"action\" a string",
            ));
        };
        if !(0..=MAX_TIME).contains(&time) {
            return Err(LoadError::format(
                path,
                at(),
                format!("minute {time} is out of range (0 to {MAX_TIME})"),
            ));
        }
        if action.trim() != action {
            log.notes.push(format!(
                "{}: the action {action:?} has surrounding whitespace; read as {:?}, as the environment strips it",
                at(),
                action.trim()
            ));
        }
        let action = action.trim().to_string();
        let decision = Decision { time, action };
        if decision.action == "wait" {
            continue;
        }
        let observation = record.get("observation").and_then(Value::as_str);
        match observation {
            Some(obs) if obs.contains("You are doing") => {
                if let Some(minutes) = obs
                    .split("it will take ")
                    .nth(1)
                    .and_then(|rest| rest.split(' ').next())
                    .and_then(|n| n.parse::<i64>().ok())
                    .filter(|m| (1..=MAX_TIME).contains(m))
                {
                    last_minute.insert(decision.action.clone(), time + minutes - 1);
                }
                log.decisions.push(decision);
            }
            Some(_) if last_minute.get(&decision.action) == Some(&time) => {}
            Some(obs) => {
                let first_line = obs.lines().next().unwrap_or_default().to_string();
                log.rejected.push((decision, first_line));
            }
            None => log.decisions.push(decision),
        }
    }
    Ok(log)
}

/// What an action text means in a run: the activity, and the pool instance it names.
struct Vocabulary {
    actions: HashMap<String, (String, Option<String>)>,
}

impl Vocabulary {
    fn new(instance: &Instance) -> Self {
        let pools = pool_instances(instance);
        let mut actions = HashMap::new();
        for activity in &instance.activities {
            let label = activity
                .label
                .clone()
                .unwrap_or_else(|| activity.id.clone());
            let slot = pools
                .iter()
                .find(|(kind, _)| label.contains(&format!("{{{kind}}}")));
            match slot {
                Some((kind, names)) => {
                    for name in names {
                        let text = label.replace(&format!("{{{kind}}}"), name);
                        actions.insert(text, (activity.id.clone(), Some(name.clone())));
                    }
                }
                None => {
                    actions.insert(label, (activity.id.clone(), None));
                }
            }
        }
        let alternatives = instance
            .source
            .as_ref()
            .and_then(|s| s.notes.get("alternative_actions"))
            .and_then(Value::as_object);
        for (text, id) in alternatives.into_iter().flatten() {
            if let Some(id) = id.as_str() {
                actions.insert(text.clone(), (id.to_string(), None));
            }
        }
        Vocabulary { actions }
    }

    /// The run's action with the same verb and subject as `text`, if any (a hint for
    /// an action that names another task's object).
    fn similar(&self, text: &str) -> Option<&str> {
        let head: Vec<&str> = text.split(' ').take(2).collect();
        self.actions
            .keys()
            .filter(|k| k.split(' ').take(2).eq(head.iter().copied()))
            .min()
            .map(String::as_str)
    }
}

/// Verifies a decision log against a TimeArena instance.
pub fn verify_decisions(instance: &Instance, log: &DecisionLog) -> TimeArenaVerdict {
    let vocabulary = Vocabulary::new(instance);
    let duration: HashMap<&str, i64> = instance
        .activities
        .iter()
        .map(|a| (a.id.as_str(), a.duration))
        .collect();
    let mut violations = Vec::new();
    let mut schedule: Vec<ScheduledActivity> = Vec::new();
    let mut first_start: HashMap<String, i64> = HashMap::new();
    let mut pool_use: BTreeMap<String, Vec<(i64, i64, String)>> = BTreeMap::new();
    for decision in &log.decisions {
        let t = decision.time;
        let Some((id, pool)) = vocabulary.actions.get(&decision.action) else {
            violations.push(unknown(&vocabulary, decision));
            continue;
        };
        if let Some(&first) = first_start.get(id) {
            violations.push(Violation::new(
                Rule::DuplicateActivity,
                vec![id.clone()],
                Some(t),
                format!("`{}` is issued again at minute {t}; it was started at {first}", decision.action),
                "issue each action once; the environment answers \"already completed\" or \"occupied\"".into(),
            ));
            continue;
        }
        first_start.insert(id.clone(), t);
        let end = t + duration[id.as_str()];
        if let Some(name) = pool {
            pool_use
                .entry(name.clone())
                .or_default()
                .push((t, end, id.clone()));
        }
        schedule.push(ScheduledActivity::at(
            id.clone(),
            Some(0),
            t,
            duration[id.as_str()],
        ));
    }
    for (name, mut uses) in pool_use {
        uses.sort();
        for pair in uses.windows(2) {
            let ((s1, e1, a), (s2, _, b)) = (&pair[0], &pair[1]);
            if s2 < e1 {
                violations.push(Violation::new(
                    Rule::ResourceOverCapacity,
                    vec![b.clone(), a.clone()],
                    Some(*s2),
                    format!(
                        "`{b}` names {name} at minute {s2}, but `{a}` holds it over [{s1}, {e1})"
                    ),
                    format!(
                        "name a free instance instead of {name}, or start `{b}` at {e1} or later"
                    ),
                ));
            }
        }
    }
    let mut report = verify(instance, &schedule);
    violations.append(&mut report.violations);
    report.violations = violations;
    report.valid = report.violations.is_empty();
    let metrics = metrics(instance, &schedule, report.valid);
    TimeArenaVerdict {
        warnings: warnings(instance, log),
        metrics,
        report,
        schedule,
    }
}

fn unknown(vocabulary: &Vocabulary, decision: &Decision) -> Violation {
    let text = &decision.action;
    let hint = if text.eq_ignore_ascii_case("wait") {
        "write `wait` in lower case: the environment accepts `Wait` as valid and then crashes on it"
            .to_string()
    } else if let Some(similar) = vocabulary.similar(text) {
        format!(
            "this run has `{similar}`; under the intended rules each task uses its own objects \
             (the environment may accept another task's container)"
        )
    } else {
        "use an action of this run: `verb OBJ` or `verb OBJ prep OBJ`, with the run's object names"
            .into()
    };
    Violation::new(
        Rule::UnknownActivity,
        vec![text.clone()],
        Some(decision.time),
        format!(
            "minute {}: `{text}` is not an action of this run",
            decision.time
        ),
        hint,
    )
}

/// Progress score, completion time and speed of the decoded schedule.
fn metrics(instance: &Instance, schedule: &[ScheduledActivity], valid: bool) -> RunMetrics {
    let total: i64 = instance.activities.iter().map(|a| a.duration).sum();
    let done: i64 = schedule
        .iter()
        .map(|s| s.pieces.iter().map(|p| p.end() - p.start()).sum::<i64>())
        .sum();
    let progress_score = if total > 0 { 100 * done / total } else { 100 };
    let completion_time = makespan_model::schedule::makespan(schedule);
    RunMetrics {
        progress_score,
        completion_time,
        completion_speed: if completion_time > 0 {
            progress_score as f64 / completion_time as f64
        } else {
            0.0
        },
        completed: valid && schedule.len() == instance.activities.len(),
    }
}

/// What the original environment does differently with this run or this log.
fn warnings(instance: &Instance, log: &DecisionLog) -> Vec<String> {
    let mut warnings = Vec::new();
    let notes = instance.source.as_ref().map(|s| &s.notes);
    let list = |key: &str| -> Vec<String> {
        notes
            .and_then(|n| n.get(key))
            .and_then(Value::as_array)
            .map(|l| {
                l.iter()
                    .filter_map(|v| v.as_str().map(|s| format!("`{s}`")))
                    .collect()
            })
            .unwrap_or_default()
    };
    let unfinishable = list("environment_unfinishable");
    if !unfinishable.is_empty() {
        warnings.push(format!(
            "the original environment cannot complete this run: its container restriction \
             (built only from the objects renamed in the run) rejects {} with every container; \
             this plan is checked against the intended rules",
            unfinishable.join(", ")
        ));
    }
    let foreign = list("environment_needs_foreign_container");
    if !foreign.is_empty() {
        warnings.push(format!(
            "in the original environment {} can only be done with another task's container",
            foreign.join(", ")
        ));
    }
    if let Some((decision, answer)) = log.rejected.first() {
        warnings.push(format!(
            "the environment rejected {} decision(s), each costing a minute (invalid ones also \
             delay running `*` actions); first: minute {} `{}`: {answer}",
            log.rejected.len(),
            decision.time,
            decision.action
        ));
    }
    warnings.extend(log.notes.iter().cloned());
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisions_as_minute_action_pairs_are_read() {
        let text = r#"[[0, "pick beef"], [2, "wait"], [3, "cook rice in pot"]]"#;
        assert!(is_decision_log(&serde_json::from_str(text).unwrap()));
        let log = read_decisions(Path::new("d.json"), text).unwrap();
        let read: Vec<(i64, &str)> = log
            .decisions
            .iter()
            .map(|d| (d.time, d.action.as_str()))
            .collect();
        assert_eq!(read, [(0, "pick beef"), (3, "cook rice in pot")]);
    }

    #[test]
    fn whitespace_around_an_action_is_stripped_and_reported() {
        let text = r#"[{"time": 0, "action": " pick beef\n"}]"#;
        let log = read_decisions(Path::new("d.json"), text).unwrap();
        assert_eq!(log.decisions[0].action, "pick beef");
        assert_eq!(log.notes.len(), 1);
        assert!(
            log.notes[0].contains("surrounding whitespace"),
            "{:?}",
            log.notes
        );
    }

    #[test]
    fn trajectories_keep_accepted_decisions_only() {
        let text = r#"["instruction",
          {"time": 0, "observation": "You are doing ``pick beef``, it will take 2 minutes.\n", "increment": 0, "progress score": 0, "isCompleted": false, "action": "pick beef"},
          {"time": 1, "observation": "beef is picked.\n", "increment": 8, "progress score": 0, "isCompleted": false, "action": "pick beef"},
          {"time": 2, "thinking": "hmm"},
          {"time": 2, "observation": "Invalid action!", "increment": 0, "progress score": 8, "isCompleted": false, "action": "jump"},
          {"time": 3, "observation": "", "increment": 0, "progress score": 8, "isCompleted": false, "action": "wait"},
          {"total_time": 4, "total_score": 8, "isCompleted": false}]"#;
        let log = read_decisions(Path::new("t.json"), text).unwrap();
        assert_eq!(
            log.decisions,
            vec![Decision {
                time: 0,
                action: "pick beef".into()
            }]
        );
        assert_eq!(log.rejected.len(), 1);
        assert_eq!(log.final_record, Some((4, 8, false)));
    }

    #[test]
    fn aggregates_follow_the_papers_definitions() {
        let run = |progress_score, completion_time, completed| RunMetrics {
            progress_score,
            completion_time,
            completion_speed: 0.0,
            completed,
        };
        let total = aggregate(&[run(100, 20, true), run(50, 30, false), run(100, 30, true)]);
        assert_eq!(total.runs, 3);
        assert!((total.average_progress_score - 250.0 / 3.0).abs() < 1e-12);
        assert!((total.completion_speed - 250.0 / 80.0).abs() < 1e-12);
        assert!((total.completion_rate - 200.0 / 3.0).abs() < 1e-12);
        assert_eq!(total.average_completion_time, Some(25.0));
        assert_eq!(
            aggregate(&[run(10, 5, false)]).average_completion_time,
            None
        );
    }

    #[test]
    fn bad_records_name_their_place() {
        let err = read_decisions(Path::new("d.json"), r#"[{"time": 0, "action": 3}]"#).unwrap_err();
        assert!(err.to_string().contains("d.json: record 0"), "{err}");
        let err =
            read_decisions(Path::new("d.json"), r#"[{"time": -1, "action": "x"}]"#).unwrap_err();
        assert!(err.to_string().contains("out of range"), "{err}");
        assert!(is_decision_log(
            &serde_json::json!([{"time": 0, "action": "wait"}])
        ));
        assert!(!is_decision_log(&serde_json::json!([["subtask1"]])));
        assert!(!is_decision_log(&serde_json::json!([
            "call a", null, "call b"
        ])));
    }
}
