//! What the verifier says about a plan: every violated rule as a value, plus the metrics
//! (makespan, agent idle time) that make plans comparable with the optimum.

use std::collections::BTreeMap;
use std::fmt;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

/// The rule a violation breaks. The snake_case name is stable: the CLI prints it and JSON
/// reports carry it, so scripts can count violations per rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// The plan names an activity the instance does not have.
    UnknownActivity,
    /// An activity of the instance is not in the plan.
    MissingActivity,
    /// An activity is scheduled more than once.
    DuplicateActivity,
    /// A piece is malformed: end before start, negative time, zero length for a positive
    /// duration, overlapping its sibling, or the pieces do not add up to the duration.
    BadPiece,
    /// A non-preemptible activity is split into more than one piece.
    NotPreemptible,
    /// A successor starts earlier than its predecessor's end (or start) plus the minimum lag.
    PrecedenceViolated,
    /// A successor (any piece of it) starts later than the maximum lag allows.
    MaxLagViolated,
    /// One agent is busy with two activities at the same time.
    AgentDoubleBooked,
    /// An agent index beyond the instance's agents, or more agents busy at once than exist.
    TooManyAgents,
    /// An activity needs a named agent, and the plan names none (see the module docs).
    AgentMissing,
    /// More units of a resource in use at one instant than its capacity.
    ResourceOverCapacity,
    /// An activity starts before its release time.
    ReleaseViolated,
    /// An activity ends after its deadline.
    DeadlineViolated,
    /// A required state value does not hold at the start, or two values are set at once.
    StateViolated,
    /// An agent moves between stations faster than the setup time allows.
    SetupViolated,
    /// Per-agent lists wait on each other (or a list puts a successor before its
    /// predecessor), so the lists cannot be executed to the end.
    Deadlock,
    /// A turn list issues more than one call in one round (a tool agent makes one call a turn).
    TwoCallsInOneTurn,
    /// A call uses a result that has not arrived yet (a tool call's result used in a round
    /// before it returns; a cooked, fried, filled or boiled item picked up too early).
    ResultNotArrived,
    /// Native answer text that does not parse as an action (reported, never dropped).
    MalformedAction,
    /// A simulated world refuses a step: one of the action's preconditions does not hold in
    /// the state the plan has reached (the message names it in the game's own words).
    PreconditionFailed,
    /// Every step of a simulated world's plan ran, and the goal does not hold at the end.
    GoalNotReached,
    /// A model's answer that cannot be read as a plan at all (empty, prose only, truncated,
    /// the wrong shape): an invalid answer, not an unreadable file.
    MalformedAnswer,
}

impl Rule {
    /// The stable snake_case name used in text and JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Rule::UnknownActivity => "unknown_activity",
            Rule::MissingActivity => "missing_activity",
            Rule::DuplicateActivity => "duplicate_activity",
            Rule::BadPiece => "bad_piece",
            Rule::NotPreemptible => "not_preemptible",
            Rule::PrecedenceViolated => "precedence_violated",
            Rule::MaxLagViolated => "max_lag_violated",
            Rule::AgentDoubleBooked => "agent_double_booked",
            Rule::TooManyAgents => "too_many_agents",
            Rule::AgentMissing => "agent_missing",
            Rule::ResourceOverCapacity => "resource_over_capacity",
            Rule::ReleaseViolated => "release_violated",
            Rule::DeadlineViolated => "deadline_violated",
            Rule::StateViolated => "state_violated",
            Rule::SetupViolated => "setup_violated",
            Rule::Deadlock => "deadlock",
            Rule::TwoCallsInOneTurn => "two_calls_in_one_turn",
            Rule::ResultNotArrived => "result_not_arrived",
            Rule::MalformedAction => "malformed_action",
            Rule::PreconditionFailed => "precondition_failed",
            Rule::GoalNotReached => "goal_not_reached",
            Rule::MalformedAnswer => "malformed_answer",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One broken rule: which, by whom, when, and what would fix it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Violation {
    /// The rule broken.
    pub rule: Rule,
    /// The activities involved, most responsible first.
    pub activities: Vec<String>,
    /// The instant the rule is broken, when there is one.
    pub time: Option<i64>,
    /// What is wrong, naming the constraint, the activities and the times.
    pub message: String,
    /// What change to the plan would repair it.
    pub hint: String,
}

impl Violation {
    /// A violation of `rule`; benchmark answer readers use it for the rules of their own
    /// answer forms (a malformed line, an action the simulator refuses).
    pub fn new(
        rule: Rule,
        activities: Vec<String>,
        time: Option<i64>,
        message: String,
        hint: String,
    ) -> Self {
        Violation {
            rule,
            activities,
            time,
            message,
            hint,
        }
    }
}

/// The line the CLI prints: `rule [activities] at time: message Fix: hint`.
impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.rule)?;
        if !self.activities.is_empty() {
            write!(f, " [{}]", self.activities.join(", "))?;
        }
        if let Some(t) = self.time {
            write!(f, " at {t}")?;
        }
        write!(f, ": {} Fix: {}", self.message, self.hint)
    }
}

/// The verdict on a plan. Metrics are computed from the activities that could be placed
/// even when the plan is invalid; they mean what their names say only when `valid`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Name of the instance the plan was checked against.
    pub instance: String,
    /// True iff there are no violations.
    pub valid: bool,
    /// Every violation found, grouped by rule in checking order, never just the first.
    pub violations: Vec<Violation>,
    /// Latest end of any placed activity; `None` when nothing could be placed.
    pub makespan: Option<i64>,
    /// Total time the agents spend busy (whole pieces, or the first `k` units of
    /// `busy_for` activities), summed over agents.
    pub busy_time: i64,
    /// `m × makespan − busy_time` for `m` limited agents: for a valid plan, the sum over the
    /// agents of (makespan − that agent's busy time), agents that do nothing included.
    /// `None` when agents are unlimited or nothing was placed.
    pub agent_idle_time: Option<i64>,
    /// The largest number of agents busy at one instant: how many agents the plan needs.
    pub peak_agents: u32,
}

