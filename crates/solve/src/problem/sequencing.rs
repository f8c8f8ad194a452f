//! What the solvers need beyond activity-level demands: sequence-dependent setup times
//! between stations on one agent, and resources held across activities. Compiled once per
//! problem from the instance's `setups` and `holds`.

use std::collections::HashMap;

use crate::problem::Refusal;
use makespan_model::instance::Instance;

/// Setup times between the stations of one agent's consecutive busy intervals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupMatrix {
    /// Station of each activity (`None`: not at a station, never constrained).
    pub station: Vec<Option<usize>>,
    pub station_names: Vec<String>,
    /// `time[u][v]`: the agent needs this long between busy work at `u` and at `v`.
    pub time: Vec<Vec<i64>>,
}

impl SetupMatrix {
    /// The setup between activity `i` and activity `j` (0 when either has no station).
    pub fn between(&self, i: usize, j: usize) -> i64 {
        match (self.station[i], self.station[j]) {
            (Some(u), Some(v)) => self.time[u][v],
            _ => 0,
        }
    }

    /// The longest setup out of station `u`.
    pub fn longest_from(&self, u: usize) -> i64 {
        self.time[u].iter().copied().max().unwrap_or(0)
    }

    /// Compiles the instance's setups: `None` when there are none or when agents are
    /// unlimited (every activity can have an agent of its own, so setups never bind).
    /// Refuses more than one agent (the time-indexed model keeps agents as one pool and
    /// cannot follow each agent's sequence) and setup times that break the triangle
    /// inequality (a detour would then be faster, and the MILP's rows assume it is not).
    pub fn compile(instance: &Instance) -> Result<Option<SetupMatrix>, Refusal> {
        if instance.setups.is_empty() || instance.agents.is_none() {
            return Ok(None);
        }
        if instance.agents != Some(1) {
            return Err(Refusal::Unsupported(
                "sequence-dependent setup times with more than one agent (one agent is supported)"
                    .into(),
            ));
        }
        let mut index: HashMap<&str, usize> = HashMap::new();
        let mut station_names = Vec::new();
        let station: Vec<Option<usize>> = instance
            .activities
            .iter()
            .map(|a| {
                a.station.as_deref().map(|s| {
                    *index.entry(s).or_insert_with(|| {
                        station_names.push(s.to_string());
                        station_names.len() - 1
                    })
                })
            })
            .collect();
        let k = station_names.len();
        let mut time = vec![vec![0i64; k]; k];
        for s in &instance.setups {
            if let (Some(&u), Some(&v)) = (index.get(s.from.as_str()), index.get(s.to.as_str())) {
                if u != v {
                    time[u][v] = time[u][v].max(s.time);
                }
            }
        }
        for u in 0..k {
            for v in 0..k {
                for w in 0..k {
                    if time[u][w] > time[u][v] + time[v][w] {
                        return Err(Refusal::Unsupported(format!(
                            "setup times that break the triangle inequality: \"{}\" → \"{}\" takes {}, but via \"{}\" only {}",
                            station_names[u],
                            station_names[w],
                            time[u][w],
                            station_names[v],
                            time[u][v] + time[v][w]
                        )));
                    }
                }
            }
        }
        Ok(Some(SetupMatrix {
            station,
            station_names,
            time,
        }))
    }
}

/// `amount` units of `resource` from the start of activity `from` (time 0 if `None`) to the
/// end of activity `until` (the end of the schedule if `None`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HoldSpan {
    pub resource: usize,
    pub amount: i64,
    pub from: Option<usize>,
    pub until: Option<usize>,
}

/// The instance's holds by index; a hold that asks for more than the capacity is infeasible.
pub fn compile_holds(instance: &Instance, capacities: &[i64]) -> Result<Vec<HoldSpan>, Refusal> {
    let activity = instance.activity_index();
    let resource: HashMap<&str, usize> = instance
        .resources
        .iter()
        .enumerate()
        .map(|(i, r)| (r.id.as_str(), i))
        .collect();
    let mut spans = Vec::new();
    for h in &instance.holds {
        let r = resource[h.resource.as_str()];
        if i64::from(h.amount) > capacities[r] {
            return Err(Refusal::Infeasible(format!(
                "a hold needs {} units of \"{}\", which has capacity {}",
                h.amount, h.resource, capacities[r]
            )));
        }
        if h.amount == 0 {
            continue;
        }
        spans.push(HoldSpan {
            resource: r,
            amount: h.amount.into(),
            from: h.from.as_deref().map(|id| activity[id]),
            until: h.until.as_deref().map(|id| activity[id]),
        });
    }
    Ok(spans)
}
