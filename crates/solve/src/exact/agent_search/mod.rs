//! An exact search over time for problems with one agent, such as a single cook:
//! activities of any length that keep the agent busy, autonomous activities that need it at
//! their start instant only, preemption as unit chunks with maximum lags on every piece,
//! resources held over whole activities, and resource states (oven temperature).
//!
//! The search walks time one unit at a time. At each instant it chooses which activities
//! start now (any set that fits). A state is what has started, the ages of the started
//! activities whose age still matters (running ones, lags still to be met, maximum lags
//! and piece lags still pending), and the value of every resource state. Every rule is
//! relative to "now", so a state reached later than an identical one is dropped; so is one
//! reached no earlier than a state that has started the same activities, each no later
//! (where an age only lower-bounds later starts or keeps a resource busy) or at the same
//! distance (where it bounds a start from above): its completions, moved earlier,
//! complete the other (`dominance`). Lower bounds (the longest path still ahead of each
//! activity, the work left on each resource followed by the shortest tail after it) prune
//! every state that cannot end below the best schedule known, so an exhausted search
//! proves that schedule optimal.
//! So do start windows (`bounds::windows`: earliest and latest starts over every lag,
//! maximum lags included, and the latest start that still ends below the best known) and
//! a preemptive earliest-due-date check of each unary resource's remaining work against
//! them (`bounds::meets_due_dates`): each is a relaxation of every shorter completion.
//! A state's windows also tell its expansion which activities must start at its instant
//! (their latest start is now) and which cannot (a later head, or a maximum lag back to an
//! activity that cannot start early enough), so the children that break them are never
//! made; and an instant's children are kept in order of arrival and age, so one that
//! another dominates is dropped before it is bounded.
//!
//! Two canonical forms cut the choices, each an exchange argument that turns any schedule
//! into one of the form without making it longer (`Expander::canonical`,
//! `Expander::eager_omitted`): a run of interruptible work that nothing else depends on
//! goes on unless the agent switches to something that could not have taken its place a
//! step earlier; and an autonomous activity whose resources only its successors use starts
//! at the first instant it can. `tests/agent_search.rs` checks the search against the MILP,
//! which has neither, on random instances.
//!
//! With several threads (`--threads`), the states of one instant are expanded, and their
//! new children bounded, in parallel: expansion reads only the states seen before that
//! instant, bounding only the best makespan known when it began, and the search keeps the
//! children in order between the two, so it visits the same states whatever the number of
//! threads. A child whose bound prunes it is still marked seen: reached again at its instant
//! or later, its bound could be no lower.
//!
//! It is the exact method for such problems because the time-indexed MILP's relaxation is
//! weak on unit chunks and start-instant rules, while the states here stay few: the agent
//! does one thing at a time and the gaps it may leave are bounded by the slack.
mod bounds;
mod dominance;
mod expand;
mod rules;

use std::collections::BTreeMap;
use std::time::Instant;

use crate::exact::unit_search::SearchOutcome;
use crate::problem::Problem;
use crate::Cancel;
use bounds::{lower_bound, Scratch};
use dominance::{Seen, Split, Verdict};
use expand::{Edge, Expander, Found};
use rules::Rules;

/// States kept at most (memory stays below about 1 GiB).
const MAX_STATES: usize = 4_000_000;

/// Resource states a problem may have (their values are kept inline in each state).
const MAX_STATE_VARIABLES: usize = 4;

/// Words of the started set: at most 256 activities.
const WORDS: usize = 4;

type Bits = [u64; WORDS];

/// A chunk after the first of a piece-lagged activity: the chunk before it, and
/// `(from, limit)` pairs: a piece starting at this chunk must start within `limit` of
/// the start of `from`.
type Piece = (usize, Vec<(usize, i64)>);

/// States (or children to bound) of one instant per thread at least: fewer are not worth
/// starting a thread for.
const PER_THREAD: usize = 64;

fn has(bits: &Bits, j: usize) -> bool {
    bits[j >> 6] >> (j & 63) & 1 != 0
}

fn insert(bits: &mut Bits, j: usize) {
    bits[j >> 6] |= 1 << (j & 63);
}

/// Whether the search applies: one agent, at most 256 activities and 4 resource states, no
/// setups or holds, no release dates, every demand from the activity's start, every
/// start-instant need at the start, and no rule leaving the end of the schedule.
pub fn applies(problem: &Problem) -> bool {
    let Some(pool) = problem.agent_resource else {
        return false;
    };
    let net = &problem.network;
    problem.capacities[pool] == 1
        && problem.len() <= WORDS * 64
        && problem.states.len() <= MAX_STATE_VARIABLES
        && problem.setups.is_none()
        && problem.holds.is_empty()
        && problem.demands.iter().flatten().all(|d| d.from == 0)
        && problem.instants.iter().all(|i| i.offset == 0)
        && net.arcs().iter().all(|a| {
            (a.from != net.origin() || a.weight <= 0)
                && a.from != net.sink()
                && (a.to != net.origin() || a.from < problem.len())
        })
}

