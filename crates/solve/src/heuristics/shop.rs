//! Tabu search on a job shop's machine sequences (Nowicki and Smutnicki's neighbourhood):
//! a short schedule where the constraint model's neighbourhood search stalls a few units
//! above the optimum (la27: 1237–1242 in 60 s against 1235).
//!
//! A schedule is one sequence per machine; its earliest starts are longest paths in the
//! graph of the fixed arcs (lags, releases) and the arcs between neighbours on a machine,
//! so every sequence without a cycle is a schedule that holds. Only swapping the first or
//! the last two activities of a block (a run of activities back to back on one machine
//! along a longest path) can shorten it; each step takes the swap whose makespan, as
//! estimated from heads and tails, is least, unless it undoes a recent one (tabu), even
//! when longer, so the search leaves local optima. After a long run without a new best
//! schedule it restarts from the best one, kicked by a few random swaps.
//!
//! This evaluates a step in time linear in the number of arcs, where decoding a start
//! order with schedule generation (module `critical`) costs far more per step.

use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rustc_hash::FxHashMap;

use crate::problem::Problem;
use crate::Cancel;

/// Steps without a new best schedule before the search restarts from the best one.
const PATIENCE: usize = 4_000;

/// Steps a run goes without a new best schedule of its own before the search starts
/// another from the first schedule (more where the run found its last one later).
const RUN_PATIENCE: usize = 50_000;

/// Random swaps that kick the best schedule at a restart, at most.
const KICK: usize = 4;

/// Steps a swap's reverse stays forbidden: at least this, plus up to half the number of
/// activities per machine (longer lists suit larger shops).
const TENURE: usize = 4;

/// A job shop: activities on one machine each (or none), with fixed arcs between them.
#[derive(Debug, Clone)]
pub struct Shop {
    durations: Vec<i64>,
    /// Each activity's earliest start from the origin's arcs.
    release: Vec<i64>,
    /// How long after its start each activity holds up the end of the schedule.
    to_end: Vec<i64>,
    /// Fixed arcs `start(to) ≥ start(from) + weight`, out of and into each activity.
    out: Vec<Vec<(usize, i64)>>,
    into: Vec<Vec<(usize, i64)>>,
    /// The users of each machine.
    users: Vec<Vec<usize>>,
    machine: Vec<Option<usize>>,
}

/// One machine sequence per machine, with the schedule they give.
#[derive(Debug, Clone)]
struct State {
    sequences: Vec<Vec<usize>>,
    /// Each activity's place in its machine's sequence.
    place: Vec<usize>,
    heads: Vec<i64>,
    /// Longest path from each activity's start to the end of the schedule.
    tails: Vec<i64>,
    makespan: i64,
}

impl Shop {
    /// The job shop `problem` is, if it is one: every activity on one machine at most (a
    /// resource every two of whose users exclude each other) for its whole duration, only
    /// minimum lags and releases, and nothing else that binds.
    pub fn of(problem: &Problem) -> Option<Shop> {
        let n = problem.len();
        if problem.agent_resource.is_some()
            || problem.has_sequencing()
            || !problem.instants.is_empty()
            || !problem.states.is_empty()
            || !problem.expanded.piece_lags.is_empty()
        {
            return None;
        }
        let mut machine = vec![None; n];
        let mut users = vec![Vec::new(); problem.capacities.len()];
        for (j, demands) in problem.demands[..n].iter().enumerate() {
            let mut used = demands.iter().filter(|d| d.amount > 0 && d.to > d.from);
            if let Some(d) = used.next() {
                let whole = d.from == 0 && d.to == problem.durations[j];
                if used.next().is_some() || !whole || 2 * d.amount <= problem.capacities[d.resource]
                {
                    return None;
                }
                machine[j] = Some(d.resource);
                users[d.resource].push(j);
            }
        }
        if problem.durations[..n].iter().any(|&p| p <= 0) {
            return None;
        }
        let (origin, sink) = (problem.network.origin(), problem.network.sink());
        let mut shop = Shop {
            durations: problem.durations[..n].to_vec(),
            release: vec![0; n],
            to_end: problem.durations[..n].to_vec(),
            out: vec![Vec::new(); n],
            into: vec![Vec::new(); n],
            users,
            machine,
        };
        for arc in problem.network.arcs() {
            if !arc.forward {
                return None;
            }
            match (arc.from, arc.to) {
                (from, to) if from == origin && to < n => {
                    shop.release[to] = shop.release[to].max(arc.weight);
                }
                (from, to) if from < n && to == sink => {
                    shop.to_end[from] = shop.to_end[from].max(arc.weight);
                }
                (from, to) if from < n && to < n => {
                    shop.out[from].push((to, arc.weight));
                    shop.into[to].push((from, arc.weight));
                }
                _ => {}
            }
        }
        Some(shop)
    }

