//! The schedule as the explanation and the pictures see it: one placement per known activity
//! (its first entry with usable pieces), its agent normalised (with one agent, an entry
//! without one is agent 0), and what it asks of that agent. These are the verifier's own
//! conventions (`makespan_verify`'s module docs), restated here because the verifier keeps its
//! placements private: the explanation must judge "could have started earlier" by the same
//! rules the verifier checks.

use std::collections::HashMap;

use makespan_model::instance::{Activity, AgentUse, Instance};
use makespan_model::schedule::{Piece, ScheduledActivity};

/// One activity where the plan puts it.
#[derive(Debug, Clone)]
pub(crate) struct Placed<'a> {
    pub activity: &'a Activity,
    pub agent: Option<u32>,
    /// Non-empty, sorted, each with start ≤ end (start < end for a positive duration).
    pub pieces: Vec<Piece>,
}

impl Placed<'_> {
    pub fn id(&self) -> &str {
        &self.activity.id
    }

    pub fn start(&self) -> i64 {
        self.pieces[0].start()
    }

    pub fn end(&self) -> i64 {
        self.pieces
            .iter()
            .map(Piece::end)
            .max()
            .unwrap_or(self.start())
    }

    /// The intervals the agent is busy: every piece for `whole`, the first `k` units of
    /// processing for `busy_for`, nothing otherwise; no empty interval.
    pub fn busy(&self) -> Vec<Piece> {
        let mut left = match self.activity.agent {
            AgentUse::Whole => i64::MAX,
            AgentUse::BusyFor(k) => k,
            AgentUse::StartInstant | AgentUse::None => return Vec::new(),
        };
        let mut busy = Vec::new();
        for p in &self.pieces {
            if left <= 0 {
                break;
            }
            let len = p.end().saturating_sub(p.start()).min(left);
            if len > 0 {
                busy.push(Piece(p.start(), p.start().saturating_add(len)));
                left -= len;
            }
        }
        busy
    }

    /// Busy intervals an instant need of the same agent may not fall strictly inside.
    pub fn blocking(&self) -> Vec<Piece> {
        if self.activity.preemptible {
            Vec::new()
        } else {
            self.busy()
        }
    }

    /// The start instant of a `start` activity, which needs an agent at that instant only.
    pub fn instant(&self) -> Option<i64> {
        (self.activity.agent == AgentUse::StartInstant).then(|| self.start())
    }

    /// Whether the activity asks anything of an agent.
    pub fn needs_agent(&self) -> bool {
        self.instant().is_some() || !self.busy().is_empty()
    }
}

/// Every placement of a schedule, indexed by activity id.
#[derive(Debug, Clone)]
pub(crate) struct Plan<'a> {
    pub instance: &'a Instance,
    pub all: Vec<Placed<'a>>,
    index: HashMap<&'a str, usize>,
}

impl<'a> Plan<'a> {
    pub fn new(instance: &'a Instance, schedule: &[ScheduledActivity]) -> Self {
        let activities: HashMap<&str, &Activity> = instance
            .activities
            .iter()
            .map(|a| (a.id.as_str(), a))
            .collect();
        let mut all: Vec<Placed<'a>> = Vec::new();
        let mut index = HashMap::new();
        for entry in schedule {
            let Some(&activity) = activities.get(entry.activity.as_str()) else {
                continue;
            };
            if index.contains_key(activity.id.as_str()) {
                continue;
            }
            if entry.pieces.iter().any(|p| p.end() < p.start()) {
                index.insert(activity.id.as_str(), usize::MAX);
                continue;
            }
            let mut pieces: Vec<Piece> = entry
                .pieces
                .iter()
                .copied()
                .filter(|p| activity.duration == 0 || p.start() < p.end())
                .collect();
            if pieces.is_empty() {
                // The id is seen (usize::MAX): a later entry is a duplicate, not a placement.
                index.insert(activity.id.as_str(), usize::MAX);
                continue;
            }
            pieces.sort();
            let agent = entry.agent.or((instance.agents == Some(1)).then_some(0));
            index.insert(activity.id.as_str(), all.len());
            all.push(Placed {
                activity,
                agent,
                pieces,
            });
        }
        index.retain(|_, i| *i != usize::MAX);
        Plan {
            instance,
            all,
            index,
        }
    }

    pub fn position(&self, id: &str) -> Option<usize> {
        self.index.get(id).copied()
    }

    pub fn get(&self, id: &str) -> Option<&Placed<'a>> {
        self.position(id).map(|i| &self.all[i])
    }

    /// Latest end of any placement (0 for none).
    pub fn makespan(&self) -> i64 {
        self.all.iter().map(Placed::end).max().unwrap_or(0)
    }

    /// Whether agents are checked as one pool: limited agents and some activity that needs
    /// one without naming it (the verifier's rule).
    pub fn pooled(&self) -> bool {
        self.instance.agents.is_some()
            && self
                .all
                .iter()
                .any(|p| p.needs_agent() && p.agent.is_none())
    }
}