/// Finds the shortest schedule with makespan below `bound`, within `seconds`, on up to
/// `threads` threads.
pub fn search(
    problem: &Problem,
    bound: i64,
    seconds: f64,
    cancel: &Cancel,
    threads: usize,
) -> SearchOutcome {
    let Some(rules) = Rules::new(problem) else {
        // Times too long for the state encoding: prove nothing.
        return SearchOutcome::GaveUp;
    };
    Search {
        rules: &rules,
        clock: Instant::now(),
        seconds,
        cancel,
        threads: threads.max(1),
        best: bound,
        best_node: None,
        nodes: vec![Node {
            parent: u32::MAX,
            first: 0,
            len: 0,
            at: 0,
        }],
        moves: Vec::new(),
        seen: Seen::default(),
        layers: BTreeMap::new(),
    }
    .run()
}

/// A search state at some instant: started activities, ages that matter (sorted by
/// activity, capped), and the value of every state (`u8::MAX`: none yet).
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    started: Bits,
    ages: Vec<(u16, u16)>,
    values: [u8; MAX_STATE_VARIABLES],
}

impl Key {
    fn age(&self, i: usize) -> Option<i64> {
        self.ages
            .binary_search_by_key(&(i as u16), |&(a, _)| a)
            .ok()
            .map(|k| i64::from(self.ages[k].1))
    }
}

struct State {
    key: Key,
    split: Split,
    node: u32,
    /// Activities every completion shorter than the best starts at the state's instant
    /// (their windows close there).
    forced: Bits,
    /// Activities no completion shorter than the best starts at the state's instant.
    blocked: Bits,
}

/// Parent pointer: the activities started at instant `at` on the way here are
/// `moves[first..first + len]`.
struct Node {
    parent: u32,
    first: u32,
    len: u32,
    at: i64,
}

struct Search<'a> {
    rules: &'a Rules,
    clock: Instant,
    seconds: f64,
    cancel: &'a Cancel,
    threads: usize,
    /// Only schedules ending strictly before this are wanted.
    best: i64,
    best_node: Option<(u32, i64)>,
    nodes: Vec<Node>,
    moves: Vec<u16>,
    /// Every state reached (kept or pruned), with the earliest instant it was reached at.
    seen: Seen,
    /// States still to expand, by instant (the lower bound when queued, too).
    layers: BTreeMap<i64, Vec<(State, i64)>>,
}

