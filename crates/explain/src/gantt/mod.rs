//! Gantt pictures of a schedule: SVG ([`svg()`]) and a self-contained HTML page ([`html()`]) that
//! needs no network to view. One lane per agent (packed lanes for activities without one)
//! and per resource (a cumulative one as its usage profile); bars labelled with the activity
//! (its label when it has one); the critical chain in orange; unforced waits hatched;
//! violations in red with their message; the reference schedule below on the same time
//! axis. Same input, same bytes: pictures can be tested and committed.

mod draw;
mod layout;
mod page;

use makespan_model::instance::Instance;
use makespan_model::schedule::ScheduledActivity;

use crate::explain::Explanation;

pub use page::html;

/// What to draw: a schedule of an instance, its explanation, and optionally a reference
/// schedule drawn below it.
#[derive(Debug, Clone, Copy)]
pub struct Chart<'a> {
    /// The instance.
    pub instance: &'a Instance,
    /// The plan's schedule.
    pub schedule: &'a [ScheduledActivity],
    /// Its explanation ([`crate::explain()`]).
    pub explanation: &'a Explanation,
    /// A schedule to compare with (an optimum), drawn below on the same time axis.
    pub reference: Option<&'a [ScheduledActivity]>,
}

impl Chart<'_> {
    /// The title line: instance, makespan and the reference's.
    pub fn title(&self) -> String {
        let e = self.explanation;
        let mut title = format!("{} — makespan {} {}s", e.instance, e.makespan, e.time_unit);
        if let Some(r) = self.reference {
            title += &format!(", reference {}", makespan_model::schedule::makespan(r));
        }
        if !e.valid {
            title += &format!(" — INVALID ({} violations)", e.violations.len());
        }
        title
    }

    /// The violations as numbered legend lines.
    fn legend(&self) -> Vec<String> {
        self.explanation
            .violations
            .iter()
            .enumerate()
            .map(|(k, v)| {
                let at = v.time.map_or(String::new(), |t| format!(" at {t}"));
                format!("{}.{at} {}: {}", k + 1, v.rule, v.message)
            })
            .collect()
    }
}

/// The chart as an SVG document.
pub fn svg(chart: &Chart<'_>) -> String {
    let sections = layout::sections(
        chart.instance,
        chart.schedule,
        chart.explanation,
        chart.reference,
    );
    draw::document(&chart.title(), &sections, &chart.legend()).to_string()
}
