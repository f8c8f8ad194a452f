//! The instance's rules as the checker reads them, straight from the instance model.

use makespan_model::instance::{Activity, Instance, Relation};

/// The activity with this id.
pub fn activity<'a>(instance: &'a Instance, id: &str) -> Result<&'a Activity, String> {
    instance
        .activities
        .iter()
        .find(|a| a.id == id)
        .ok_or_else(|| format!("no activity \"{id}\" in the instance"))
}

/// The largest `w` such that the instance forces `start(after) ≥ start(before) + w`
/// through one precedence (its minimum lag, or read backwards its maximum lag).
///
/// A minimum lag after the end of a split activity still holds from its start plus its
/// duration (its end is at least that). A maximum lag after that end bounds the end only,
/// which may lie anywhere after the start plus the duration, so it is not read backwards.
pub fn lag(instance: &Instance, before: &str, after: &str) -> Option<i64> {
    instance
        .precedences
        .iter()
        .filter_map(|p| {
            let from = activity(instance, &p.before).ok()?;
            if p.before == before && p.after == after {
                Some(p.anchor(from.duration) + p.min_lag)
            } else if p.before == after
                && p.after == before
                && (p.relation == Relation::StartToStart || !splittable(from))
            {
                // start(p.after) ≤ start(p.before) + anchor + max.
                Some(-(p.anchor(from.duration) + p.max_lag?))
            } else {
                None
            }
        })
        .max()
}

/// Whether a schedule may split the activity into pieces: preemptible and at least two
/// time units long (pieces are whole units). Its end is then only known to be at least its
/// start plus its duration.
pub fn splittable(activity: &Activity) -> bool {
    activity.preemptible && activity.duration >= 2
}

/// The earliest start the instance gives an activity on its own: its release, or 0.
pub fn release(activity: &Activity) -> i64 {
    activity.release.unwrap_or(0).max(0)
}

/// The time an activity keeps one agent busy (`None` for the agents: unlimited or not
/// needed).
pub fn agent_time(activity: &Activity) -> i64 {
    activity
        .agent
        .busy_span(activity.duration)
        .map_or(0, |(from, to)| to - from)
}

/// The units of `resource` an activity holds for its whole duration.
pub fn units(activity: &Activity, resource: &str) -> i64 {
    activity
        .uses
        .iter()
        .filter(|u| u.resource == resource)
        .map(|u| i64::from(u.amount))
        .sum()
}
