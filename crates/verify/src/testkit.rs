//! Small builders for the verifier's unit tests.

use makespan_model::instance::{Activity, Instance, Precedence, INSTANCE_FORMAT};
use makespan_model::schedule::{Piece, ScheduledActivity};

use super::{verify, Rule};

/// An instance with `agents` agents, whole non-preemptible activities of the given
/// durations and finish-to-start precedences `(before, after, min_lag)`.
pub fn instance(
    agents: Option<u32>,
    activities: &[(&str, i64)],
    precedences: &[(&str, &str, i64)],
) -> Instance {
    Instance {
        format: INSTANCE_FORMAT.into(),
        name: "test".into(),
        time_unit: Default::default(),
        agents,
        resources: vec![],
        activities: activities
            .iter()
            .map(|&(id, d)| Activity::new(id, d))
            .collect(),
        precedences: precedences
            .iter()
            .map(|&(b, a, lag)| Precedence::finish_to_start(b, a, lag))
            .collect(),
        setups: vec![],
        holds: vec![],
        objective: Default::default(),
        source: None,
    }
}

/// `id` on `agent` over `[start, start + duration)`.
pub fn at(id: &str, agent: Option<u32>, start: i64, duration: i64) -> ScheduledActivity {
    ScheduledActivity::at(id, agent, start, duration)
}

/// `id` on `agent` in the given pieces.
pub fn pieces(id: &str, agent: Option<u32>, pieces: &[(i64, i64)]) -> ScheduledActivity {
    ScheduledActivity {
        activity: id.into(),
        agent,
        pieces: pieces.iter().map(|&(s, e)| Piece(s, e)).collect(),
    }
}

/// The rules the verifier reports, in report order.
pub fn rules(instance: &Instance, schedule: &[ScheduledActivity]) -> Vec<Rule> {
    verify(instance, schedule)
        .violations
        .iter()
        .map(|v| v.rule)
        .collect()
}

/// Asserts the schedule verifies clean.
pub fn assert_valid(instance: &Instance, schedule: &[ScheduledActivity]) {
    let report = verify(instance, schedule);
    assert!(report.valid, "{}", report.render_text());
}
