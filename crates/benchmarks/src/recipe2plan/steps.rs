//! Recipe2Plan answers: `Step(step, recipe, duration, start)` actions (or the 3-field
//! `Step(step, recipe, start)` with the step's full duration), times `HH:MM:SS` or `MM:SS`.
//!
//! The text is parsed as the benchmark's evaluator does (quotes removed, `N min`/`N sec`/
//! `N hour` rewritten), but nothing is dropped silently: a `Step(` that does not parse is a
//! [`Rule::MalformedAction`]. Actions become pieces of the instance's activities
//! (`<recipe>:<step>`) and the schedule goes through the general verifier, so every
//! violation is reported, not just the first. Rules only this answer form can break are
//! checked here: unknown recipe or step, a step run twice or for zero seconds, and two
//! actions at one instant in an order the environment's clock rejects. Where the original
//! environment would accept a broken plan, the message ends with a stable key and what the
//! original does, e.g. `[zero_length_rerun: …]` (the keys: [`ORIGINAL_LETS_THROUGH`]).
//!
//! Metrics: with `H` the actions, `M` the latest end, `W` the summed durations and
//! `A` the full durations of the autonomous steps: multitasking efficiency
//! `η = max(0, W − M) / A`, relative efficiency `min(η / η_ref, 5η)` against the heuristic
//! plan's `η_ref` (truncated to `|H|` actions) and against the optimum's, progress and success.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::Serialize;

use crate::recipe2plan::{activity_id, PlanAction};
use makespan_model::instance::{AgentUse, Instance};
use makespan_model::schedule::{Piece, ScheduledActivity};
use makespan_verify::{verify, Report, Rule, Violation};

/// The key of a zero-length re-run of a step, which the original environment accepts
/// (resetting the step's finish time, which defeats its windows).
pub const ZERO_LENGTH_RERUN: &str = "zero_length_rerun";
/// The key of a missing step, which the original environment reports as executed
/// successfully.
pub const INCOMPLETE_PLAN: &str = "incomplete_plan";
/// The key of a `Step(` that does not parse, which the original environment drops silently.
pub const MALFORMED_ACTION_DROPPED: &str = "malformed_action_dropped";
/// Every key a violation's message may end with (`[key: what the original does]`) where the
/// original environment lets the fault through.
pub const ORIGINAL_LETS_THROUGH: [&str; 3] =
    [ZERO_LENGTH_RERUN, INCOMPLETE_PLAN, MALFORMED_ACTION_DROPPED];

/// One parsed action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepAction {
    /// The step's number within its recipe (the activity is `<recipe>:<step>`).
    pub step: usize,
    /// The recipe the step belongs to.
    pub recipe: String,
    /// `None` for the 3-field form (the step's full duration).
    pub duration: Option<i64>,
    /// Start time in seconds.
    pub start: i64,
}

/// A parsed answer: the actions in input order, and the `Step(` texts that did not parse.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StepPlan {
    /// The actions that parsed, in input order.
    pub actions: Vec<StepAction>,
    /// The `Step(` texts that did not parse, as written.
    pub malformed: Vec<String>,
}

/// The part of a plan-and-solve response the benchmark parses: the text after the last
/// `</think>` (a reasoning model's thoughts come before it), as `result_summarizer.py` keeps
/// it; the whole text when there is none.
pub fn final_answer(text: &str) -> &str {
    text.rsplit_once("</think>")
        .map_or(text, |(_, after)| after)
}

/// Parses every `Step(...)` in `text`.
pub fn parse_steps(text: &str) -> StepPlan {
    let cleaned: String = text.chars().filter(|c| *c != '"' && *c != '\'').collect();
    let mut plan = StepPlan::default();
    let mut rest = cleaned.as_str();
    while let Some(at) = rest.find("Step(") {
        let after = &rest[at + 5..];
        let Some(close) = after.find(')') else {
            plan.malformed
                .push(format!("Step({}", after.lines().next().unwrap_or("")));
            break;
        };
        let inner = &after[..close];
        match parse_action(inner) {
            Some(action) => plan.actions.push(action),
            None => plan.malformed.push(format!("Step({inner})")),
        }
        rest = &after[close + 1..];
    }
    plan
}

fn parse_action(inner: &str) -> Option<StepAction> {
    let fields: Vec<String> = inner.split(", ").map(rewrite_units).collect();
    let step = fields.first()?.trim().parse().ok()?;
    let recipe = fields.get(1)?.to_string();
    if recipe.is_empty()
        || !recipe
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return None;
    }
    let (duration, start) = match fields.len() {
        4 => (Some(parse_clock(&fields[2])?), parse_clock(&fields[3])?),
        3 => (None, parse_clock(&fields[2])?),
        _ => return None,
    };
    Some(StepAction {
        step,
        recipe,
        duration,
        start,
    })
}

