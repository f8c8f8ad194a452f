//! Pruning: start windows over every lag, the longest path ahead, and per unary resource
//! the one-machine bound and a preemptive due-date check, all from a state at an instant.

use std::cmp::Reverse;
use std::collections::binary_heap::PeekMut;
use std::collections::BinaryHeap;

use super::rules::Rules;
use super::{has, insert, Bits, Key, WORDS};

/// The head of an activity that has started, and its latest start: far enough out that no
/// arc from it binds another, near enough that adding a lag cannot overflow.
const UNBOUNDED: i64 = 1 << 60;

/// Scratch space of the bounds, one per worker thread.
pub(super) struct Scratch {
    /// Earliest starts.
    heads: Vec<i64>,
    /// Latest starts.
    latest: Vec<i64>,
    /// The activities still to start, in [`Rules::order`].
    open: Vec<usize>,
    /// Activities whose window a maximum lag moved, to carry on from.
    moved: Vec<usize>,
    /// Per resource, `(head, work, tail, due)` of the work left.
    jobs: Vec<Vec<(i64, i64, i64, i64)>>,
    /// Scratch space of [`meets_due_dates`].
    due: BinaryHeap<Reverse<(i64, i64)>>,
    buckets: Buckets,
    /// After [`lower_bound`]: the activities not started whose window closes at the
    /// state's instant, so every completion shorter than the best starts them then.
    pub(super) forced: Bits,
    /// After [`lower_bound`]: the activities not started that no completion shorter than
    /// the best starts at the state's instant (a head later, or a maximum lag back to an
    /// activity whose head is too late).
    pub(super) blocked: Bits,
}

impl Scratch {
    pub(super) fn new(rules: &Rules) -> Scratch {
        Scratch {
            heads: vec![0; rules.n],
            latest: vec![0; rules.n],
            open: Vec::with_capacity(rules.n),
            moved: Vec::new(),
            jobs: vec![Vec::new(); rules.capacities.len()],
            due: BinaryHeap::new(),
            buckets: Buckets {
                work: vec![0; BUCKETS],
                full: [0; BUCKETS / 64],
            },
            forced: [0; WORDS],
            blocked: [0; WORDS],
        }
    }
}

