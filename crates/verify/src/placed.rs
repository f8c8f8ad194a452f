//! The schedule as the timing rules see it: one placement per known activity (its first
//! entry, if that entry has usable pieces), with its agent normalised and what it asks of
//! that agent. Coverage and piece rules look at the raw schedule; every other rule looks
//! only at placements, so one bad entry is reported once instead of cascading.
//!
//! Public so that explanations and pictures (`makespan-explain`) judge a plan by the same
//! placements the verifier checks.

use std::collections::{HashMap, HashSet};

use makespan_model::instance::{Activity, AgentUse, Instance};
use makespan_model::schedule::{Piece, ScheduledActivity};

/// An activity the timing rules can reason about.
#[derive(Debug, Clone)]
pub struct Placed<'a> {
    /// The instance's activity.
    pub activity: &'a Activity,
    /// The agent; with exactly one agent in the instance an unassigned entry is agent 0.
    pub agent: Option<u32>,
    /// Non-empty, sorted by start, every piece with start ≤ end (and start < end for a
    /// positive duration).
    pub pieces: Vec<Piece>,
}

impl Placed<'_> {
    /// The activity's id.
    pub fn id(&self) -> &str {
        &self.activity.id
    }

    /// The start of its first piece.
    pub fn start(&self) -> i64 {
        self.pieces[0].start()
    }

    /// The latest end of its pieces.
    pub fn end(&self) -> i64 {
        self.pieces
            .iter()
            .map(Piece::end)
            .max()
            .unwrap_or(self.start())
    }

    /// Whether the activity asks anything of an agent: busy time, or its start instant.
    /// A zero-length activity (a milestone such as "Enjoy!") occupies nobody.
    pub fn needs_agent(&self) -> bool {
        self.activity.agent == AgentUse::StartInstant || !self.busy().is_empty()
    }

    /// The intervals during which the agent is busy: every piece for `whole`, the first
    /// `k` units of processing for `busy_for`, nothing otherwise. Zero-length parts are
    /// dropped: they occupy nobody.
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

    /// The instant at which the activity needs an agent without keeping it busy: the start
    /// of a `start` activity. A zero-duration `whole` activity is a milestone ("Enjoy!")
    /// and needs nobody, as the solver also assumes.
    pub fn instant(&self) -> Option<i64> {
        match self.activity.agent {
            AgentUse::StartInstant => Some(self.start()),
            _ => None,
        }
    }

    /// Busy intervals that an instant need cannot interrupt: those of non-preemptible
    /// activities (a preemptible one can pause for zero time while its agent starts another).
    pub fn blocking(&self) -> Vec<Piece> {
        if self.activity.preemptible {
            Vec::new()
        } else {
            self.busy()
        }
    }
}

/// All placements of a schedule, indexed by activity id.
#[derive(Debug, Clone)]
pub struct Placements<'a> {
    /// The instance the schedule is of.
    pub instance: &'a Instance,
    /// The placements, in the schedule's order.
    pub all: Vec<Placed<'a>>,
    index: HashMap<&'a str, usize>,
}

impl<'a> Placements<'a> {
    /// The placements of `schedule`.
    pub fn new(instance: &'a Instance, schedule: &[ScheduledActivity]) -> Self {
        let activities: HashMap<&str, &Activity> = instance
            .activities
            .iter()
            .map(|a| (a.id.as_str(), a))
            .collect();
        let mut seen: HashSet<&str> = HashSet::new();
        let mut all = Vec::new();
        let mut index = HashMap::new();
        for entry in schedule {
            let Some(&activity) = activities.get(entry.activity.as_str()) else {
                continue;
            };
            if !seen.insert(activity.id.as_str()) {
                continue;
            }
            if entry.pieces.iter().any(|p| p.end() < p.start()) {
                continue;
            }
            // Empty pieces of a positive-duration activity occupy nothing (and are a
            // bad piece already); they do not count as a split either.
            let mut pieces: Vec<Piece> = entry
                .pieces
                .iter()
                .copied()
                .filter(|p| activity.duration == 0 || p.start() < p.end())
                .collect();
            if pieces.is_empty() {
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
        Placements {
            instance,
            all,
            index,
        }
    }

    /// The index in [`Placements::all`] of the activity `id`, if placed.
    pub fn position(&self, id: &str) -> Option<usize> {
        self.index.get(id).copied()
    }

    /// The placement of the activity `id`, if placed.
    pub fn get(&self, id: &str) -> Option<&Placed<'a>> {
        self.position(id).map(|i| &self.all[i])
    }

    /// Latest end of any placement (0 for none).
    pub fn makespan(&self) -> i64 {
        self.all.iter().map(Placed::end).max().unwrap_or(0)
    }

    /// Whether agents are checked as one pool: limited agents and some activity that needs
    /// one without naming it.
    pub fn pooled(&self) -> bool {
        self.instance.agents.is_some() && self.needing_agent().any(|p| p.agent.is_none())
    }

    /// Placements that ask something of an agent.
    pub fn needing_agent(&self) -> impl Iterator<Item = &Placed<'a>> {
        self.all.iter().filter(|p| p.needs_agent())
    }
}