/// `N min` → `N:00`, `N sec` → `0:N`, `N hour` → `N:00:00`, as the evaluator rewrites them.
fn rewrite_units(field: &str) -> String {
    let f = field.trim();
    for (unit, form) in [("hour", "{}:00:00"), ("min", "{}:00"), ("sec", "0:{}")] {
        if let Some(n) = f.strip_suffix(unit).map(str::trim) {
            if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) {
                return form.replace("{}", n);
            }
        }
    }
    f.to_string()
}

/// Seconds of `H:M:S` or `M:S`.
pub fn parse_clock(text: &str) -> Option<i64> {
    let parts: Vec<i64> = text
        .trim()
        .split(':')
        .map(|p| {
            (!p.is_empty() && p.len() <= 6 && p.chars().all(|c| c.is_ascii_digit()))
                .then(|| p.parse().ok())
                .flatten()
        })
        .collect::<Option<_>>()?;
    match parts[..] {
        [m, s] => Some(m * 60 + s),
        [h, m, s] => Some(h * 3600 + m * 60 + s),
        _ => None,
    }
}

/// The benchmark's metrics of a plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepMetrics {
    /// η = max(0, W − M) / A (paper Eq. 1); `None` without autonomous steps.
    pub multitasking_efficiency: Option<f64>,
    /// η / η_ref (capped at 5η) against the benchmark's heuristic plan, when given.
    pub relative_efficiency_heuristic: Option<f64>,
    /// The same against the optimal plan, when given.
    pub relative_efficiency_optimum: Option<f64>,
    /// Share of steps completed or prerequisite of a completed step.
    pub progress: f64,
    /// All recipes complete and no violation.
    pub success: bool,
}

/// The report of a Step answer, and its metrics.
#[derive(Debug, Clone, Serialize)]
pub struct StepReport {
    /// The verifier's report, with the violations only this answer form can have.
    pub report: Report,
    /// The benchmark's metrics of the plan.
    pub metrics: StepMetrics,
    /// What the original environment would read differently without it changing the
    /// verdict (a line order its stable sort rejects, tagged `[line_order]`).
    pub notes: Vec<String>,
    /// The actions as a schedule of the instance.
    #[serde(skip)]
    pub schedule: Vec<ScheduledActivity>,
}

