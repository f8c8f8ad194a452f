//! Plan metrics: makespan, agent busy and idle time, and how many agents the plan needs.

use super::placed::Placements;

pub(super) struct Metrics {
    pub makespan: Option<i64>,
    pub busy_time: i64,
    pub agent_idle_time: Option<i64>,
    pub peak_agents: u32,
}

pub(super) fn measure(placements: &Placements) -> Metrics {
    let makespan = placements.all.iter().map(|p| p.end()).max();
    let busy: Vec<(i64, i64)> = placements
        .all
        .iter()
        .flat_map(|p| p.busy())
        .map(|b| (b.start(), b.end()))
        .collect();
    let busy_time = busy
        .iter()
        .fold(0i64, |sum, &(s, e)| sum.saturating_add(e - s));
    let agent_idle_time = match (placements.instance.agents, makespan) {
        // Overlapping pieces of an invalid plan count twice in `busy_time`: never below 0.
        (Some(m), Some(c)) => Some(
            i64::from(m)
                .saturating_mul(c)
                .saturating_sub(busy_time)
                .max(0),
        ),
        _ => None,
    };
    let mut events: Vec<(i64, i32)> = busy.iter().flat_map(|&(s, e)| [(s, 1), (e, -1)]).collect();
    events.sort();
    let (mut now, mut peak) = (0i32, 0i32);
    for (_, delta) in events {
        now += delta;
        peak = peak.max(now);
    }
    let instant_only = placements.all.iter().any(|p| p.instant().is_some());
    let peak = u32::try_from(peak)
        .unwrap_or(0)
        .max(u32::from(instant_only));
    Metrics {
        makespan,
        busy_time,
        agent_idle_time,
        peak_agents: peak,
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::{at, instance};
    use crate::verify;
    use makespan_model::instance::AgentUse;

    #[test]
    fn idle_time_counts_every_agent_up_to_the_makespan() {
        // Two agents, makespan 6: agent 0 busy 6, agent 1 busy 2 → idle 0 + 4.
        let inst = instance(Some(2), &[("a", 6), ("b", 2)], &[]);
        let report = verify(&inst, &[at("a", Some(0), 0, 6), at("b", Some(1), 0, 2)]);
        assert_eq!(report.makespan, Some(6));
        assert_eq!(report.busy_time, 8);
        assert_eq!(report.agent_idle_time, Some(4));
        assert_eq!(report.peak_agents, 2);
    }

    #[test]
    fn unattended_work_is_idle_time_and_unlimited_agents_have_none() {
        let mut inst = instance(Some(1), &[("bake", 10)], &[]);
        inst.activities[0].agent = AgentUse::BusyFor(2);
        let report = verify(&inst, &[at("bake", None, 0, 10)]);
        assert_eq!((report.busy_time, report.agent_idle_time), (2, Some(8)));
        inst.agents = None;
        assert_eq!(
            verify(&inst, &[at("bake", None, 0, 10)]).agent_idle_time,
            None
        );
    }
}
