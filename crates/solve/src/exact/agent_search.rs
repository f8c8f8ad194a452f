//! An exact search over time for problems with one agent, such as Recipe2Plan's cook:
//! activities of any length that keep the agent busy, autonomous activities that need it at
//! their start instant only, preemption as unit chunks with maximum lags on every piece,
//! resources held over whole activities, and resource states (oven temperature).
//!
//! The search walks time one unit at a time. At each instant it chooses which activities
//! start now (any set that fits). A state is what has started, the ages of the started
//! activities whose age still matters (running ones, lags still to be met, maximum lags
//! and piece lags still pending), and the value of every resource state. Every rule is
//! relative to "now", so a state reached later than an identical one is dominated and
//! dropped. Lower bounds (the longest path still ahead of each activity, the work left on
//! each resource followed by the shortest tail after it) prune every state that cannot
//! end below the best schedule known, so an exhausted search proves that schedule optimal.
//! So do start windows (`Search::windows`: earliest and latest starts over every lag,
//! maximum lags included, and the latest start that still ends below the best known) and
//! a preemptive earliest-due-date check of each unary resource's remaining work against
//! them (`meets_due_dates`): each is a relaxation of every shorter completion.
//!
//! Two canonical forms cut the choices, each an exchange argument that turns any schedule
//! into one of the form without making it longer (`Search::canonical`,
//! `Search::eager_omitted`): a run of interruptible work that nothing else depends on
//! goes on unless the agent switches to something that could not have taken its place a
//! step earlier; and an autonomous activity whose resources only its successors use starts
//! at the first instant it can. `tests/agent_search.rs` checks the search against the MILP,
//! which has neither, on random instances.
//!
//! It is the exact method for such problems because the time-indexed MILP's relaxation is
//! weak on unit chunks and start-instant rules, while the states here stay few: the agent
//! does one thing at a time and the gaps it may leave are bounded by the slack.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::rc::Rc;
use std::time::Instant;

use rustc_hash::FxHashMap;

use crate::exact::unit_search::SearchOutcome;
use crate::problem::Problem;
use crate::Cancel;

/// States kept at most (memory stays below about 1 GiB).
const MAX_STATES: usize = 4_000_000;

/// The head of an activity that has started, and its latest start: far enough out that no
/// arc from it binds another, near enough that adding a lag cannot overflow.
const UNBOUNDED: i64 = 1 << 60;

/// Resource states a problem may have (their values are kept inline in each state).
const MAX_STATE_VARIABLES: usize = 4;

/// Words of the started set: at most 256 activities.
const WORDS: usize = 4;

type Bits = [u64; WORDS];

/// A chunk after the first of a piece-lagged activity: the chunk before it, and
/// `(from, limit)` pairs: a piece starting at this chunk must start within `limit` of
/// the start of `from`.
type Piece = (usize, Vec<(usize, i64)>);

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

/// Finds the shortest schedule with makespan below `bound`, within `seconds`.
pub fn search(problem: &Problem, bound: i64, seconds: f64, cancel: &Cancel) -> SearchOutcome {
    let Some(rules) = Rules::new(problem) else {
        // Times too long for the state encoding: prove nothing.
        return SearchOutcome::GaveUp;
    };
    Search {
        rules: &rules,
        clock: Instant::now(),
        seconds,
        cancel,
        best: bound,
        best_node: None,
        nodes: vec![Node {
            parent: u32::MAX,
            first: 0,
            len: 0,
            at: 0,
        }],
        moves: Vec::new(),
        seen: FxHashMap::default(),
        layers: BTreeMap::new(),
        heads: vec![0; rules.n],
        latest: vec![0; rules.n],
        open: Vec::with_capacity(rules.n),
        jobs: vec![Vec::new(); rules.capacities.len()],
        due: BinaryHeap::new(),
    }
    .run()
}