    /// The schedule (earliest starts) of machine `sequences`, or `None` if they make a cycle.
    fn state(&self, sequences: Vec<Vec<usize>>) -> Option<State> {
        let n = self.durations.len();
        let mut place = vec![0; n];
        for sequence in &sequences {
            for (k, &j) in sequence.iter().enumerate() {
                place[j] = k;
            }
        }
        let mut state = State {
            sequences,
            place,
            heads: Vec::new(),
            tails: Vec::new(),
            makespan: 0,
        };
        self.schedule(&mut state).then_some(state)
    }

    fn next_on_machine(&self, state: &State, j: usize) -> Option<usize> {
        let m = self.machine[j]?;
        state.sequences[m].get(state.place[j] + 1).copied()
    }

    fn previous_on_machine(&self, state: &State, j: usize) -> Option<usize> {
        let m = self.machine[j]?;
        let k = state.place[j].checked_sub(1)?;
        Some(state.sequences[m][k])
    }

    /// Heads, tails and makespan of `state`'s sequences; `false` on a cycle.
    fn schedule(&self, state: &mut State) -> bool {
        let n = self.durations.len();
        let mut waiting: Vec<usize> = (0..n)
            .map(|j| self.into[j].len() + usize::from(self.previous_on_machine(state, j).is_some()))
            .collect();
        let mut order: Vec<usize> = (0..n).filter(|&j| waiting[j] == 0).collect();
        let mut heads = self.release.clone();
        let mut k = 0;
        while k < order.len() {
            let j = order[k];
            k += 1;
            let next = self
                .next_on_machine(state, j)
                .map(|s| (s, self.durations[j]));
            for &(to, weight) in self.out[j].iter().chain(next.iter()) {
                heads[to] = heads[to].max(heads[j] + weight);
                waiting[to] -= 1;
                if waiting[to] == 0 {
                    order.push(to);
                }
            }
        }
        if order.len() < n {
            return false;
        }
        let mut tails = self.to_end.clone();
        for &j in order.iter().rev() {
            let next = self
                .next_on_machine(state, j)
                .map(|s| (s, self.durations[j]));
            for &(to, weight) in self.out[j].iter().chain(next.iter()) {
                tails[j] = tails[j].max(weight + tails[to]);
            }
        }
        state.makespan = (0..n).map(|j| heads[j] + tails[j]).max().unwrap_or(0);
        state.heads = heads;
        state.tails = tails;
        true
    }

    /// The swaps of Nowicki and Smutnicki's neighbourhood on one longest path of `state`:
    /// the first two and the last two activities of each block (`(a, b)`: `a` just before
    /// `b` on their machine), but not the first two of the path's first block nor the last
    /// two of its last (those cannot shorten it).
    fn moves(&self, state: &State, rng: &mut SmallRng) -> Vec<(usize, usize)> {
        let n = self.durations.len();
        let ends: Vec<usize> = (0..n)
            .filter(|&j| state.heads[j] + self.to_end[j] == state.makespan)
            .collect();
        let Some(&last) = ends.get(rng.random_range(0..ends.len().max(1))) else {
            return Vec::new();
        };
        // Walk back along tight arcs; `true` marks an activity whose arc to the next on the
        // path is a machine's.
        let mut path = vec![(last, false)];
        let mut j = last;
        loop {
            let tight: Vec<(usize, bool)> = self.into[j]
                .iter()
                .filter(|&&(from, w)| state.heads[from] + w == state.heads[j])
                .map(|&(from, _)| (from, false))
                .chain(
                    self.previous_on_machine(state, j)
                        .filter(|&p| state.heads[p] + self.durations[p] == state.heads[j])
                        .map(|p| (p, true)),
                )
                .collect();
            let Some(&(from, on_machine)) = tight.get(rng.random_range(0..tight.len().max(1)))
            else {
                break;
            };
            path.push((from, on_machine));
            j = from;
        }
        path.reverse();
        let mut blocks: Vec<(usize, usize)> = Vec::new();
        let mut first = 0;
        for (i, &(_, on_machine)) in path.iter().enumerate() {
            if !on_machine {
                if i > first {
                    blocks.push((first, i));
                }
                first = i + 1;
            }
        }
        let count = blocks.len();
        let mut moves = Vec::new();
        for (b, &(from, to)) in blocks.iter().enumerate() {
            let pair = |i: usize| (path[i].0, path[i + 1].0);
            if b > 0 {
                moves.push(pair(from));
            }
            if b + 1 < count && (to - from > 1 || b == 0) {
                moves.push(pair(to - 1));
            }
        }
        if let [(from, to)] = blocks[..] {
            // One block: its ends may still move (after a release, before a long tail).
            moves.push((path[from].0, path[from + 1].0));
            if to - from > 1 {
                moves.push((path[to - 1].0, path[to].0));
            }
        }
        moves
    }

