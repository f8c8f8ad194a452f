//! Small builders for the verifier's unit tests.

use makespan_model::instance::Instance;
use makespan_model::schedule::{Piece, ScheduledActivity};

use super::{verify, Rule};

pub use makespan_testkit::instance;

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