impl Search<'_> {
    fn run(mut self) -> SearchOutcome {
        let root = Key {
            started: [0; WORDS],
            ages: Vec::new(),
            values: [u8::MAX; MAX_STATE_VARIABLES],
        };
        self.layers.insert(
            0,
            vec![(
                State {
                    split: Split::new(self.rules, &root),
                    key: root,
                    node: 0,
                    forced: [0; WORDS],
                    blocked: [0; WORDS],
                },
                0,
            )],
        );
        let rules = self.rules;
        while let Some((t, layer)) = self.layers.pop_first() {
            if t >= self.best {
                break;
            }
            // Expanding and bounding, the costly parts, run in parallel; keeping and
            // dropping runs in order between them.
            let best = self.best;
            let expander = Expander {
                rules,
                seen: (self.threads > 1).then_some(&self.seen),
            };
            let found = in_parallel(&layer, self.threads, |states| {
                let mut found = Vec::new();
                for (state, bound) in states {
                    // (A state reached earlier on another path since it was queued is
                    // expanded twice: rare, and cheaper than looking it up again.) One that
                    // a state found since dominates is not: that state's completions
                    // cover its own.
                    if *bound < best && !self.seen.outdone(&state.split, t) {
                        self.running()?;
                        expander.expand(state, t, &mut found);
                    }
                }
                Some(found)
            });
            let Some(mut found) = found else {
                return SearchOutcome::GaveUp;
            };
            // Children that may dominate others first (reached sooner, older ages, fewer
            // that matter), so the ones they dominate are dropped before they are bounded.
            found.sort_by_cached_key(|f| (f.edge.now, f.split.youth()));
            let fresh = self.first_reached(found.into_iter());
            let bounds = in_parallel(&fresh, self.threads, |children| {
                let mut scratch = Scratch::new(rules);
                children
                    .iter()
                    .map(|(key, _, edge)| {
                        self.running()?;
                        let bound = lower_bound(rules, best, &mut scratch, key, edge.now);
                        Some((bound, scratch.forced, scratch.blocked))
                    })
                    .collect()
            });
            let Some(bounds) = bounds else {
                return SearchOutcome::GaveUp;
            };
            for ((key, split, edge), (bound, forced, blocked)) in fresh.into_iter().zip(bounds) {
                if bound < self.best {
                    let node = self.push(&edge, &key.started);
                    self.layers.entry(edge.now).or_default().push((
                        State {
                            key,
                            split,
                            node,
                            forced,
                            blocked,
                        },
                        bound,
                    ));
                }
            }
            if self.nodes.len() > MAX_STATES {
                return SearchOutcome::GaveUp;
            }
        }
        match self.best_node {
            Some((node, makespan)) => SearchOutcome::Optimal {
                starts: self.starts(node),
                makespan,
            },
            None => SearchOutcome::NoneShorter,
        }
    }

    /// `Some` while the time limit and the caller allow the search to go on.
    fn running(&self) -> Option<()> {
        let over = self.clock.elapsed().as_secs_f64() > self.seconds || self.cancel.is_cancelled();
        (!over).then_some(())
    }

    /// The children of one instant, in order: complete schedules shorter than the best are
    /// recorded, and every other child neither seen by its instant nor dominated is marked
    /// seen and returned. A copy reached later, on the same instant or after, is dropped:
    /// its bound could be no lower.
    fn first_reached(&mut self, found: impl Iterator<Item = Found>) -> Vec<(Key, Split, Edge)> {
        let mut fresh = Vec::new();
        for Found { key, split, edge } in found {
            if key.started == self.rules.all {
                let node = self.push(&edge, &key.started);
                let makespan = self.makespan(&self.starts(node));
                if makespan < self.best {
                    self.best = makespan;
                    self.best_node = Some((node, makespan));
                }
                continue;
            }
            let in_run = self.rules.chunk_run(&key).is_some();
            if self.seen.insert(&split, edge.now, in_run) == Verdict::Dropped {
                continue;
            }
            fresh.push((key, split, edge));
        }
        fresh
    }

    /// The end of the schedule with these starts.
    fn makespan(&self, starts: &[i64]) -> i64 {
        let r = self.rules;
        (0..r.n)
            .flat_map(|i| r.into_sink[i].iter().map(move |&w| starts[i] + w))
            .fold(0, i64::max)
    }

    /// A node for the child reached by `edge`, where `started` have started.
    fn push(&mut self, edge: &Edge, started: &Bits) -> u32 {
        let first = self.moves.len() as u32;
        for (w, (&now, &before)) in started.iter().zip(&edge.before).enumerate() {
            let mut fresh = now & !before;
            while fresh != 0 {
                self.moves
                    .push((w * 64) as u16 + fresh.trailing_zeros() as u16);
                fresh &= fresh - 1;
            }
        }
        self.nodes.push(Node {
            parent: edge.parent,
            first,
            len: self.moves.len() as u32 - first,
            at: edge.at,
        });
        (self.nodes.len() - 1) as u32
    }

    /// Start times read back along the parent pointers.
    fn starts(&self, mut node: u32) -> Vec<i64> {
        let mut starts = vec![0; self.rules.n];
        while node != u32::MAX {
            let Node {
                parent,
                first,
                len,
                at,
            } = self.nodes[node as usize];
            for &j in &self.moves[first as usize..(first + len) as usize] {
                starts[usize::from(j)] = at;
            }
            node = parent;
        }
        starts
    }
}

/// `work` on `items` split into up to `threads` runs in order (the first on this thread, the
/// others on scoped threads of their own, so no other job of a thread pool slips in while
/// one waits), the results joined in order; `None` if a run gave up.
fn in_parallel<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    work: impl Fn(&[T]) -> Option<Vec<R>> + Sync,
) -> Option<Vec<R>> {
    let runs = threads.min(items.len() / PER_THREAD).max(1);
    if runs == 1 {
        return work(items);
    }
    let mut chunks = items.chunks(items.len().div_ceil(runs));
    let first = chunks.next().unwrap_or_default();
    let work = &work;
    std::thread::scope(|scope| {
        let others: Vec<_> = chunks.map(|c| scope.spawn(move || work(c))).collect();
        let mut out = work(first);
        for other in others {
            let more = other
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            out = out.zip(more).map(|(mut out, more)| {
                out.extend(more);
                out
            });
        }
        out
    })
}