/// Verifies a parsed answer against a Recipe2Plan instance; `heuristic` and `optimum` are
/// the reference plans for the relative efficiencies.
pub fn verify_steps(
    instance: &Instance,
    plan: &StepPlan,
    heuristic: Option<&[PlanAction]>,
    optimum: Option<&[PlanAction]>,
) -> StepReport {
    let activities: HashMap<&str, &makespan_model::instance::Activity> = instance
        .activities
        .iter()
        .map(|a| (a.id.as_str(), a))
        .collect();
    let recipes: Vec<&str> = {
        let mut seen = Vec::new();
        for a in &instance.activities {
            if let Some((r, _)) = a.id.rsplit_once(':') {
                if !seen.contains(&r) {
                    seen.push(r);
                }
            }
        }
        seen
    };
    let mut own = Vec::new();
    for text in &plan.malformed {
        own.push(Violation::new(
            Rule::MalformedAction,
            Vec::new(),
            None,
            format!("`{text}` is not a Step(step, recipe, duration, start) action [{MALFORMED_ACTION_DROPPED}: the original environment drops it silently]"),
            "write Step(<step id>, <recipe>, HH:MM:SS, HH:MM:SS) with \", \" between the fields".into(),
        ));
    }
    let has_four = plan.actions.iter().any(|a| a.duration.is_some());
    let mut pieces: BTreeMap<String, Vec<Piece>> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    let mut executed: Vec<(i64, i64, String)> = Vec::new();
    for action in &plan.actions {
        let id = activity_id(&action.recipe, action.step);
        let Some(activity) = activities.get(id.as_str()) else {
            let (message, hint) = if !recipes.contains(&action.recipe.as_str()) {
                (
                    format!(
                        "recipe {} is not one of this instance's recipes",
                        action.recipe
                    ),
                    format!("choose a recipe from {}", recipes.join(", ")),
                )
            } else {
                let n = instance
                    .activities
                    .iter()
                    .filter(|a| a.id.starts_with(&format!("{}:", action.recipe)))
                    .count();
                (
                    format!("{} has no step {}", action.recipe, action.step),
                    format!("choose a step from 0 to {}", n.saturating_sub(1)),
                )
            };
            own.push(Violation::new(
                Rule::UnknownActivity,
                vec![id],
                Some(action.start),
                message,
                hint,
            ));
            continue;
        };
        if action.duration.is_none() && has_four {
            own.push(Violation::new(
                Rule::MalformedAction,
                vec![id.clone()],
                Some(action.start),
                format!("`{id}` is given in the 3-field form among 4-field actions; the original environment ignores it then"),
                "give every action its duration, or none".into(),
            ));
        }
        let duration = action.duration.unwrap_or(activity.duration);
        if duration == 0 && activity.duration > 0 {
            own.push(Violation::new(
                Rule::BadPiece,
                vec![id.clone()],
                Some(action.start),
                format!("`{id}` is run for 0 seconds at {} [{ZERO_LENGTH_RERUN}: the original environment accepts it and resets the step's finish time, which defeats its windows]", action.start),
                "remove the zero-length action".into(),
            ));
            continue;
        }
        let done: i64 = pieces
            .get(&id)
            .map_or(0, |l| l.iter().map(|p| p.1 - p.0).sum());
        let first_complete = pieces
            .get(&id)
            .is_some_and(|l| l[0].1 - l[0].0 >= activity.duration);
        if done + duration > activity.duration && (activity.preemptible || first_complete) {
            // The step is already done (or this action overshoots it): the environment
            // rejects the action, so it takes part in no other rule.
            own.push(Violation::new(
                Rule::DuplicateActivity,
                vec![id.clone()],
                Some(action.start),
                format!(
                    "`{id}` is run again at {} for {duration} s after {done} of its {} s",
                    action.start, activity.duration
                ),
                format!("run `{id}` for {} s in all, once", activity.duration),
            ));
            continue;
        }
        executed.push((action.start, duration, id.clone()));
        if !pieces.contains_key(&id) {
            order.push(id.clone());
        }
        pieces
            .entry(id)
            .or_default()
            .push(Piece(action.start, action.start.saturating_add(duration)));
    }
    // The environment's clock: an autonomous start strictly inside a continuous action of
    // an interruptible step is "in the past" (the action must be split there). Inside a
    // non-interruptible step the general agent rule reports it.
    for action in &plan.actions {
        let id = activity_id(&action.recipe, action.step);
        if !activities
            .get(id.as_str())
            .is_some_and(|a| a.agent == AgentUse::StartInstant)
        {
            continue;
        }
        for (start, duration, other) in &executed {
            let interruptible = activities
                .get(other.as_str())
                .is_some_and(|a| a.agent == AgentUse::Whole && a.preemptible);
            if interruptible && *start < action.start && action.start < start + duration {
                own.push(Violation::new(
                    Rule::AgentDoubleBooked,
                    vec![id.clone(), other.clone()],
                    Some(action.start),
                    format!(
                        "autonomous `{id}` starts at {} inside the action of `{other}` over [{start}, {}); the cook is busy until its end",
                        action.start,
                        start + duration
                    ),
                    format!("split `{other}` at {} (interruptible steps may be paused)", action.start),
                ));
            }
        }
    }
    // Equal starts: the schedule is feasible (the cook starts the autonomous step, then the
    // continuous one, at that instant), but the environment runs the lines in input order,
    // so an autonomous step listed after a continuous one of the same instant starts "in the
    // past" there: a note, not a violation.
    let mut notes = Vec::new();
    let mut continuous_started: HashSet<i64> = HashSet::new();
    for action in &plan.actions {
        let id = activity_id(&action.recipe, action.step);
        let Some(activity) = activities.get(id.as_str()) else {
            continue;
        };
        if activity.agent == AgentUse::Whole {
            continuous_started.insert(action.start);
        } else if continuous_started.contains(&action.start) && !activity.preemptible {
            notes.push(format!("autonomous `{id}` is listed after a continuous step that starts at the same instant {}: the schedule is feasible, but the original environment runs the lines in input order (stable sort) and rejects it as starting in the past [line_order]; list it first", action.start));
        }
    }
    if plan.actions.is_empty() && plan.malformed.is_empty() {
        own.push(Violation::new(
            Rule::MalformedAnswer,
            Vec::new(),
            None,
            "the answer holds no Step(...) action".into(),
            "answer with Step(<step id>, <recipe>, HH:MM:SS, HH:MM:SS) actions".into(),
        ));
    }
    let schedule: Vec<ScheduledActivity> = order
        .iter()
        .map(|id| ScheduledActivity {
            activity: id.clone(),
            agent: Some(0),
            pieces: pieces[id].clone(),
        })
        .collect();
    let mut report = verify(instance, &schedule);
    for v in &mut report.violations {
        if v.rule == Rule::MissingActivity {
            v.message.push_str(&format!(" [{INCOMPLETE_PLAN}: the original environment reports an incomplete plan as executed successfully]"));
        }
    }
    let nothing = own.iter().any(|v| v.rule == Rule::MalformedAnswer);
    if nothing {
        // No plan at all: every step missing says nothing more.
        report
            .violations
            .retain(|v| v.rule != Rule::MissingActivity);
    }
    let mut violations = own;
    violations.append(&mut report.violations);
    report.violations = violations;
    report.valid = report.violations.is_empty();

    let complete: HashSet<&str> = pieces
        .iter()
        .filter(|(id, list)| {
            list.iter().map(|p| p.1 - p.0).sum::<i64>() >= activities[id.as_str()].duration
        })
        .map(|(id, _)| id.as_str())
        .collect();
    let mut covered: HashSet<&str> = complete.clone();
    for p in &instance.precedences {
        if complete.contains(p.after.as_str()) && p.max_lag.is_none() {
            covered.insert(p.before.as_str());
        }
    }
    let progress = if instance.activities.is_empty() {
        1.0
    } else {
        covered.len() as f64 / instance.activities.len() as f64
    };
    let all_done = complete.len() == instance.activities.len();
    let efficiency = efficiency(instance, &executed);
    let relative = |reference: Option<&[PlanAction]>| {
        let eta = efficiency?;
        let reference: Vec<(i64, i64, String)> = reference?
            .iter()
            .take(executed.len())
            .map(|a| (a.3, a.2, activity_id(&a.1, a.0)))
            .collect();
        let eta_ref = self::efficiency(instance, &reference).filter(|&e| e > 0.0)?;
        Some((eta / eta_ref).min(5.0 * eta))
    };
    let metrics = StepMetrics {
        multitasking_efficiency: efficiency,
        relative_efficiency_heuristic: relative(heuristic),
        relative_efficiency_optimum: relative(optimum),
        progress,
        success: all_done && report.valid,
    };
    StepReport {
        report,
        metrics,
        notes,
        schedule,
    }
}

