//! Why an activity could not start one unit earlier than its earliest start.

use std::fmt;

use makespan_model::instance::Relation;
use serde::Serialize;

/// The rule that forbids starting an activity earlier (with everything else unchanged).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum Reason {
    /// The plan starts at time 0.
    Start,
    /// The activity's release time.
    Release {
        /// The earliest start the instance allows.
        release: i64,
    },
    /// A precedence: `before` has not ended (or started) plus the minimum lag.
    Precedence {
        /// The predecessor.
        before: String,
        /// Whether the lag counts from its finish or its start.
        relation: Relation,
        /// The minimum lag.
        min_lag: i64,
    },
    /// A successor's time window: starting earlier would leave `after` more than `max_lag`
    /// behind.
    MaxLag {
        /// The successor.
        after: String,
        /// The maximum lag.
        max_lag: i64,
    },
    /// The agent (or, for a pool, every agent) was busy with these activities.
    Agent {
        /// The agent; `None` for a pool of unassigned agents.
        agent: Option<u32>,
        /// What they were doing.
        busy: Vec<String>,
    },
    /// The agent needs `time` to move from `after`'s station to this one.
    Setup {
        /// The agent.
        agent: u32,
        /// The activity before on that agent.
        after: String,
        /// Its station.
        from: String,
        /// This activity's station.
        to: String,
        /// The setup time.
        time: i64,
    },
    /// The resource was full: these held it.
    Resource {
        /// The resource.
        resource: String,
        /// Its holders at the last instant it was full.
        holders: Vec<String>,
    },
    /// A state: a requirement not yet set earlier, or a value that would clash with `by`.
    State {
        /// `resource.state`.
        key: String,
        /// The activity that sets (or requires) the value in the way; `None` if nothing sets
        /// it.
        by: Option<String>,
    },
}

impl Reason {
    /// Order of preference when several rules bind at once: the instance's own rules
    /// (precedences, windows) before the plan's choices (agents, setups, resources, states).
    pub(crate) fn rank(&self) -> u8 {
        match self {
            Reason::Precedence { .. } => 0,
            Reason::Release { .. } => 1,
            Reason::Start => 2,
            Reason::Agent { .. } => 3,
            Reason::Setup { .. } => 4,
            Reason::Resource { .. } => 5,
            Reason::State { .. } => 6,
            Reason::MaxLag { .. } => 7,
        }
    }

    /// Whether the link is an ordering the plan chose between two activities the instance
    /// does not order (agent, setup, resource, state), rather than one the instance imposes.
    pub fn is_ordering_choice(&self) -> bool {
        matches!(
            self,
            Reason::Agent { .. }
                | Reason::Setup { .. }
                | Reason::Resource { .. }
                | Reason::State { .. }
        )
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |ids: &[String]| {
            ids.iter()
                .map(|id| format!("`{id}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            Reason::Start => write!(f, "the start of the plan"),
            Reason::Release { release } => write!(f, "its release time {release}"),
            Reason::Precedence {
                before,
                relation,
                min_lag,
            } => {
                let event = match relation {
                    Relation::FinishToStart => "the end",
                    Relation::StartToStart => "the start",
                };
                match min_lag {
                    0 => write!(f, "precedence: {event} of `{before}`"),
                    lag => write!(f, "precedence: {event} of `{before}` + lag {lag}"),
                }
            }
            Reason::MaxLag { after, max_lag } => write!(
                f,
                "time window: `{after}` must start at most {max_lag} after it"
            ),
            Reason::Agent {
                agent: Some(agent),
                busy,
            } => write!(f, "agent {agent} busy with {}", list(busy)),
            Reason::Agent { agent: None, busy } => {
                write!(f, "every agent busy, with {}", list(busy))
            }
            Reason::Setup {
                agent,
                after,
                from,
                to,
                time,
            } => write!(
                f,
                "setup: agent {agent} moves from `{from}` (after `{after}`) to `{to}` in {time}"
            ),
            Reason::Resource { resource, holders } => {
                write!(f, "resource `{resource}` full, held by {}", list(holders))
            }
            Reason::State { key, by: Some(by) } => write!(f, "state `{key}`, set by `{by}`"),
            Reason::State { key, by: None } => write!(f, "state `{key}`, which nothing sets"),
        }
    }
}