    /// The makespan after swapping `a` and `b` (`a` just before `b` on their machine),
    /// estimated from heads and tails of the paths through the two (exact where no other
    /// path changes).
    fn estimate(&self, state: &State, a: usize, b: usize) -> i64 {
        let head_in = |j: usize| {
            self.into[j]
                .iter()
                .map(|&(from, w)| state.heads[from] + w)
                .fold(self.release[j], i64::max)
        };
        let tail_out = |j: usize| {
            self.out[j]
                .iter()
                .map(|&(to, w)| w + state.tails[to])
                .fold(self.to_end[j], i64::max)
        };
        let before = self
            .previous_on_machine(state, a)
            .map_or(i64::MIN, |p| state.heads[p] + self.durations[p]);
        let after = self
            .next_on_machine(state, b)
            .map_or(i64::MIN, |s| state.tails[s]);
        let head_b = head_in(b).max(before);
        let head_a = head_in(a).max(head_b + self.durations[b]);
        let tail_a = tail_out(a).max(self.durations[a] + after);
        let tail_b = tail_out(b).max(self.durations[b] + tail_a);
        (head_b + tail_b).max(head_a + tail_a)
    }

    fn swap(&self, state: &mut State, a: usize, b: usize) {
        let m = self.machine[a].expect("a swapped activity is on a machine");
        let (i, k) = (state.place[a], state.place[b]);
        state.sequences[m].swap(i, k);
        state.place[a] = k;
        state.place[b] = i;
    }

    /// The sequences of `starts` (a schedule): each machine's users by start.
    fn sequences_of(&self, starts: &[i64]) -> Vec<Vec<usize>> {
        self.users
            .iter()
            .map(|users| {
                let mut sequence = users.clone();
                sequence.sort_by_key(|&j| (starts[j], j));
                sequence
            })
            .collect()
    }

    /// Improves the schedule `starts` (of the shop's activities) by tabu search until it
    /// reaches `floor`, `seconds` pass or `cancel` is tripped; `stalled` is asked now and
    /// then (with the seconds since the start, and since the last new best schedule) whether
    /// to give up sooner. Returns the best schedule's starts and makespan, `None` if `starts`
    /// does not order every machine.
    ///
    /// The search runs again and again from `starts`, each run with other random choices:
    /// a run that stalls seldom recovers (on la27 one run reaches the optimum 1235 within a
    /// second where another stays at 1248 for 20 s).
    pub fn improve(
        &self,
        starts: &[i64],
        floor: i64,
        seconds: f64,
        cancel: &Cancel,
        seed: u64,
        stalled: impl Fn(f64, f64) -> bool,
    ) -> Option<(Vec<i64>, i64)> {
        let began = Instant::now();
        let deadline = began + Duration::from_secs_f64(seconds.max(0.0));
        let mut rng = SmallRng::seed_from_u64(seed);
        let first = self.state(self.sequences_of(starts))?;
        let mut best = first.clone();
        // The best makespan of all runs, and when it was found.
        let (mut shortest, mut last_best) = (best.makespan, 0.0);
        let mut stop = |makespan: i64| {
            let now = began.elapsed().as_secs_f64();
            if makespan < shortest {
                (shortest, last_best) = (makespan, now);
            }
            Instant::now() >= deadline || cancel.is_cancelled() || stalled(now, now - last_best)
        };
        loop {
            let (found, stopped) = self.run(first.clone(), floor, &mut rng, &mut stop);
            if found.makespan < best.makespan {
                best = found;
            }
            if stopped || best.makespan <= floor {
                break;
            }
        }
        Some((best.heads, best.makespan))
    }

