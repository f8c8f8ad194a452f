//! Each agent's time from 0 to the makespan: busy, idle while nothing was ready, idle while
//! work was ready. Work is *ready* at `t` when an activity that needs an agent has not
//! started yet (`t < start`) and the instance's own rules would let it start at `t`: its
//! release has passed and every predecessor's anchor plus the minimum lag is at or before
//! `t` (agents, resources, states and setups aside: those are what the plan's ordering
//! decides). With a pool of unassigned agents, the idle agents at `t` count as waiting for
//! work up to the number of ready activities.

use serde::Serialize;

use makespan_model::instance::Relation;

use makespan_verify::placed::Placements;

/// One agent's (or the pool's) time, in the instance's unit; the three parts sum to the
/// makespan (times the agents in the pool).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AgentTime {
    /// The agent; `None` for the pool of unassigned agents.
    pub agent: Option<u32>,
    /// Agents in this row: 1, or the pool's size.
    pub agents: u32,
    /// Time busy.
    pub busy: i64,
    /// Idle time while no work was ready.
    pub idle_nothing_ready: i64,
    /// Idle time while work was ready.
    pub idle_work_ready: i64,
}

pub(super) fn agent_times(plan: &Placements) -> Vec<AgentTime> {
    let Some(m) = plan.instance.agents else {
        return Vec::new();
    };
    let makespan = plan.makespan();
    let pooled = plan.pooled();
    let busy: Vec<(Option<u32>, i64, i64)> = plan
        .all
        .iter()
        .flat_map(|p| {
            p.busy()
                .into_iter()
                .map(move |b| (p.agent, b.start(), b.end()))
        })
        .collect();
    // (ready from, started at) of every activity that needs an agent.
    let work: Vec<(i64, i64)> = plan
        .all
        .iter()
        .filter(|p| p.needs_agent())
        .filter_map(|p| Some((ready_at(plan, p.id())?, p.start())))
        .collect();
    let mut cuts: Vec<i64> = vec![0, makespan];
    cuts.extend(busy.iter().flat_map(|&(_, s, e)| [s, e]));
    cuts.extend(work.iter().flat_map(|&(r, s)| [r, s]));
    cuts.retain(|&t| (0..=makespan).contains(&t));
    cuts.sort_unstable();
    cuts.dedup();
    let rows: Vec<Option<u32>> = if pooled {
        vec![None]
    } else {
        let top = busy
            .iter()
            .filter_map(|b| b.0)
            .map(|g| g + 1)
            .max()
            .unwrap_or(0);
        (0..m.max(top)).map(Some).collect()
    };
    let mut out: Vec<AgentTime> = rows
        .iter()
        .map(|&agent| AgentTime {
            agent,
            agents: if agent.is_some() { 1 } else { m },
            busy: 0,
            idle_nothing_ready: 0,
            idle_work_ready: 0,
        })
        .collect();
    for w in cuts.windows(2) {
        let (t, len) = (w[0], w[1] - w[0]);
        let ready = work.iter().filter(|&&(r, s)| r <= t && t < s).count() as i64;
        for row in &mut out {
            let running = busy
                .iter()
                .filter(|&&(g, s, e)| (row.agent.is_none() || g == row.agent) && s <= t && t < e)
                .count() as i64;
            let capacity = i64::from(row.agents);
            let working = running.min(capacity);
            let waiting = (capacity - working).min(ready);
            row.busy += working * len;
            row.idle_work_ready += waiting * len;
            row.idle_nothing_ready += (capacity - working - waiting) * len;
        }
    }
    out
}

/// When the instance's own rules let `id` start: its release and every placed predecessor's
/// anchor plus the minimum lag; `None` when a predecessor is not placed.
fn ready_at(plan: &Placements, id: &str) -> Option<i64> {
    let a = plan.get(id)?;
    let mut t = a.activity.release.unwrap_or(0).max(0);
    for p in plan
        .instance
        .precedences
        .iter()
        .filter(|p| p.after == id && p.before != id)
    {
        let b = plan.get(&p.before)?;
        let anchor = match p.relation {
            Relation::FinishToStart => b.end(),
            Relation::StartToStart => b.start(),
        };
        t = t.max(anchor.saturating_add(p.min_lag));
    }
    Some(t)
}
