//! The critical chain: walking back from the activity that ends last, each activity is
//! reached from the one whose rule stops it earlier (see the crate docs). Every step covers
//! `[from, to)` — the link `[from, ready)` (a lag, a setup, a release; negative for a negative
//! lag), the unforced wait `[ready, start)` and the activity `[start, to)` — and each step's
//! `to` is the next one's `from`, so the chain runs without gaps from 0 to the makespan.

use std::collections::HashSet;

use serde::Serialize;

use super::earliest::Earliest;
use super::Reason;
use makespan_verify::placed::Placements;

/// One activity on the critical chain and the link that leads to it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChainStep {
    /// The activity.
    pub activity: String,
    /// Its agent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent: Option<u32>,
    /// Where the chain reaches this step: the previous step's `to`, or 0.
    pub from: i64,
    /// The activity's earliest start (with everything else unchanged).
    pub ready: i64,
    /// Its start.
    pub start: i64,
    /// Where the chain leaves it: its end, or where the next activity's rule links to it
    /// (the end of its busy part, a start-to-start lag), never before its start.
    pub to: i64,
    /// Why it could not start before `ready`.
    pub reason: Reason,
    /// The activity behind the reason (the previous step), when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
}

impl ChainStep {
    /// `ready − from`: the link's own length (a lag, a setup, a release).
    pub fn link(&self) -> i64 {
        self.ready - self.from
    }

    /// `start − ready`: the unforced wait.
    pub fn wait(&self) -> i64 {
        self.start - self.ready
    }
}

/// The least total unforced wait on a chain from activity `i` back to time 0 over forward
/// links (the blocker starts no later than `i`'s earliest start), with the choice of link
/// that achieves it (index into `i`'s binding reasons); `None` where no forward chain
/// reaches 0 (only backward links, or a cycle of zero-length links).
struct Best {
    memo: Vec<Option<Option<(i64, usize)>>>,
    open: Vec<bool>,
}

impl Best {
    fn of(&mut self, plan: &Placements, earliest: &[Earliest], i: usize) -> Option<(i64, usize)> {
        if let Some(known) = self.memo[i] {
            return known;
        }
        if self.open[i] {
            return None;
        }
        self.open[i] = true;
        let e = &earliest[i];
        let wait = plan.all[i].start() - e.earliest;
        let mut best: Option<(i64, usize)> = None;
        for (k, (_, by)) in e.binding.iter().enumerate() {
            let rest = match by {
                None => Some(0),
                Some(b) if plan.all[*b].start() <= e.earliest => {
                    self.of(plan, earliest, *b).map(|x| x.0)
                }
                Some(_) => None,
            };
            if let Some(rest) = rest {
                if best.is_none_or(|(w, _)| wait + rest < w) {
                    best = Some((wait + rest, k));
                }
            }
        }
        self.open[i] = false;
        self.memo[i] = Some(best);
        best
    }
}

pub(super) fn critical_chain(plan: &Placements, earliest: &[Earliest]) -> Vec<ChainStep> {
    let Some(last) = (0..plan.all.len())
        .max_by_key(|&i| (plan.all[i].end(), plan.all[i].start(), std::cmp::Reverse(i)))
    else {
        return Vec::new();
    };
    let mut best = Best {
        memo: vec![None; plan.all.len()],
        open: vec![false; plan.all.len()],
    };
    let mut steps = Vec::new();
    let mut visited = HashSet::new();
    let (mut current, mut to) = (last, plan.all[last].end());
    loop {
        visited.insert(current);
        let a = &plan.all[current];
        let e = &earliest[current];
        let ready = e.earliest;
        let usable = |by: &Option<usize>, forward: bool| match by {
            Some(b) => !visited.contains(b) && (!forward || plan.all[*b].start() <= ready),
            None => true,
        };
        // The forward link on the chain with the least unforced wait back to 0, else the
        // first usable link in the order of the rules.
        let least = best
            .of(plan, earliest, current)
            .map(|(_, k)| &e.binding[k])
            .filter(|(_, by)| usable(by, true));
        let chosen = least
            .or_else(|| e.binding.iter().find(|(_, by)| usable(by, true)))
            .or_else(|| e.binding.iter().find(|(_, by)| usable(by, false)));
        let (reason, by) = match chosen {
            Some((r, by)) => (r.clone(), *by),
            None => (
                e.binding.first().map_or(Reason::Start, |b| b.0.clone()),
                None,
            ),
        };
        let from = match by {
            Some(b) => ready.clamp(plan.all[b].start(), plan.all[b].end()),
            None => 0,
        };
        steps.push(ChainStep {
            activity: a.id().to_string(),
            agent: a.agent,
            from,
            ready,
            start: a.start(),
            to,
            reason,
            after: by.map(|b| plan.all[b].id().to_string()),
        });
        match by {
            Some(b) => {
                current = b;
                to = from;
            }
            None => break,
        }
    }
    steps.reverse();
    steps
}