    /// One run of the search from `state`, until its best schedule reaches `floor`, it
    /// stalls (no new best of its own for [`RUN_PATIENCE`] steps, or twice the steps it took
    /// to find its last), or `stop` (asked with the run's best makespan) says to stop.
    /// Returns the run's best schedule and whether `stop` ended it.
    fn run(
        &self,
        mut state: State,
        floor: i64,
        rng: &mut SmallRng,
        stop: &mut impl FnMut(i64) -> bool,
    ) -> (State, bool) {
        let mut best = state.clone();
        let per_machine = self.durations.len() / self.users.len().max(1);
        let mut tabu: FxHashMap<(usize, usize), usize> = FxHashMap::default();
        let mut idle = 0;
        let mut last_best = 0;
        let mut step = 0usize;
        while best.makespan > floor {
            step += 1;
            if step.is_multiple_of(64) && stop(best.makespan) {
                return (best, true);
            }
            if step > RUN_PATIENCE.max(2 * last_best) {
                break;
            }
            if idle >= PATIENCE {
                idle = 0;
                tabu.clear();
                state = best.clone();
                for _ in 0..rng.random_range(1..=KICK) {
                    let moves = self.moves(&state, rng);
                    if let Some(&(a, b)) = moves.get(rng.random_range(0..moves.len().max(1))) {
                        self.swap(&mut state, a, b);
                        if !self.schedule(&mut state) {
                            self.swap(&mut state, b, a);
                            self.schedule(&mut state);
                        }
                    }
                }
            }
            let moves = self.moves(&state, rng);
            let mut chosen: Option<((usize, usize), i64)> = None;
            let mut ties = 0;
            for &(a, b) in &moves {
                let value = self.estimate(&state, a, b);
                let forbidden = tabu.get(&(a, b)).is_some_and(|&until| until > step);
                if forbidden && value >= best.makespan {
                    continue;
                }
                match chosen {
                    Some((_, v)) if value > v => {}
                    Some((_, v)) if value == v => {
                        ties += 1;
                        if rng.random_range(0..=ties) == 0 {
                            chosen = Some(((a, b), value));
                        }
                    }
                    _ => {
                        ties = 0;
                        chosen = Some(((a, b), value));
                    }
                }
            }
            // Every move forbidden: take one at random.
            let Some(((a, b), _)) = chosen.or_else(|| {
                moves
                    .get(rng.random_range(0..moves.len().max(1)))
                    .map(|&m| (m, 0))
            }) else {
                // No move at all: the schedule is as short as its one block allows.
                break;
            };
            self.swap(&mut state, a, b);
            if !self.schedule(&mut state) {
                self.swap(&mut state, b, a);
                self.schedule(&mut state);
                tabu.insert((a, b), step + TENURE + per_machine);
                idle += 1;
                continue;
            }
            let tenure = TENURE + rng.random_range(0..=per_machine / 2);
            tabu.insert((b, a), step + tenure);
            if state.makespan < best.makespan {
                best = state.clone();
                last_best = step;
                idle = 0;
            } else {
                idle += 1;
            }
        }
        (best, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Its earliest starts are the schedule only where nothing but minimum lags, releases
    /// and machines binds: a deadline (an upper bound on a start) refuses the shop.
    #[test]
    fn a_deadline_is_no_job_shop() {
        let mut instance = makespan_testkit::job_shop::job_shop("js", 3, 3, 7);
        let shop = Shop::of(&Problem::compile(&instance).unwrap()).expect("a job shop");
        assert_eq!(shop.users.iter().map(Vec::len).sum::<usize>(), 9);
        instance.activities[4].deadline = Some(100);
        assert!(Shop::of(&Problem::compile(&instance).unwrap()).is_none());
    }

    /// The sequences of a schedule are its machines' users by start, and give it back
    /// where it is left-justified; swapping two neighbours on a machine both ways restores it.
    #[test]
    fn sequences_give_back_a_left_justified_schedule() {
        let instance = makespan_testkit::job_shop::job_shop("js", 4, 3, 11);
        let problem = Problem::compile(&instance).unwrap();
        let shop = Shop::of(&problem).unwrap();
        let first = shop
            .state(shop.sequences_of(&vec![0; problem.len()]))
            .unwrap();
        let again = shop.state(shop.sequences_of(&first.heads)).unwrap();
        assert_eq!(again.heads, first.heads);
        let mut state = again.clone();
        let (a, b) = (state.sequences[0][0], state.sequences[0][1]);
        shop.swap(&mut state, a, b);
        assert_eq!(state.sequences[0][..2], [b, a]);
        shop.swap(&mut state, b, a);
        assert!(shop.schedule(&mut state));
        assert_eq!(state.heads, first.heads);
    }
}
