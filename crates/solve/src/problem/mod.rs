//! The solvers' view of an instance: activities by index, resource demands as offsets from
//! the start, agents as one more resource, and the temporal network. Built once per solve;
//! bounds, heuristics and the MILP all read it, none of them reads the [`Instance`].

pub mod expand;
pub mod network;
mod rules;
pub mod sequencing;

use std::collections::HashMap;

use makespan_model::instance::{AgentUse, Instance};

use expand::Expanded;
use network::{Network, PositiveCycle};
pub use rules::{InstantNeed, StateVariable};
use sequencing::{compile_holds, HoldSpan, SetupMatrix};

/// `amount` units of `resource` over `[start + from, start + to)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Demand {
    pub resource: usize,
    pub amount: i64,
    pub from: i64,
    pub to: i64,
}

/// Why an instance cannot be solved as given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// No schedule exists.
    #[error("{0}")]
    Infeasible(String),
    /// The instance uses a feature this version of the solver does not handle.
    #[error("not supported yet: {0}")]
    Unsupported(String),
}

/// A compiled, solver-ready instance.
#[derive(Debug, Clone)]
pub struct Problem {
    /// Activity ids; node `j < n` of the network is `names[j]`.
    pub names: Vec<String>,
    pub durations: Vec<i64>,
    pub demands: Vec<Vec<Demand>>,
    pub capacities: Vec<i64>,
    pub resource_names: Vec<String>,
    /// Index of the agent pool among the resources, when agents are limited.
    pub agent_resource: Option<usize>,
    pub network: Network,
    /// Earliest starts (heads) of every network node.
    pub earliest: Vec<i64>,
    /// Setup times between stations of the one agent, if the instance has any that bind.
    pub setups: Option<SetupMatrix>,
    /// Resources held from one activity to another.
    pub holds: Vec<HoldSpan>,
    /// Activities that need an agent at one instant without keeping it busy.
    pub instants: Vec<InstantNeed>,
    /// Resource states that activities set and require.
    pub states: Vec<StateVariable>,
    /// The time scaling and preemption chunks between the instance and these activities.
    pub expanded: Expanded,
}

impl Problem {
    /// Compiles a validated instance. Refuses features the solver does not support yet, and
    /// instances that are infeasible for a reason visible before search (positive lag
    /// cycles, a demand above capacity).
    pub fn compile(instance: &Instance) -> Result<Problem, Refusal> {
        Problem::compile_with(instance, false)
    }

    /// [`Problem::compile`] in units of the gcd of every time of the instance (see
    /// [`crate::problem::expand`]): the solve pipeline's form, with models up to 60 times smaller.
    pub fn compile_scaled(instance: &Instance) -> Result<Problem, Refusal> {
        Problem::compile_with(instance, true)
    }

