//! Which states the search may drop: one reached no earlier than an identical state, or than
//! a state that *dominates* it.
//!
//! A state `A` (at instant `t_A`) dominates `B` (at `t_B ≥ t_A`) when both have started the
//! same activities and set the same state values, and every age that matters in either
//! is either *pinned* (equal in both) or *monotone* (`A`'s at least `B`'s; an age that no
//! longer matters counts as infinite):
//! - pinned: an age that bounds a later start from above (an activity not started yet must
//!   start within a maximum lag of it) or that a piece lag reads (an anchor, or the chunk
//!   before a chunk still to start), [`Rules::pinned`];
//! - monotone: every other age, which only lower-bounds later starts (minimum lags, the
//!   end of the schedule) or keeps a resource busy. An older activity meets its lags
//!   sooner and frees its resources sooner.
//!
//! Then the rest of any schedule through `B`, moved `t_B − t_A` earlier, completes `A`:
//! every rule that ties it to what has started holds (relative rules hold because `A`'s
//! activities started no later, pinned ages at the same distance; there are no release
//! dates), so `A` has a completion ending no later. That completion may break a canonical
//! form (`Expander::canonical`, `Expander::eager_omitted`), but their exchanges only move
//! steps at or after `t_A`, except for the run of a chunk done just before `t_A`
//! ([`Rules::chunk_run`]). So `A` dominates only when it is in no such run: then a
//! canonical completion of `A` ends no later, and the search explores it. Identical states
//! need no such care: their completions are the same.

use std::hash::{Hash, Hasher};

use rustc_hash::{FxHashMap, FxHasher};

use super::rules::Rules;
use super::{Bits, Key, MAX_STATE_VARIABLES};

/// What a dominating state must share with the state it dominates, hashed once when the
/// state is made: it is looked up two or three times.
#[derive(Clone, PartialEq, Eq)]
struct Signature {
    hash: u64,
    started: Bits,
    values: [u8; MAX_STATE_VARIABLES],
    pinned: Vec<(u16, u16)>,
}

impl Hash for Signature {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// A state as dominance reads it: its signature and its monotone ages.
pub(super) struct Split {
    signature: Signature,
    monotone: Vec<(u16, u16)>,
}

impl Split {
    pub(super) fn new(rules: &Rules, key: &Key) -> Split {
        let (pinned, monotone): (Vec<_>, Vec<_>) = key
            .ages
            .iter()
            .partition(|&&(i, _)| rules.pinned(usize::from(i), &key.started));
        let mut hasher = FxHasher::default();
        (key.started, key.values, &pinned).hash(&mut hasher);
        Split {
            signature: Signature {
                hash: hasher.finish(),
                started: key.started,
                values: key.values,
                pinned,
            },
            monotone,
        }
    }

    /// How young the monotone ages are (an age gone counts as infinitely old): a state
    /// dominates only states at least as young.
    pub(super) fn youth(&self) -> u64 {
        self.monotone
            .iter()
            .map(|&(_, a)| u64::from(u16::MAX - a) + 1)
            .sum()
    }
}

/// A state seen: its monotone ages, the earliest instant it was reached at, and whether it
/// is in a run of chunks (and so may dominate only its identical copies).
struct Entry {
    monotone: Vec<(u16, u16)>,
    at: i64,
    in_run: bool,
}

impl Entry {
    /// Whether this state dominates one of the same signature with these monotone ages
    /// (reached no earlier: the caller checks the instants).
    fn dominates(&self, monotone: &[(u16, u16)]) -> bool {
        !self.in_run && at_least(&self.monotone, monotone)
    }
}

/// The states seen, grouped by what dominance needs equal.
#[derive(Default)]
pub(super) struct Seen {
    groups: FxHashMap<Signature, Vec<Entry>>,
}

/// How a state compares with the states seen.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Verdict {
    /// Not seen, and dominated by none.
    Fresh,
    /// Seen at an instant no later, or dominated by a state seen at an instant no later.
    Dropped,
}

impl Seen {
    /// Whether the state `split` at `now` is dropped: identical to a state seen by `now`, or
    /// dominated by one.
    pub(super) fn verdict(&self, split: &Split, now: i64) -> Verdict {
        let dropped = self.groups.get(&split.signature).is_some_and(|entries| {
            entries.iter().any(|e| {
                e.at <= now && (e.monotone == split.monotone || e.dominates(&split.monotone))
            })
        });
        match dropped {
            true => Verdict::Dropped,
            false => Verdict::Fresh,
        }
    }

    /// Marks the state `split` seen at `now` unless it is dropped (see [`Seen::verdict`]);
    /// `in_run`: it is in a run of chunks ([`Rules::chunk_run`]).
    pub(super) fn insert(&mut self, split: &Split, now: i64, in_run: bool) -> Verdict {
        if self.verdict(split, now) == Verdict::Dropped {
            return Verdict::Dropped;
        }
        let entries = match self.groups.get_mut(&split.signature) {
            Some(entries) => entries,
            None => self.groups.entry(split.signature.clone()).or_default(),
        };
        // Seen before, but later (reached by a longer step): it is reached earlier now.
        if let Some(e) = entries.iter_mut().find(|e| e.monotone == split.monotone) {
            e.at = now;
            return Verdict::Fresh;
        }
        entries.push(Entry {
            monotone: split.monotone.clone(),
            at: now,
            in_run,
        });
        Verdict::Fresh
    }

    /// Whether a state seen at `now` is dominated by another seen by then (so its
    /// expansion adds nothing: the other's covers it).
    pub(super) fn outdone(&self, split: &Split, now: i64) -> bool {
        self.groups.get(&split.signature).is_some_and(|entries| {
            entries.iter().any(|e| {
                e.at <= now && e.monotone != split.monotone && e.dominates(&split.monotone)
            })
        })
    }
}

/// Whether every age in `b` is at most the same activity's age in `a` (an activity missing
/// from `a` is infinitely old, one missing from `b` too); both sorted by activity.
fn at_least(a: &[(u16, u16)], b: &[(u16, u16)]) -> bool {
    let mut a = a.iter().peekable();
    for &(i, age) in b {
        if a.next_if(|&&(j, _)| j < i).is_some() {
            // An age `a` has and `b` does not: `b`'s is infinite.
            return false;
        }
        match a.next_if(|&&(j, _)| j == i) {
            Some(&(_, mine)) if mine < age => return false,
            _ => {}
        }
    }
    a.next().is_none()
}

#[cfg(test)]
mod tests {
    use super::at_least;

    #[test]
    fn older_or_gone_ages_dominate() {
        assert!(at_least(&[(1, 5)], &[(1, 3)]));
        assert!(at_least(&[], &[(1, 3), (4, 2)]));
        assert!(at_least(&[(4, 2)], &[(1, 3), (4, 2)]));
        assert!(!at_least(&[(1, 2)], &[(1, 3)]));
        // An age that matters in `a` only: it is finite there, infinite in `b`.
        assert!(!at_least(&[(0, 9)], &[(1, 3)]));
        assert!(!at_least(&[(1, 3), (7, 9)], &[(1, 3)]));
    }
}