impl Report {
    /// The report on an answer that cannot be read as a plan of `instance` at all: one
    /// [`Rule::MalformedAnswer`] violation saying where and why, nothing placed. An
    /// unreadable answer is the model's invalid answer, judged like any other.
    pub fn malformed_answer(instance: &str, message: String, hint: String) -> Report {
        Report {
            instance: instance.to_string(),
            valid: false,
            violations: vec![Violation::new(
                Rule::MalformedAnswer,
                Vec::new(),
                None,
                message,
                hint,
            )],
            makespan: None,
            busy_time: 0,
            agent_idle_time: None,
            peak_agents: 0,
        }
    }

    /// Human-readable text: one line per violation (rule, activities, time, message, hint),
    /// then one summary line.
    pub fn render_text(&self) -> String {
        let mut out = String::new();
        for v in &self.violations {
            let _ = writeln!(out, "{v}");
        }
        let _ = writeln!(out, "{}", self.summary());
        out
    }

    /// When the plan stops for good in a deadlock: the time of its latest
    /// [`Rule::Deadlock`] violation. Such a plan never finishes, so it has no makespan; the
    /// end of what it did place is not one (averaged with real makespans, it flatters).
    pub fn deadlocked_at(&self) -> Option<i64> {
        self.violations
            .iter()
            .filter(|v| v.rule == Rule::Deadlock)
            .map(|v| v.time.unwrap_or(0))
            .max()
    }

    fn summary(&self) -> String {
        let mut metrics = match (self.deadlocked_at(), self.makespan) {
            (Some(t), _) => format!("deadlocked at {t}, so no makespan"),
            (None, Some(c)) => format!("makespan {c}"),
            (None, None) => "nothing placed".to_string(),
        };
        if let Some(idle) = self.agent_idle_time {
            let _ = write!(metrics, ", agent idle time {idle}");
        }
        if self.valid {
            return format!("{}: valid plan, {metrics}", self.instance);
        }
        let mut per_rule: BTreeMap<Rule, usize> = BTreeMap::new();
        for v in &self.violations {
            *per_rule.entry(v.rule).or_default() += 1;
        }
        let counts: Vec<String> = per_rule.iter().map(|(r, n)| format!("{n} {r}")).collect();
        let n = self.violations.len();
        format!(
            "{}: INVALID plan, {n} violation{} ({}); {metrics}",
            self.instance,
            if n == 1 { "" } else { "s" },
            counts.join(", ")
        )
    }
}

/// A plan measured against a known optimum.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// The known optimal makespan compared against.
    pub optimum: i64,
    /// The plan's makespan, `None` when the plan is invalid (an invalid plan has no
    /// meaningful makespan to compare).
    pub makespan: Option<i64>,
    /// makespan / optimum (1.0 is optimal). Below 1.0 means the "optimum" is wrong.
    pub ratio: Option<f64>,
    /// makespan − optimum: the time the plan loses.
    pub lost_time: Option<i64>,
}

/// Compares a verified plan with a known optimal makespan. Only valid plans get a ratio:
/// benchmarks score invalid plans separately (e.g. a time penalty for a failed plan).
pub fn compare(report: &Report, optimum: i64) -> Comparison {
    let makespan = report.makespan.filter(|_| report.valid);
    let ratio = makespan.and_then(|c| match (c, optimum) {
        (0, 0) => Some(1.0),
        (_, o) if o > 0 => Some(c as f64 / o as f64),
        _ => None,
    });
    Comparison {
        optimum,
        makespan,
        ratio,
        lost_time: makespan.map(|c| c - optimum),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(violations: Vec<Violation>) -> Report {
        Report {
            instance: "k".into(),
            valid: violations.is_empty(),
            violations,
            makespan: Some(12),
            busy_time: 20,
            agent_idle_time: Some(4),
            peak_agents: 2,
        }
    }

    #[test]
    fn text_has_one_line_per_violation_and_a_summary() {
        let v = Violation::new(
            Rule::PrecedenceViolated,
            vec!["b".into(), "a".into()],
            Some(3),
            "`b` starts at 3, before `a` ends at 5".into(),
            "start `b` at 5 or later".into(),
        );
        let text = report(vec![v.clone(), v]).render_text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert_eq!(
            lines[0],
            "precedence_violated [b, a] at 3: `b` starts at 3, before `a` ends at 5 Fix: start `b` at 5 or later"
        );
        assert!(
            lines[2].contains("INVALID plan, 2 violations (2 precedence_violated)"),
            "{text}"
        );
    }

    #[test]
    fn valid_summary_shows_metrics() {
        let text = report(vec![]).render_text();
        assert_eq!(text.trim(), "k: valid plan, makespan 12, agent idle time 4");
    }

    #[test]
    fn rule_json_name_matches_display() {
        let json = serde_json::to_string(&Rule::ResourceOverCapacity).unwrap();
        assert_eq!(json, format!("\"{}\"", Rule::ResourceOverCapacity));
    }

    #[test]
    fn compare_gives_a_ratio_only_for_valid_plans() {
        let c = compare(&report(vec![]), 10);
        assert_eq!(c.ratio, Some(1.2));
        assert_eq!(c.lost_time, Some(2));
        let bad = Violation::new(Rule::Deadlock, vec![], None, String::new(), String::new());
        let c = compare(&report(vec![bad]), 10);
        assert_eq!((c.makespan, c.ratio), (None, None));
    }
}