    fn compile_with(instance: &Instance, scale: bool) -> Result<Problem, Refusal> {
        unsupported_features(instance)?;
        let expanded = Expanded::new(instance, scale);
        let instance = &expanded.instance;
        let index = instance.activity_index();
        let names: Vec<String> = instance.activities.iter().map(|a| a.id.clone()).collect();
        let durations: Vec<i64> = instance.activities.iter().map(|a| a.duration).collect();

        let mut resource_names: Vec<String> =
            instance.resources.iter().map(|r| r.id.clone()).collect();
        let mut capacities: Vec<i64> = instance
            .resources
            .iter()
            .map(|r| r.capacity.into())
            .collect();
        let agent_resource = instance.agents.map(|m| {
            resource_names.push("agents".into());
            capacities.push(m.into());
            capacities.len() - 1
        });
        let resource_index: HashMap<&str, usize> = instance
            .resources
            .iter()
            .enumerate()
            .map(|(i, r)| (r.id.as_str(), i))
            .collect();

        let mut demands = Vec::with_capacity(durations.len() + 2);
        for a in &instance.activities {
            let mut own = Vec::new();
            if let (Some(agents), Some((from, to))) =
                (agent_resource, a.agent.busy_span(a.duration))
            {
                own.push(Demand {
                    resource: agents,
                    amount: 1,
                    from,
                    to,
                });
            }
            for u in &a.uses {
                let r = resource_index[u.resource.as_str()];
                if i64::from(u.amount) > capacities[r] {
                    return Err(Refusal::Infeasible(format!(
                        "activity \"{}\" needs {} units of \"{}\", which has capacity {}",
                        a.id, u.amount, u.resource, capacities[r]
                    )));
                }
                if u.amount > 0 && a.duration > 0 {
                    own.push(Demand {
                        resource: r,
                        amount: u.amount.into(),
                        from: 0,
                        to: a.duration,
                    });
                }
            }
            demands.push(own);
        }
        demands.extend([Vec::new(), Vec::new()]);
        let setups = SetupMatrix::compile(instance)?;
        let holds = compile_holds(instance, &capacities)?;

        let mut network = Network::new(&durations);
        for (j, a) in instance.activities.iter().enumerate() {
            if let Some(r) = a.release {
                network.add(network.origin(), j, r, true);
            }
            if let Some(d) = a.deadline {
                network.add(j, network.origin(), a.duration - d, false);
            }
        }
        for p in &instance.precedences {
            let (i, j) = (index[p.before.as_str()], index[p.after.as_str()]);
            let anchor = p.anchor(durations[i]);
            network.add(i, j, anchor + p.min_lag, true);
            if let Some(max) = p.max_lag {
                network.add(j, i, -(anchor + max), false);
            }
        }
        for h in &holds {
            // A hold ends no earlier than it starts: S_until + p_until ≥ S_from.
            if let (Some(from), Some(until)) = (h.from, h.until) {
                network.add(from, until, -durations[until], false);
            }
        }
        let earliest = network
            .earliest_starts()
            .map_err(|cycle| Refusal::Infeasible(describe_cycle(&cycle, &names, &network)))?;

        let instants = crate::problem::rules::instants(instance, agent_resource);
        let states = crate::problem::rules::states(instance);
        let mut full_durations = durations;
        full_durations.extend([0, 0]);
        Ok(Problem {
            names,
            durations: full_durations,
            demands,
            capacities,
            resource_names,
            agent_resource,
            network,
            earliest,
            setups,
            holds,
            instants,
            states,
            expanded,
        })
    }

    /// Number of real activities (network nodes `0..n`). A problem is no collection, so it
    /// has no `is_empty`.
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// The critical-path lower bound on the makespan.
    pub fn critical_path(&self) -> i64 {
        self.earliest[self.network.sink()]
    }

    /// Whether resources or agents constrain the schedule at all; without them the
    /// earliest-start schedule is optimal.
    pub fn has_capacity_limits(&self) -> bool {
        self.setups.is_some()
            || !self.holds.is_empty()
            || !self.instants.is_empty()
            || !self.states.is_empty()
            || self
                .demands
                .iter()
                .flatten()
                .any(|d| d.amount > 0 && d.to > d.from)
    }

    /// Whether the schedule depends on an agent's sequence or on resources held across
    /// activities, which only the dispatching heuristic and the MILP follow.
    pub fn has_sequencing(&self) -> bool {
        self.setups.is_some() || !self.holds.is_empty()
    }