/// The rules of the problem, indexed for the search.
struct Rules {
    n: usize,
    durations: Vec<i64>,
    /// Arcs `S_j ≥ S_i + w` between activities, into `j`: `(i, w)`.
    into: Vec<Vec<(usize, i64)>>,
    /// The same arcs out of `i`: `(j, w)`.
    out_of: Vec<Vec<(usize, i64)>>,
    /// Arcs into the end of the schedule: `(i, w)` with `C ≥ S_i + w`.
    into_sink: Vec<Vec<i64>>,
    /// Latest start of each activity (from deadlines), `i64::MAX` if none.
    deadline: Vec<i64>,
    /// The activities with a deadline.
    deadlined: Vec<usize>,
    /// Every activity.
    all: Bits,
    earliest: Vec<i64>,
    /// Longest path from each activity's start to the end of the schedule.
    tail: Vec<i64>,
    /// `(resource, amount, until)`: demands over `[start, start + until)`.
    demands: Vec<Vec<(usize, i64, i64)>>,
    capacities: Vec<i64>,
    pool: usize,
    /// Activities that need the agent at their start instant.
    instant: Vec<bool>,
    /// Activities that need the agent, at their start or longer.
    needs_agent: Vec<bool>,
    /// For a chunk that may be moved later freely (only the agent, no states, no piece
    /// lags, no rule out of it but the next chunk): that next chunk.
    free_next: Vec<Option<usize>>,
    /// Activities started as soon as they can ([`Search::eager_omitted`]).
    eager: Vec<bool>,
    /// Activities that may be moved earlier freely, given their minimum lags allow it
    /// (only the agent for their whole duration, no states, no piece lags, nothing that
    /// must start no later than them).
    pullable: Vec<bool>,
    /// `(state, value)` set and required at the start of each activity.
    sets: Vec<Vec<(usize, u8)>>,
    requires: Vec<Vec<(usize, u8)>>,
    /// The piece lags of each chunk ([`Piece`]).
    pieces: Vec<Option<Piece>>,
    /// Activities whose age decides a piece lag: `(from, chunks)`.
    piece_anchors: Vec<Vec<Vec<usize>>>,
    /// Activities in an order where every minimum lag points forward.
    order: Vec<usize>,
    /// The forward arcs (minimum lags) into each activity: `(i, w)`, and out of each.
    forward_into: Vec<Vec<(usize, i64)>>,
    forward_out: Vec<Vec<(usize, i64)>>,
    /// Arcs between activities that are not forward (maximum lags): `(i, j, w)`, `S_j ≥ S_i + w`.
    backward: Vec<(usize, usize, i64)>,
    /// Ages below this are exact; ages at it stand for every larger one, which behave
    /// alike for every rule.
    cap: Vec<u16>,
}