/// η of executed actions `(start, duration, activity)`.
fn efficiency(instance: &Instance, executed: &[(i64, i64, String)]) -> Option<f64> {
    let m = executed.iter().map(|(s, d, _)| s + d).max()?;
    let w: i64 = executed.iter().map(|(_, d, _)| d).sum();
    let done: HashSet<&str> = executed.iter().map(|(_, _, id)| id.as_str()).collect();
    let a: i64 = instance
        .activities
        .iter()
        .filter(|x| x.agent != AgentUse::Whole && done.contains(x.id.as_str()))
        .map(|x| x.duration)
        .sum();
    (a > 0).then(|| (w - m).max(0) as f64 / a as f64)
}

/// A schedule as benchmark actions (one per piece), to compute metrics of a solution.
pub fn schedule_actions(schedule: &[ScheduledActivity]) -> Vec<PlanAction> {
    let mut actions: Vec<PlanAction> = schedule
        .iter()
        .filter_map(|s| {
            let (recipe, step) = s.activity.rsplit_once(':')?;
            let step = step.parse().ok()?;
            Some(
                s.pieces
                    .iter()
                    .map(move |p| PlanAction(step, recipe.to_string(), p.1 - p.0, p.0)),
            )
        })
        .flatten()
        .collect();
    actions.sort_by_key(|a| a.3);
    actions
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_forms_and_both_clocks_parse_and_bad_text_is_kept() {
        let plan = parse_steps(
            "Step(3, Cobbler, 00:01:00, 05:00)\nStep(2, 'Cobbler', 1 min, 00:00:30)\nStep(1, Cobbler, 00:02:00)\nStep(x, Cobbler, 1:00, 2:00)",
        );
        assert_eq!(plan.actions.len(), 3);
        assert_eq!(plan.actions[0].start, 300);
        assert_eq!(plan.actions[1].duration, Some(60));
        assert_eq!(plan.actions[2].duration, None);
        assert_eq!(plan.actions[2].start, 120);
        assert_eq!(plan.malformed, ["Step(x, Cobbler, 1:00, 2:00)"]);
    }

    #[test]
    fn only_the_text_after_the_last_think_is_the_answer() {
        let text = "<think>try Step(0, Cobbler, 00:01:00, 00:00:00)</think>x</think>Step(1, Cobbler, 00:01:00, 00:02:00)";
        let plan = parse_steps(final_answer(text));
        assert_eq!(plan.actions.len(), 1);
        assert_eq!(plan.actions[0].step, 1);
        assert_eq!(final_answer("Step(1, A, 1:00)"), "Step(1, A, 1:00)");
    }

    #[test]
    fn clocks() {
        assert_eq!(parse_clock("01:02:03"), Some(3723));
        assert_eq!(parse_clock("2:03"), Some(123));
        assert_eq!(parse_clock("2"), None);
        assert_eq!(parse_clock("a:03"), None);
    }
}