/// Whether every activity not started yet keeps a start window: its earliest start
/// (`Scratch::heads`, from `now`, the ages and every arc, maximum lags included, to a fixed
/// point) is no later than its latest one (deadlines, maximum lags from what has started,
/// and ending before `best` with its tail, carried back along every arc). Each step
/// is a rule the schedule must obey, so a state without windows has no completion
/// shorter than the best known.
fn windows(r: &Rules, best: i64, scratch: &mut Scratch, key: &Key, now: i64) -> bool {
    let started = &key.started;
    let (head, latest, open) = (&mut scratch.heads, &mut scratch.latest, &mut scratch.open);
    // What has started takes no part: its head and latest start never bind another.
    open.clear();
    for &j in &r.order {
        if has(started, j) {
            head[j] = -UNBOUNDED;
            latest[j] = UNBOUNDED;
        } else {
            head[j] = now;
            latest[j] = r.deadline[j].min(best - 1 - r.tail[j]);
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
    // Maximum lags between activities still to start: what they move is carried on along
    // every arc from the activities they move, to a fixed point (the network has no
    // positive cycle; the carrying stops after n rounds' worth in any case, and every
    // value reached is a valid bound).
    let moved = &mut scratch.moved;
    moved.clear();
    for &(i, j, w) in &r.backward {
        if !has(started, i) && !has(started, j) && head[i] + w > head[j] {
            head[j] = head[i] + w;
            moved.push(j);
        }
    }
    let mut budget = (r.n + 1) * r.n;
    while let Some(i) = moved.pop() {
        for &(k, w) in &r.out_of[i] {
            if !has(started, k) && head[i] + w > head[k] {
                head[k] = head[i] + w;
                moved.push(k);
            }
        }
        budget = budget.saturating_sub(1);
        if budget == 0 {
            break;
        }
    }
    moved.clear();
    for &(i, j, w) in &r.backward {
        if !has(started, i) && !has(started, j) && latest[j] - w < latest[i] {
            latest[i] = latest[j] - w;
            moved.push(i);
        }
    }
    let mut budget = (r.n + 1) * r.n;
    while let Some(k) = moved.pop() {
        for &(j, w) in &r.into[k] {
            if !has(started, j) && latest[k] - w < latest[j] {
                latest[j] = latest[k] - w;
                moved.push(j);
            }
        }
        budget = budget.saturating_sub(1);
        if budget == 0 {
            break;
        }
    }
    open.iter().all(|&j| latest[j] >= head[j])
}

/// A lower bound on the makespan of any schedule through `key` at `now`: the longest
/// path ahead of every activity from its earliest start (heads follow the minimum lags
/// from what has started), and for every resource the one-machine bound with heads and
/// tails over the work left (for a unary one: some remaining demand starts no earlier
/// than a head, all the demand from there on runs one after another, and the last of
/// it is followed by its tail).
pub(super) fn lower_bound(r: &Rules, best: i64, scratch: &mut Scratch, key: &Key, now: i64) -> i64 {
    scratch.forced = [0; WORDS];
    scratch.blocked = [0; WORDS];
    if !windows(r, best, scratch, key, now) {
        return i64::MAX;
    }
    let mut bound = now;
    let jobs = &mut scratch.jobs;
    jobs.iter_mut().for_each(Vec::clear);
    for &(i, a) in &key.ages {
        let (i, a) = (usize::from(i), i64::from(a));
        if a < i64::from(r.cap[i]) {
            bound = bound.max(now - a + r.tail[i]);
        }
        for &(res, amount, until) in &r.demands[i] {
            if a < until {
                let q = r.tail[i] - until;
                jobs[res].push((now, amount * (until - a), q, best - 1 - q));
            }
        }
    }
    let (head, latest) = (&scratch.heads, &scratch.latest);
    for &j in &scratch.open {
        let h = head[j];
        if latest[j] <= now {
            insert(&mut scratch.forced, j);
        }
        if h > now
            || r.into[j]
                .iter()
                .any(|&(i, w)| !has(&key.started, i) && head[i] + w > now)
        {
            insert(&mut scratch.blocked, j);
        }
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
    if bound >= best {
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
        if latest_head + work > first_due
            && !meets_due_dates(jobs, first_due, &mut scratch.due, &mut scratch.buckets)
        {
            return i64::MAX;
        }
    }
    bound
}

/// Due dates within this many of the first are kept in buckets, not a heap.
const BUCKETS: usize = 512;

/// The work released and not done in [`meets_due_dates`], by due date from the first: a
/// bit per due date with work left, so the first due is found by a few word scans.
struct Buckets {
    /// All zero between calls.
    work: Vec<i64>,
    full: [u64; BUCKETS / 64],
}

impl Buckets {
    fn add(&mut self, b: usize, p: i64) {
        self.work[b] += p;
        self.full[b / 64] |= 1 << (b % 64);
    }

    fn first(&self) -> Option<usize> {
        let (w, bits) = self.full.iter().enumerate().find(|(_, &bits)| bits != 0)?;
        Some(w * 64 + bits.trailing_zeros() as usize)
    }

    /// Does `run` of the work due at `b`; whether it is all done.
    fn run(&mut self, b: usize, run: i64) -> bool {
        self.work[b] -= run;
        let done = self.work[b] == 0;
        if done {
            self.full[b / 64] &= !(1 << (b % 64));
        }
        done
    }

    /// Drops the work left, so the next call starts empty.
    fn clear(&mut self) {
        while let Some(b) = self.first() {
            let left = self.work[b];
            self.run(b, left);
        }
    }
}

/// Whether one machine can do every job `(head, work, tail, due)` between its head and its
/// due date when work may be interrupted (a relaxation of every schedule that ends before
/// the best known). Earliest due date first among the released jobs is optimal for this,
/// so it decides. `jobs` come sorted by latest head first; `first_due` is the earliest due
/// date. Jobs due at the same time run in any order, so where the due dates span few
/// instants they are kept as work per due date ([`Buckets`]), else in a heap.
fn meets_due_dates(
    jobs: &[(i64, i64, i64, i64)],
    first_due: i64,
    due: &mut BinaryHeap<Reverse<(i64, i64)>>,
    buckets: &mut Buckets,
) -> bool {
    if jobs.iter().any(|j| j.3 - first_due >= BUCKETS as i64) {
        return meets_due_dates_in_heap(jobs, due);
    }
    let mut next = jobs.iter().rev().peekable();
    let mut t = i64::MIN;
    loop {
        while let Some(&(_, p, _, d)) = next.next_if(|&&(h, ..)| h <= t) {
            buckets.add((d - first_due) as usize, p);
        }
        let Some(b) = buckets.first() else {
            match next.peek() {
                Some(&&(h, ..)) => {
                    t = h;
                    continue;
                }
                None => return true,
            }
        };
        let p = buckets.work[b];
        let run = next.peek().map_or(p, |&&(h, ..)| p.min(h - t));
        t += run;
        if buckets.run(b, run) && t > first_due + b as i64 {
            buckets.clear();
            return false;
        }
    }
}

/// [`meets_due_dates`] with the released jobs in a heap by due date.
fn meets_due_dates_in_heap(
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
        // The job due first runs until it is done or the next job is released; a job cut
        // short keeps its place at the top (only its work shrinks).
        let Some(mut top) = due.peek_mut() else {
            match next.peek() {
                Some(&&(h, ..)) => {
                    t = h;
                    continue;
                }
                None => return true,
            }
        };
        let Reverse((d, p)) = *top;
        let run = next.peek().map_or(p, |&&(h, ..)| p.min(h - t));
        t += run;
        if run < p {
            top.0 .1 = p - run;
        } else {
            PeekMut::pop(top);
            if t > d {
                return false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Earliest due date first, one unit of time at a time: slow, and plainly right for
    /// whole-unit jobs.
    fn meets_by_units(jobs: &[(i64, i64, i64, i64)]) -> bool {
        let mut left: Vec<i64> = jobs.iter().map(|j| j.1).collect();
        let mut t = jobs.iter().map(|j| j.0).min().unwrap_or(0);
        while left.iter().any(|&p| p > 0) {
            let next = (0..jobs.len())
                .filter(|&k| left[k] > 0 && jobs[k].0 <= t)
                .min_by_key(|&k| jobs[k].3);
            if let Some(k) = next {
                left[k] -= 1;
                if left[k] == 0 && t + 1 > jobs[k].3 {
                    return false;
                }
            }
            t += 1;
        }
        true
    }

    fn check(mut jobs: Vec<(i64, i64, i64, i64)>) -> Result<(), TestCaseError> {
        jobs.sort_unstable_by_key(|&(head, ..)| Reverse(head));
        let first_due = jobs.iter().map(|j| j.3).min().unwrap_or(i64::MAX);
        let mut due = BinaryHeap::new();
        let mut buckets = Buckets {
            work: vec![0; BUCKETS],
            full: [0; BUCKETS / 64],
        };
        let expected = meets_by_units(&jobs);
        // Twice: a failed check leaves the buckets empty for the next.
        for _ in 0..2 {
            let got = meets_due_dates(&jobs, first_due, &mut due, &mut buckets);
            prop_assert_eq!(got, expected);
            prop_assert!(buckets.work.iter().all(|&w| w == 0));
        }
        prop_assert_eq!(meets_due_dates_in_heap(&jobs, &mut due), expected);
        Ok(())
    }

    proptest! {
        /// Work kept by due date decides as a heap of jobs does, and as a unit-by-unit
        /// schedule does.
        #[test]
        fn due_date_buckets_decide_as_a_heap_does(
            jobs in prop::collection::vec((0i64..30, 1i64..8, 0i64..25), 1..14),
        ) {
            check(jobs.into_iter().map(|(h, p, slack)| (h, p, 0, h + p + slack - 6)).collect())?;
        }

        /// Due dates too far apart for the buckets go to the heap, with the same answers.
        #[test]
        fn far_due_dates_decide_in_the_heap(
            jobs in prop::collection::vec((0i64..30, 1i64..8, 0i64..25), 1..10),
        ) {
            let mut jobs: Vec<_> =
                jobs.into_iter().map(|(h, p, slack)| (h, p, 0, h + p + slack - 6)).collect();
            jobs.push((0, 1, 0, 2 * BUCKETS as i64));
            check(jobs)?;
        }
    }
}
