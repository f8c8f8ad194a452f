//! Expanding a state: the sets of activities that may start at its instant, each checked
//! against every rule and the canonical forms. Expansion only reads the search's tables,
//! so the states of one instant are expanded on several threads.

use super::dominance::{Seen, Split, Verdict};
use super::rules::Rules;
use super::{has, insert, Bits, Key, State, MAX_STATE_VARIABLES, WORDS};

/// What expansion reads: the rules, and the states seen before this instant.
pub(super) struct Expander<'a> {
    pub(super) rules: &'a Rules,
    /// Where expansion runs on several threads, dropping a child seen or dominated there
    /// spares the search's check in order, which runs on one; on one thread that check
    /// alone does it.
    pub(super) seen: Option<&'a Seen>,
}

/// A child state found by expansion, for the search to keep or drop in order.
pub(super) struct Found {
    pub(super) key: Key,
    pub(super) split: Split,
    pub(super) edge: Edge,
}

/// How a child was reached: from the node `parent`, where `before` had started, by starting
/// the others the child has started at `at`; it is the state at `now`.
pub(super) struct Edge {
    pub(super) parent: u32,
    pub(super) before: Bits,
    pub(super) at: i64,
    pub(super) now: i64,
}

impl Expander<'_> {
    /// Every set of activities that may start at `t` from `state`, as states at `t + 1`;
    /// or, while the agent is in the middle of an activity and everything left needs it,
    /// the state when it is free again.
    pub(super) fn expand(&self, state: &State, t: i64, found: &mut Vec<Found>) {
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
                if state.forced == [0; WORDS] {
                    self.child(state, t, left, &[], found);
                }
                return;
            }
        }
        let agent_mid = agent_mid.is_some();
        // Activities not started and not blocked, in order, that every rule lets start now.
        let mut candidates = Vec::new();
        for w in 0..WORDS {
            let mut open = r.all[w] & !key.started[w] & !state.blocked[w];
            while open != 0 {
                let j = w * 64 + open.trailing_zeros() as usize;
                open &= open - 1;
                let fits = r.earliest[j] <= t
                    && !(r.instant[j] && agent_mid)
                    && r.into[j].iter().all(|&(i, w)| {
                        if has(&key.started, i) {
                            key.age(i).is_none_or(|a| a >= w)
                        } else {
                            w <= 0
                        }
                    })
                    && r.demands[j]
                        .iter()
                        .all(|&(res, amount, _)| usage[res] + amount <= r.capacities[res]);
                if fits {
                    candidates.push(j);
                }
            }
        }
        // A window closing now that nothing here can start in: no completion is short enough.
        let mut coverable = [0; WORDS];
        for &j in &candidates {
            insert(&mut coverable, j);
        }
        if (0..WORDS).any(|w| state.forced[w] & !coverable[w] != 0) {
            return;
        }
        let mut chosen = Vec::new();
        self.choose(state, t, &candidates, 0, &mut usage, &mut chosen, found);
    }

    /// Enumerates the subsets of `candidates[from..]` that fit next to `chosen`.
    #[allow(clippy::too_many_arguments)] // the recursion's state, passed down as is
    fn choose(
        &self,
        state: &State,
        t: i64,
        candidates: &[usize],
        from: usize,
        usage: &mut [i64],
        chosen: &mut Vec<usize>,
        found: &mut Vec<Found>,
    ) {
        if from == candidates.len() {
            if !self.eager_omitted(&state.key, candidates, usage, chosen) {
                self.child(state, t, 1, chosen, found);
            }
            return;
        }
        let j = candidates[from];
        // Leaving out an activity whose window closes now leaves no completion short enough.
        if !has(&state.forced, j) {
            self.choose(state, t, candidates, from + 1, usage, chosen, found);
        }
        let demands = &self.rules.demands[j];
        if demands
            .iter()
            .all(|&(res, amount, _)| usage[res] + amount <= self.rules.capacities[res])
        {
            for &(res, amount, _) in demands {
                usage[res] += amount;
            }
            chosen.push(j);
            self.choose(state, t, candidates, from + 1, usage, chosen, found);
            chosen.pop();
            for &(res, amount, _) in demands {
                usage[res] -= amount;
            }
        }
    }

    /// The state at `t + step` after starting `chosen` at `t`, if every rule holds (a step
    /// longer than 1 only when nothing can start before its end) and it was not seen by
    /// then.
    fn child(&self, state: &State, t: i64, step: i64, chosen: &[usize], found: &mut Vec<Found>) {
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
        // Merged in activity order: the parent's ages are sorted already, and `chosen` comes
        // in the candidates' order, which is the activities'.
        debug_assert!(chosen.is_sorted());
        let mut fresh = chosen.iter().copied().peekable();
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
        // A state seen by its instant on another path, or dominated by one, is dropped (the
        // search drops the ones found in this instant's other expansions).
        let split = Split::new(r, &child);
        if self
            .seen
            .is_some_and(|seen| seen.verdict(&split, now) == Verdict::Dropped)
        {
            return;
        }
        found.push(Found {
            key: child,
            split,
            edge: Edge {
                parent: state.node,
                before: key.started,
                at: t,
                now,
            },
        });
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
        let Some(next) = r.chunk_run(key) else {
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
}