impl Rules {
    fn new(problem: &Problem) -> Option<Rules> {
        let n = problem.len();
        let net = &problem.network;
        let mut into = vec![Vec::new(); n];
        let mut out_of = vec![Vec::new(); n];
        let mut into_sink = vec![Vec::new(); n];
        let mut deadline = vec![i64::MAX; n];
        let mut forward_into = vec![Vec::new(); n];
        for a in net.arcs() {
            if a.from < n && a.to < n && a.forward {
                forward_into[a.to].push((a.from, a.weight));
            }
            if a.from < n && a.to < n {
                into[a.to].push((a.from, a.weight));
                out_of[a.from].push((a.to, a.weight));
            } else if a.from < n && a.to == net.sink() {
                into_sink[a.from].push(a.weight);
            } else if a.from < n && a.to == net.origin() {
                deadline[a.from] = deadline[a.from].min(-a.weight);
            }
        }
        let horizon = problem.earliest[net.sink()];
        let latest = net.latest_starts(horizon).ok()?;
        let tail = (0..n).map(|j| horizon - latest[j]).collect();
        let pool = problem.agent_resource?;
        let mut instant = vec![false; n];
        for need in &problem.instants {
            instant[need.activity] = true;
        }
        let mut sets = vec![Vec::new(); n];
        let mut requires = vec![Vec::new(); n];
        for (s, var) in problem.states.iter().enumerate() {
            for &(j, v) in &var.setters {
                sets[j].push((s, value_index(v)?));
            }
            for &(j, v) in &var.requirers {
                requires[j].push((s, value_index(v)?));
            }
        }
        let mut pieces: Vec<Option<Piece>> = vec![None; n];
        let mut piece_anchors = vec![Vec::new(); n];
        for lag in &problem.expanded.piece_lags {
            let limit = lag.deadline(0, problem.durations[lag.from]);
            for w in lag.chunks.windows(2) {
                pieces[w[1]]
                    .get_or_insert_with(|| (w[0], Vec::new()))
                    .1
                    .push((lag.from, limit));
            }
            piece_anchors[lag.from].push(lag.chunks[1..].to_vec());
        }
        let stateless: Vec<bool> = (0..n)
            .map(|j| sets[j].is_empty() && requires[j].is_empty())
            .collect();
        let alone: Vec<bool> = (0..n)
            .map(|j| agent_only(problem, j, &pieces, &stateless))
            .collect();
        // Every age up to one past the largest threshold of a rule is kept exactly.
        let mut cap = vec![0i64; n];
        for i in 0..n {
            let mut c = problem.durations[i].max(1);
            c = c.max(out_of[i].iter().map(|&(_, w)| w).max().unwrap_or(0));
            c = c.max(into_sink[i].iter().copied().max().unwrap_or(0));
            c = c.max(into[i].iter().map(|&(_, w)| -w).max().unwrap_or(0));
            for (_, limits) in pieces.iter().flatten() {
                for &(from, limit) in limits {
                    if from == i {
                        c = c.max(limit + 1);
                    }
                }
            }
            cap[i] = c + 2;
        }
        let cap = cap
            .into_iter()
            .map(|c| u16::try_from(c).ok())
            .collect::<Option<Vec<u16>>>()?;
        let mut all = [0; WORDS];
        for j in 0..n {
            insert(&mut all, j);
        }
        Some(Rules {
            deadlined: (0..n).filter(|&j| deadline[j] < i64::MAX).collect(),
            all,
            eager: eager(problem, &into, &forward_into, &instant, &stateless),
            free_next: free_next(problem, &out_of, &alone),
            pullable: pullable(&into, &instant, &alone),
            n,
            durations: problem.durations[..n].to_vec(),
            into,
            out_of,
            into_sink,
            deadline,
            earliest: problem.earliest[..n].to_vec(),
            tail,
            demands: problem.demands[..n]
                .iter()
                .map(|ds| ds.iter().map(|d| (d.resource, d.amount, d.to)).collect())
                .collect(),
            capacities: problem.capacities.clone(),
            order: topological(&forward_into)?,
            forward_out: {
                let mut out = vec![Vec::new(); n];
                for (j, arcs) in forward_into.iter().enumerate() {
                    for &(i, w) in arcs {
                        out[i].push((j, w));
                    }
                }
                out
            },
            forward_into,
            backward: net
                .arcs()
                .iter()
                .filter(|a| a.from < n && a.to < n && !a.forward)
                .map(|a| (a.from, a.to, a.weight))
                .collect(),
            pool,
            needs_agent: (0..n)
                .map(|j| instant[j] || problem.demands[j].iter().any(|d| d.resource == pool))
                .collect(),
            instant,
            sets,
            requires,
            pieces,
            piece_anchors,
            cap,
        })
    }