    /// The same problem backwards in time (for right-justification).
    pub fn mirrored(&self) -> Problem {
        let network = self.network.mirrored(&self.durations);
        let demands = self
            .demands
            .iter()
            .zip(&self.durations)
            .map(|(ds, &p)| {
                ds.iter()
                    .map(|d| Demand {
                        from: p - d.to,
                        to: p - d.from,
                        ..*d
                    })
                    .collect()
            })
            .collect();
        let earliest = network
            .earliest_starts()
            .expect("mirroring preserves the absence of positive cycles");
        Problem {
            names: self.names.clone(),
            durations: self.durations.clone(),
            demands,
            capacities: self.capacities.clone(),
            resource_names: self.resource_names.clone(),
            agent_resource: self.agent_resource,
            network,
            earliest,
            // Backwards in time a sequence runs in reverse and a hold from its end.
            setups: self.setups.as_ref().map(|m| SetupMatrix {
                time: (0..m.time.len())
                    .map(|u| (0..m.time.len()).map(|v| m.time[v][u]).collect())
                    .collect(),
                ..m.clone()
            }),
            holds: self
                .holds
                .iter()
                .map(|h| HoldSpan {
                    from: h.until,
                    until: h.from,
                    ..*h
                })
                .collect(),
            instants: self
                .instants
                .iter()
                .map(|i| InstantNeed {
                    offset: self.durations[i.activity] - i.offset,
                    ..*i
                })
                .collect(),
            // States are set and required at starts, which a mirror turns into ends; the
            // mirror only orders the backward pass, whose result the forward pass checks.
            states: Vec::new(),
            expanded: Expanded {
                piece_lags: Vec::new(),
                ..self.expanded.clone()
            },
        }
    }
}

fn unsupported_features(instance: &Instance) -> Result<(), Refusal> {
    for a in &instance.activities {
        // Chunks of one activity may land on different agents, which the assignment of
        // one agent per activity cannot express.
        if a.preemptible && instance.agents.is_some_and(|m| m > 1) && a.agent != AgentUse::None {
            return Err(Refusal::Unsupported(format!(
                "activity \"{}\" is preemptible and needs an agent, with more than one agent",
                a.id
            )));
        }
        if let Some(key) = a.sets.keys().find(|k| a.requires.contains_key(*k)) {
            return Err(Refusal::Unsupported(format!(
                "activity \"{}\" both sets and requires the state \"{key}\"",
                a.id
            )));
        }
    }
    Ok(())
}

fn describe_cycle(cycle: &PositiveCycle, names: &[String], network: &Network) -> String {
    let name = |i: usize| {
        if i == network.origin() {
            "time 0".to_string()
        } else if i == network.sink() {
            "the end".to_string()
        } else {
            format!("\"{}\"", names[i])
        }
    };
    if cycle.nodes.is_empty() {
        return "the lags and time windows contradict each other (a positive cycle)".into();
    }
    let mut path: Vec<String> = cycle.nodes.iter().map(|&i| name(i)).collect();
    path.push(name(cycle.nodes[0]));
    format!(
        "the minimum and maximum lags form a positive cycle, so they cannot all hold: {}",
        path.join(" → ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use makespan_model::instance::{Activity, Precedence};

    fn instance(agents: Option<u32>) -> Instance {
        Instance {
            activities: vec![Activity::new("a", 2), Activity::new("b", 3)],
            precedences: vec![Precedence::finish_to_start("a", "b", 1)],
            ..Instance::new("t", agents)
        }
    }

    #[test]
    fn agents_become_a_resource_and_lags_become_arcs() {
        let p = Problem::compile(&instance(Some(2))).unwrap();
        assert_eq!(p.agent_resource, Some(0));
        assert_eq!(p.capacities, vec![2]);
        assert_eq!(p.critical_path(), 6);
    }

    #[test]
    fn positive_cycle_is_infeasible_and_named() {
        let mut inst = instance(None);
        inst.precedences
            .push(Precedence::finish_to_start("b", "a", 0));
        let err = Problem::compile(&inst).unwrap_err();
        let text = err.to_string();
        assert!(matches!(err, Refusal::Infeasible(_)));
        assert!(text.contains("\"a\"") && text.contains("\"b\""), "{text}");
    }

    #[test]
    fn setting_and_requiring_one_state_is_refused_as_unsupported() {
        let mut inst = instance(Some(1));
        inst.resources.push(makespan_model::instance::Resource {
            id: "oven".into(),
            capacity: 1,
            states: vec!["temperature".into()],
        });
        let a = &mut inst.activities[0];
        a.sets.insert("oven.temperature".into(), 350.into());
        a.requires.insert("oven.temperature".into(), 350.into());
        let err = Problem::compile(&inst).unwrap_err();
        assert!(err.to_string().starts_with("not supported yet"), "{err}");
    }
}
