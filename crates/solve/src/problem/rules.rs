//! The two rules of the solvers' view that are not capacities over intervals: an agent
//! needed at one instant only (a step that runs on its own once started), and resource states that
//! activities set at their start and require at their start (oven temperature).

use std::collections::BTreeMap;

use serde_json::Value;

use makespan_model::instance::{AgentUse, Instance};

/// Activity `activity` needs one unit of `resource` (the agent pool) at `start + offset`
/// without keeping it busy: at that instant fewer than the capacity may be busy with work
/// that strictly spans it (an agent can start something in between two tasks, not in the
/// middle of one). Preemptible work never spans an instant: it is split into unit chunks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InstantNeed {
    pub activity: usize,
    pub resource: usize,
    pub offset: i64,
}

/// A state (`oven.temperature`): its possible values, who sets which value at its start,
/// and who requires which value at its start. Initially the state has no value; a value
/// persists until another is set; two different values may not be set at one instant.
#[derive(Debug, Clone, PartialEq)]
pub struct StateVariable {
    pub key: String,
    pub values: Vec<Value>,
    /// `(activity, value index)`.
    pub setters: Vec<(usize, usize)>,
    /// `(activity, value index)`.
    pub requirers: Vec<(usize, usize)>,
}

/// The start-instant needs of an instance whose agents are the resource `agents` (none
/// when agents are unlimited: an agent is then always free).
pub fn instants(instance: &Instance, agents: Option<usize>) -> Vec<InstantNeed> {
    let Some(resource) = agents else {
        return Vec::new();
    };
    instance
        .activities
        .iter()
        .enumerate()
        .filter(|(_, a)| a.agent == AgentUse::StartInstant)
        .map(|(activity, _)| InstantNeed {
            activity,
            resource,
            offset: 0,
        })
        .collect()
}

/// Every state some activity sets or requires, in key order.
pub fn states(instance: &Instance) -> Vec<StateVariable> {
    let mut by_key: BTreeMap<&str, StateVariable> = BTreeMap::new();
    for (j, a) in instance.activities.iter().enumerate() {
        for (setting, map) in [(true, &a.sets), (false, &a.requires)] {
            for (key, value) in map {
                let var = by_key.entry(key.as_str()).or_insert_with(|| StateVariable {
                    key: key.clone(),
                    values: Vec::new(),
                    setters: Vec::new(),
                    requirers: Vec::new(),
                });
                let v = match var.values.iter().position(|x| x == value) {
                    Some(v) => v,
                    None => {
                        var.values.push(value.clone());
                        var.values.len() - 1
                    }
                };
                if setting {
                    var.setters.push((j, v));
                } else {
                    var.requirers.push((j, v));
                }
            }
        }
    }
    by_key.into_values().collect()
}