    /// Whether the age of started activity `i` still matters once `started` have started.
    fn matters(&self, i: usize, age: i64, started: &Bits) -> bool {
        age < self.durations[i]
            || self.into_sink[i].iter().any(|&w| age < w)
            || self.out_of[i].iter().any(|&(k, w)| {
                // For a pullable successor, also whether the lag was met a step ago.
                !has(started, k) && (age < w || (age == w && self.pullable[k]))
            })
            || self.into[i]
                .iter()
                .any(|&(k, w)| !has(started, k) && w <= 0)
            || self.piece_anchors[i]
                .iter()
                .any(|chunks| chunks.iter().any(|&c| !has(started, c)))
            || self.out_of[i].iter().any(|&(k, _)| {
                !has(started, k) && self.pieces[k].as_ref().is_some_and(|p| p.0 == i)
            })
    }
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
    /// Shared with [`Search::seen`]: one copy of every state kept.
    key: Rc<Key>,
    node: u32,
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
    /// Only schedules ending strictly before this are wanted.
    best: i64,
    best_node: Option<(u32, i64)>,
    nodes: Vec<Node>,
    moves: Vec<u16>,
    /// The earliest instant each state was reached at.
    seen: FxHashMap<Rc<Key>, i64>,
    /// States still to expand, by instant (the lower bound when queued, too).
    layers: BTreeMap<i64, Vec<(State, i64)>>,
    /// Scratch space of the lower bound: heads, and per resource `(head, work, tail)`.
    heads: Vec<i64>,
    /// Scratch space of [`Search::windows`]: latest starts, and the activities still to
    /// start, in `order`.
    latest: Vec<i64>,
    open: Vec<usize>,
    jobs: Vec<Vec<(i64, i64, i64, i64)>>,
    /// Scratch space of [`meets_due_dates`].
    due: BinaryHeap<Reverse<(i64, i64)>>,
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
                    key: Rc::new(root),
                    node: 0,
                },
                0,
            )],
        );
        while let Some((t, layer)) = self.layers.pop_first() {
            if t >= self.best {
                break;
            }
            for (state, bound) in &layer {
                if self.clock.elapsed().as_secs_f64() > self.seconds
                    || self.nodes.len() > MAX_STATES
                    || self.cancel.is_cancelled()
                {
                    return SearchOutcome::GaveUp;
                }
                // (A state reached earlier on another path since it was queued is expanded
                // twice: rare, and cheaper than looking it up again.)
                if *bound >= self.best {
                    continue;
                }
                self.expand(state, t);
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

    /// Every set of activities that may start at `t` from `state`, as states at `t + 1`;
    /// or, while the agent is in the middle of an activity and everything left needs it,
    /// the state when it is free again.
    fn expand(&mut self, state: &State, t: i64) {
        let r = self.rules;
        let key = &state.key;
        // Units of each resource in use over [t, t + 1), and whether the agent is in the
        // middle of something started earlier.
        let mut usage = vec![0i64; r.capacities.len()];
        let mut agent_mid = None;
        for &(i, a) in &key.ages {
            let (i, a) = (usize::from(i), i64::from(a));
            for &(res, amount, until) in &r.demands[i] {
                if a < until {
                    usage[res] += amount;
                    if res == r.pool && a >= 1 {
                        agent_mid = Some(until - a);
                    }
                }
            }
        }
        if let Some(left) = agent_mid {
            if (0..r.n).all(|j| has(&key.started, j) || r.needs_agent[j]) {
                self.child(state, t, left, &[]);
                return;
            }
        }
        let agent_mid = agent_mid.is_some();
        let candidates: Vec<usize> = (0..r.n)
            .filter(|&j| !has(&key.started, j) && r.earliest[j] <= t)
            .filter(|&j| !(r.instant[j] && agent_mid))
            .filter(|&j| {
                r.into[j].iter().all(|&(i, w)| {
                    if has(&key.started, i) {
                        key.age(i).is_none_or(|a| a >= w)
                    } else {
                        w <= 0
                    }
                })
            })
            .filter(|&j| {
                r.demands[j]
                    .iter()
                    .all(|&(res, amount, _)| usage[res] + amount <= r.capacities[res])
            })
            .collect();
        let mut chosen = Vec::new();
        self.choose(state, t, &candidates, 0, &mut usage, &mut chosen);
    }

    /// Enumerates the subsets of `candidates[from..]` that fit next to `chosen`.
    fn choose(
        &mut self,
        state: &State,
        t: i64,
        candidates: &[usize],
        from: usize,
        usage: &mut [i64],
        chosen: &mut Vec<usize>,
    ) {
        if from == candidates.len() {
            if !self.eager_omitted(&state.key, candidates, usage, chosen) {
                self.child(state, t, 1, chosen);
            }
            return;
        }
        self.choose(state, t, candidates, from + 1, usage, chosen);
        let j = candidates[from];
        let demands = &self.rules.demands[j];
        if demands
            .iter()
            .all(|&(res, amount, _)| usage[res] + amount <= self.rules.capacities[res])
        {
            for &(res, amount, _) in demands {
                usage[res] += amount;
            }
            chosen.push(j);
            self.choose(state, t, candidates, from + 1, usage, chosen);
            chosen.pop();
            for &(res, amount, _) in demands {
                usage[res] -= amount;
            }
        }
    }

    /// The state at `t + step` after starting `chosen` at `t`, if every rule holds (a step
    /// longer than 1 only when nothing can start before its end).
    fn child(&mut self, state: &State, t: i64, step: i64, chosen: &[usize]) {
        let r = self.rules;
        let key = &state.key;
        // States: values set now are seen by requirements now; two values may not clash.
        let mut values = key.values;
        let mut set_now = [false; MAX_STATE_VARIABLES];
        for &j in chosen {
            for &(s, v) in &r.sets[j] {
                if set_now[s] && values[s] != v {
                    return;
                }
                set_now[s] = true;
                values[s] = v;
            }
        }
        for &j in chosen {
            if r.requires[j].iter().any(|&(s, v)| values[s] != v) {
                return;
            }
        }
        if !self.canonical(key, t, chosen) {
            return;
        }
        // Piece lags: a chunk starts a new piece after a gap, or when an activity that
        // needs the agent's start instant starts with it (the agent pauses for it).
        if !self.pieces_hold(key, chosen, chosen.iter().any(|&j| r.instant[j])) {
            return;
        }
        let mut started = key.started;
        for &j in chosen {
            insert(&mut started, j);
        }
        let now = t + step;
        let mut ages: Vec<(u16, u16)> = Vec::with_capacity(key.ages.len() + chosen.len());
        let mut fresh: Vec<usize> = chosen.to_vec();
        fresh.sort_unstable();
        // Merged in activity order: the parent's ages are sorted already.
        let mut fresh = fresh.into_iter().peekable();
        let mut old = key.ages.iter().peekable();
        let aged = std::iter::from_fn(|| {
            let older = match (old.peek(), fresh.peek()) {
                (None, None) => return None,
                (Some(&&(i, _)), Some(&j)) => usize::from(i) < j,
                (o, _) => o.is_some(),
            };
            Some(match older {
                true => old
                    .next()
                    .map(|&(i, a)| (usize::from(i), i64::from(a) + step))?,
                false => (fresh.next()?, step),
            })
        });
        for (i, age) in aged {
            if !r.matters(i, age, &started) {
                continue;
            }
            // A maximum lag into i from an activity not started yet: it must start by
            // S_i − w, which is already past.
            if r.into[i]
                .iter()
                .any(|&(k, w)| !has(&started, k) && age > -w)
            {
                return;
            }
            ages.push((i as u16, age.min(i64::from(r.cap[i])) as u16));
        }
        if r.deadlined
            .iter()
            .any(|&k| !has(&started, k) && r.deadline[k] < now)
        {
            return;
        }
        let child = Key {
            started,
            ages,
            values,
        };
        if child.started == r.all {
            let node = self.push(state.node, chosen, t);
            let makespan = self.makespan(&self.starts(node));
            if makespan < self.best {
                self.best = makespan;
                self.best_node = Some((node, makespan));
            }
            return;
        }
        if self.seen.get(&child).is_some_and(|&at| at <= now) {
            return;
        }
        let bound = self.lower_bound(&child, now);
        if bound >= self.best {
            return;
        }
        let child = Rc::new(child);
        self.seen.insert(Rc::clone(&child), now);
        let node = self.push(state.node, chosen, t);
        self.layers
            .entry(now)
            .or_default()
            .push((State { key: child, node }, bound));
    }

    /// Whether starting `chosen` at `t` keeps the schedule in canonical form. When the agent
    /// worked on a chunk that may move later at `t − 1` and its activity is unfinished, it
    /// goes on with the next chunk unless it starts something that could not have taken
    /// the chunk's place: swapping the chunk with idle time, or with an activity that may
    /// move one step earlier (its lags were met at `t − 1`, and no start-instant need at
    /// `t` would then fall inside it), gives a schedule as good. Repeated swaps turn any
    /// schedule into this form, so the search loses no optimum.
    fn canonical(&self, key: &Key, t: i64, chosen: &[usize]) -> bool {
        let r = self.rules;
        let Some(next) = key.ages.iter().find_map(|&(c, a)| {
            let next = r.free_next[usize::from(c)]?;
            (a == 1 && !has(&key.started, next)).then_some(next)
        }) else {
            return true;
        };
        let Some(&x) = chosen.iter().find(|&&j| {
            r.demands[j]
                .iter()
                .any(|&(res, _, until)| res == r.pool && until > 0)
        }) else {
            return false;
        };
        if x == next || !r.pullable[x] || r.earliest[x] > t - 1 {
            return true;
        }
        if r.durations[x] >= 2 && chosen.iter().any(|&j| r.instant[j]) {
            return true;
        }
        // Lags into x not yet met at t − 1 (a pullable activity keeps such ages).
        r.into[x]
            .iter()
            .any(|&(i, w)| key.age(i).is_some_and(|a| a < w + 1))
    }

    /// Whether `chosen` leaves out an eager candidate that could start with it. Starting an
    /// eager activity (it needs the agent at its start only, no activity must start by a
    /// time relative to it, it touches no state, and only its own successors use its
    /// resources) at the first instant it can is never worse: its successors get more room
    /// and nothing else loses any. The one thing it may break is a piece lag, through the
    /// split its start instant forces, so it may wait when it would.
    fn eager_omitted(
        &self,
        key: &Key,
        candidates: &[usize],
        usage: &[i64],
        chosen: &[usize],
    ) -> bool {
        let r = self.rules;
        let split_ok = chosen.iter().any(|&j| r.instant[j]) || self.pieces_hold(key, chosen, true);
        split_ok
            && candidates.iter().any(|&x| {
                r.eager[x]
                    && !chosen.contains(&x)
                    && r.demands[x]
                        .iter()
                        .all(|&(res, amount, _)| usage[res] + amount <= r.capacities[res])
            })
    }

    /// Whether every chunk in `chosen` that starts a piece (after a gap, or at a `split`
    /// forced by a start-instant need) starts it within its piece lags.
    fn pieces_hold(&self, key: &Key, chosen: &[usize], split: bool) -> bool {
        let r = self.rules;
        chosen.iter().all(|&j| {
            let Some((prev, limits)) = &r.pieces[j] else {
                return true;
            };
            let gap = key.age(*prev).is_none_or(|a| a >= 2);
            !(gap || split)
                || limits
                    .iter()
                    .all(|&(from, limit)| key.age(from).is_some_and(|a| a <= limit))
        })
    }

    /// The end of the schedule with these starts.
    fn makespan(&self, starts: &[i64]) -> i64 {
        let r = self.rules;
        (0..r.n)
            .flat_map(|i| r.into_sink[i].iter().map(move |&w| starts[i] + w))
            .fold(0, i64::max)
    }

    /// Whether every activity not started yet keeps a start window: its earliest start
    /// (`self.heads`, from `now`, the ages and every arc, maximum lags included, to a fixed
    /// point) is no later than its latest one (deadlines, maximum lags from what has started,
    /// and ending before `self.best` with its tail, carried back along every arc). Each step
    /// is a rule the schedule must obey, so a state without windows has no completion
    /// shorter than the best known.
    fn windows(&mut self, key: &Key, now: i64) -> bool {
        let r = self.rules;
        let started = &key.started;
        let (head, latest, open) = (&mut self.heads, &mut self.latest, &mut self.open);
        // What has started takes no part: its head and latest start never bind another.
        open.clear();
        for &j in &r.order {
            if has(started, j) {
                head[j] = -UNBOUNDED;
                latest[j] = UNBOUNDED;
            } else {
                head[j] = now;
                latest[j] = r.deadline[j].min(self.best - 1 - r.tail[j]);
                open.push(j);
            }
        }
        // The rules from what has started (a capped age only loosens a bound), then one
        // pass each way in `order` settles every minimum lag.
        for &(i, a) in &key.ages {
            let (i, a) = (usize::from(i), i64::from(a));
            for &(j, w) in &r.out_of[i] {
                if !has(started, j) {
                    head[j] = head[j].max(now - a + w);
                }
            }
            // S_i ≥ S_j + w: S_j ≤ S_i − w.
            for &(j, w) in &r.into[i] {
                if !has(started, j) {
                    latest[j] = latest[j].min(now - a - w);
                }
            }
        }
        for &j in open.iter() {
            for &(i, w) in &r.forward_into[j] {
                head[j] = head[j].max(head[i] + w);
            }
        }
        for &j in open.iter().rev() {
            for &(k, w) in &r.forward_out[j] {
                latest[j] = latest[j].min(latest[k] - w);
            }
            if latest[j] < head[j] {
                return false;
            }
        }
        // Maximum lags between activities still to start: relaxed to a fixed point over
        // every arc if one of them moves a window (the network has no positive cycle; the
        // passes stop at n in any case, and every value reached is a valid bound).
        let moved = r.backward.iter().any(|&(i, j, w)| {
            !has(started, i)
                && !has(started, j)
                && (head[i] + w > head[j] || latest[j] - w < latest[i])
        });
        if !moved {
            return true;
        }
        for _ in 0..=r.n {
            let mut changed = false;
            for &j in open.iter() {
                for &(i, w) in &r.into[j] {
                    if head[i] + w > head[j] {
                        head[j] = head[i] + w;
                        changed = true;
                    }
                }
            }
            for &j in open.iter().rev() {
                for &(k, w) in &r.out_of[j] {
                    if latest[k] - w < latest[j] {
                        latest[j] = latest[k] - w;
                        changed = true;
                    }
                }
                if latest[j] < head[j] {
                    return false;
                }
            }
            if !changed {
                break;
            }
        }
        true
    }

    /// A lower bound on the makespan of any schedule through `key` at `now`: the longest
    /// path ahead of every activity from its earliest start (heads follow the minimum lags
    /// from what has started), and for every resource the one-machine bound with heads and
    /// tails over the work left (for a unary one: some remaining demand starts no earlier
    /// than a head, all the demand from there on runs one after another, and the last of
    /// it is followed by its tail).
    fn lower_bound(&mut self, key: &Key, now: i64) -> i64 {
        let r = self.rules;
        if !self.windows(key, now) {
            return i64::MAX;
        }
        let mut bound = now;
        let jobs = &mut self.jobs;
        jobs.iter_mut().for_each(Vec::clear);
        for &(i, a) in &key.ages {
            let (i, a) = (usize::from(i), i64::from(a));
            if a < i64::from(r.cap[i]) {
                bound = bound.max(now - a + r.tail[i]);
            }
            for &(res, amount, until) in &r.demands[i] {
                if a < until {
                    let q = r.tail[i] - until;
                    jobs[res].push((now, amount * (until - a), q, self.best - 1 - q));
                }
            }
        }
        let (head, latest) = (&self.heads, &self.latest);
        for &j in &self.open {
            let h = head[j];
            bound = bound.max(h + r.tail[j]);
            for &(res, amount, until) in &r.demands[j] {
                jobs[res].push((h, amount * until, r.tail[j] - until, latest[j] + until));
            }
        }
        for (res, jobs) in jobs.iter_mut().enumerate() {
            let c = r.capacities[res];
            if c > 1 {
                let work: i64 = jobs.iter().map(|j| j.1).sum();
                bound = bound.max(now + (work + c - 1) / c);
                continue;
            }
            // Latest heads first: the work and the shortest tail from each head on.
            jobs.sort_unstable_by_key(|&(head, ..)| std::cmp::Reverse(head));
            let (mut work, mut tail) = (0, i64::MAX);
            for &(h, p, q, _) in jobs.iter() {
                work += p;
                tail = tail.min(q);
                bound = bound.max(h + work + tail);
            }
        }
        if bound >= self.best {
            return bound;
        }
        for (res, jobs) in jobs.iter().enumerate() {
            if r.capacities[res] > 1 {
                continue;
            }
            // All of it back to back from the latest head meets every due date: no need to
            // look closer.
            let latest_head = jobs.first().map_or(0, |j| j.0);
            let work: i64 = jobs.iter().map(|j| j.1).sum();
            let first_due = jobs.iter().map(|j| j.3).min().unwrap_or(i64::MAX);
            if latest_head + work > first_due && !meets_due_dates(jobs, &mut self.due) {
                return i64::MAX;
            }
        }
        bound
    }

    fn push(&mut self, parent: u32, chosen: &[usize], at: i64) -> u32 {
        self.nodes.push(Node {
            parent,
            first: self.moves.len() as u32,
            len: chosen.len() as u32,
            at,
        });
        self.moves.extend(chosen.iter().map(|&j| j as u16));
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

/// Whether one machine can do every job `(head, work, tail, due)` between its head and its
/// due date when work may be interrupted (a relaxation of every schedule that ends before
/// the best known). Earliest due date first among the released jobs is optimal for this,
/// so it decides. `jobs` come sorted by latest head first.
fn meets_due_dates(
    jobs: &[(i64, i64, i64, i64)],
    due: &mut BinaryHeap<Reverse<(i64, i64)>>,
) -> bool {
    due.clear();
    let mut next = jobs.iter().rev().peekable();
    let mut t = i64::MIN;
    loop {
        while let Some(&&(h, p, _, d)) = next.peek() {
            if h > t {
                break;
            }
            due.push(Reverse((d, p)));
            next.next();
        }
        let Some(Reverse((d, p))) = due.pop() else {
            match next.peek() {
                Some(&&(h, ..)) => {
                    t = h;
                    continue;
                }
                None => return true,
            }
        };
        let run = next.peek().map_or(p, |&&(h, ..)| p.min(h - t));
        t += run;
        if run < p {
            due.push(Reverse((d, p - run)));
        } else if t > d {
            return false;
        }
    }
}

/// A topological order of the forward arcs (`None` if they have a cycle, which compiled
/// problems never have).
fn topological(into: &[Vec<(usize, i64)>]) -> Option<Vec<usize>> {
    let n = into.len();
    let mut waiting: Vec<usize> = into.iter().map(Vec::len).collect();
    let mut out = vec![Vec::new(); n];
    for (j, arcs) in into.iter().enumerate() {
        for &(i, _) in arcs {
            out[i].push(j);
        }
    }
    let mut order: Vec<usize> = (0..n).filter(|&j| waiting[j] == 0).collect();
    let mut k = 0;
    while k < order.len() {
        for &j in &out[order[k]] {
            waiting[j] -= 1;
            if waiting[j] == 0 {
                order.push(j);
            }
        }
        k += 1;
    }
    (order.len() == n).then_some(order)
}

/// Whether activity `j` keeps only the agent busy, over its whole duration, and touches no
/// state and no piece lag: moving it in time changes nothing but its own start.
fn agent_only(problem: &Problem, j: usize, pieces: &[Option<Piece>], stateless: &[bool]) -> bool {
    let pool = problem.agent_resource;
    problem.demands[j]
        .iter()
        .all(|d| Some(d.resource) == pool && d.to == problem.durations[j])
        && !problem.demands[j].is_empty()
        && stateless[j]
        && pieces[j].is_none()
        && pieces
            .iter()
            .flatten()
            .all(|(prev, limits)| *prev != j && limits.iter().all(|&(from, _)| from != j))
}

/// [`Rules::free_next`].
/// `alone[j]`: [`agent_only`] holds for `j`.
fn free_next(
    problem: &Problem,
    out_of: &[Vec<(usize, i64)>],
    alone: &[bool],
) -> Vec<Option<usize>> {
    let mut chained = vec![None; problem.len()];
    for parts in &problem.expanded.parts {
        for w in parts.windows(2) {
            chained[w[0]] = Some(w[1]);
        }
    }
    (0..problem.len())
        .map(|c| {
            let next = chained[c]?;
            let alone = out_of[c] == [(next, 1)] && alone[c] && alone[next];
            alone.then_some(next)
        })
        .collect()
}

/// [`Rules::pullable`].
fn pullable(into: &[Vec<(usize, i64)>], instant: &[bool], alone: &[bool]) -> Vec<bool> {
    (0..into.len())
        .map(|j| into[j].iter().all(|&(_, w)| w > 0) && !instant[j] && alone[j])
        .collect()
}

/// [`Rules::eager`].
fn eager(
    problem: &Problem,
    into: &[Vec<(usize, i64)>],
    forward_into: &[Vec<(usize, i64)>],
    instant: &[bool],
    stateless: &[bool],
) -> Vec<bool> {
    let n = problem.len();
    let mut successors = vec![Vec::new(); n];
    for (j, arcs) in forward_into.iter().enumerate() {
        for &(i, _) in arcs {
            successors[i].push(j);
        }
    }
    (0..n)
        .map(|x| {
            if !instant[x] || into[x].iter().any(|&(_, w)| w <= 0) || !stateless[x] {
                return false;
            }
            // Every other user of x's resources comes after x.
            let mut after = vec![false; n];
            let mut stack = vec![x];
            while let Some(i) = stack.pop() {
                for &j in &successors[i] {
                    if !after[j] {
                        after[j] = true;
                        stack.push(j);
                    }
                }
            }
            problem.demands[x].iter().all(|d| {
                (0..n).all(|j| {
                    j == x
                        || after[j]
                        || problem.demands[j].iter().all(|e| e.resource != d.resource)
                })
            })
        })
        .collect()
}

/// A state value's index as kept in a search state (`u8::MAX` stands for "no value yet").
fn value_index(v: usize) -> Option<u8> {
    u8::try_from(v).ok().filter(|&v| v < u8::MAX)
}
