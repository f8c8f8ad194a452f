//! Constraint propagation on the time windows of one horizon, before the MILP is built.
//!
//! Two classic, sound rules run to a fixpoint together with the temporal network:
//! - **disjunctive pairs**: two activities whose demands on one resource exceed its
//!   capacity cannot overlap; if one order no longer fits the windows, the other becomes a
//!   precedence (an arc, hence one more strong row in the time-indexed model);
//! - **time-tabling**: the compulsory parts `[LS, ES + p)` of all activities form a profile
//!   no activity may push above capacity, which moves earliest starts up and latest starts
//!   down.
//!
//! Both remove only schedules that cannot end by the horizon, so the MILP on the tightened
//! problem has exactly the same feasible schedules but fewer columns and a stronger LP.
//! Failure proves that no schedule ends by the horizon; searching the smallest horizon that
//! survives gives a lower bound ("destructive" bounding, Klein & Scholl 1999). This is what
//! lets the job shop and highly resource-constrained RCPSP instances close, where windows
//! from precedences alone are loose.

use crate::problem::Problem;

/// Activities above this count are left alone (pairs grow quadratically).
const MAX_ACTIVITIES: usize = 2_000;
/// Profiles are arrays over the horizon; longer horizons skip time-tabling.
const MAX_PROFILE_CELLS: i64 = 20_000_000;
/// Rounds of both rules; each round that changes nothing ends the loop earlier.
const MAX_ROUNDS: usize = 200;
/// Edge finding costs the cube of a clique's size per round: larger cliques are skipped.
const MAX_EDGE_FINDING_CLIQUE: usize = 64;
/// Shaving repeats the whole propagation for every window end it tests: only on small
/// problems with short profiles, and within a budget of tests per horizon.
const MAX_SHAVED_ACTIVITIES: usize = 100;
const MAX_SHAVED_PROFILE_CELLS: i64 = 100_000;
const MAX_SHAVING_TESTS: usize = 2_000;

/// A demand of an activity on one resource, as a span relative to its start.
#[derive(Clone, Copy)]
struct Use {
    activity: usize,
    amount: i64,
    from: i64,
    to: i64,
}

/// `problem` with every window and precedence the rules derive for schedules that end by
/// `horizon` added to its network (releases, deadlines and precedences), or `None` when the
/// rules prove that no schedule ends by `horizon`.
pub fn tighten(problem: &Problem, horizon: i64) -> Option<Problem> {
    let n = problem.len();
    let windows = Windows::new(problem, horizon)?;
    if n > MAX_ACTIVITIES {
        return Some(problem.clone());
    }
    let uses = resource_uses(problem);
    let rules = Rules {
        problem,
        horizon,
        pairs: disjunctive_pairs(problem, &uses),
        cliques: super::cliques::cliques(problem, true)
            .into_iter()
            .filter(|c| c.len() <= MAX_EDGE_FINDING_CLIQUE)
            .collect(),
        timetable: horizon.saturating_mul(problem.capacities.len() as i64) <= MAX_PROFILE_CELLS,
        uses,
    };
    let mut state = State {
        windows,
        fixed: vec![false; rules.pairs.len()],
        extra: Vec::new(),
    };
    rules.fixpoint(&mut state)?;
    let profile_cells = horizon.saturating_mul(problem.capacities.len() as i64);
    if n <= MAX_SHAVED_ACTIVITIES && profile_cells <= MAX_SHAVED_PROFILE_CELLS {
        rules.shave(&mut state)?;
    }
    let State { windows, extra, .. } = state;
    let mut network = problem.network.clone();
    let origin = network.origin();
    for &(i, j, w) in &extra {
        network.add(i, j, w, true);
    }
    for j in 0..n {
        if windows.es[j] > problem.earliest[j] {
            network.add(origin, j, windows.es[j], true);
        }
        network.add(j, origin, -windows.ls[j], false);
    }
    let earliest = network.earliest_starts().ok()?;
    Some(Problem {
        network,
        earliest,
        ..problem.clone()
    })
}

/// The rules of one horizon and what they apply to.
struct Rules<'a> {
    problem: &'a Problem,
    horizon: i64,
    uses: Vec<Vec<Use>>,
    pairs: Vec<(usize, usize)>,
    cliques: Vec<Vec<usize>>,
    timetable: bool,
}

/// Windows and the precedences derived so far.
#[derive(Clone)]
struct State {
    windows: Windows,
    /// `fixed[k]`: the order of `pairs[k]` is decided (an arc in `extra`).
    fixed: Vec<bool>,
    extra: Vec<(usize, usize, i64)>,
}

impl Rules<'_> {
    /// Every rule to a fixpoint; `None` when they prove no schedule ends by the horizon.
    fn fixpoint(&self, state: &mut State) -> Option<()> {
        let p = &self.problem.durations;
        for _ in 0..MAX_ROUNDS {
            let mut changed = false;
            for (k, &(i, j)) in self.pairs.iter().enumerate() {
                if state.fixed[k] {
                    continue;
                }
                let (es, ls) = (&state.windows.es, &state.windows.ls);
                let i_first = es[i] + p[i] <= ls[j];
                let j_first = es[j] + p[j] <= ls[i];
                let arc = match (i_first, j_first) {
                    (false, false) => return None,
                    (true, false) => (i, j, p[i]),
                    (false, true) => (j, i, p[j]),
                    (true, true) => continue,
                };
                state.fixed[k] = true;
                state.extra.push(arc);
                state.windows.arcs.push(arc);
                changed = true;
            }
            let windows = &mut state.windows;
            if changed {
                windows.relax()?;
            }
            if self.timetable && windows.timetable(self.problem, &self.uses, self.horizon)? {
                windows.relax()?;
                changed = true;
            }
            let mut found = false;
            for clique in &self.cliques {
                found |= windows.edge_finding(p, clique)?;
            }
            if found {
                windows.relax()?;
                changed = true;
            }
            if !changed {
                return Some(());
            }
        }
        Some(())
    }

    /// Shaving (Martin & Shmoys 1996): if assuming that an activity starts at its earliest
    /// start leads the rules to a contradiction, it starts later (the smallest start whose
    /// assumption survives, by bisection); the same from its latest start. Rounds until
    /// nothing moves or the test budget is spent; `None` when a window empties.
    fn shave(&self, state: &mut State) -> Option<()> {
        let n = self.problem.len();
        let mut tests = 0;
        // `Some(true)` if the rules survive the start of `j` being restricted to `[lo, hi]`.
        let survives = |state: &State, j: usize, lo: i64, hi: i64, tests: &mut usize| {
            *tests += 1;
            let mut trial = state.clone();
            trial.windows.es[j] = lo;
            trial.windows.ls[j] = hi;
            trial.windows.relax().is_some() && self.fixpoint(&mut trial).is_some()
        };
        loop {
            let mut changed = false;
            for j in 0..n {
                let mut moved = false;
                if tests >= MAX_SHAVING_TESTS {
                    return Some(());
                }
                let (es, ls) = (state.windows.es[j], state.windows.ls[j]);
                if es < ls && !survives(state, j, es, es, &mut tests) {
                    // The smallest t with "starts in [es, t]" surviving: `lo` fails, and
                    // `hi` survives (the state itself is a fixpoint).
                    let (mut lo, mut hi) = (es, ls);
                    while hi - lo > 1 {
                        let mid = lo + (hi - lo) / 2;
                        if survives(state, j, es, mid, &mut tests) {
                            hi = mid;
                        } else {
                            lo = mid;
                        }
                    }
                    state.windows.es[j] = hi;
                    moved = true;
                }
                let (es, ls) = (state.windows.es[j], state.windows.ls[j]);
                if es < ls && !survives(state, j, ls, ls, &mut tests) {
                    // The largest t with "starts in [t, ls]" surviving: `hi` fails, `lo`
                    // survives.
                    let (mut lo, mut hi) = (es, ls);
                    while hi - lo > 1 {
                        let mid = lo + (hi - lo) / 2;
                        if survives(state, j, mid, ls, &mut tests) {
                            lo = mid;
                        } else {
                            hi = mid;
                        }
                    }
                    state.windows.ls[j] = lo;
                    moved = true;
                }
                if moved {
                    state.windows.relax()?;
                    self.fixpoint(state)?;
                    changed = true;
                }
            }
            if !changed {
                return Some(());
            }
        }
    }
}

/// The smallest horizon in `[from, to]` that propagation does not rule out, or `None` when
/// it rules out all of them. No schedule is shorter than the result: a lower bound.
pub fn first_open_horizon(problem: &Problem, from: i64, to: i64) -> Option<i64> {
    let open = |d: i64| tighten(problem, d).is_some();
    if from > to || !open(to) {
        return None;
    }
    if open(from) {
        return Some(from);
    }
    // Rules out `lo`, not `hi`: failure is monotone in the horizon, so bisect.
    let (mut lo, mut hi) = (from, to);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if open(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// Earliest and latest starts of every network node under a set of arcs `S_j ≥ S_i + w`.
#[derive(Clone)]
struct Windows {
    arcs: Vec<(usize, usize, i64)>,
    es: Vec<i64>,
    ls: Vec<i64>,
}

impl Windows {
    fn new(problem: &Problem, horizon: i64) -> Option<Windows> {
        let nodes = problem.network.nodes();
        let mut windows = Windows {
            arcs: problem
                .network
                .arcs()
                .iter()
                .map(|a| (a.from, a.to, a.weight))
                .collect(),
            es: problem.earliest.clone(),
            ls: vec![horizon; nodes],
        };
        windows.ls[problem.network.origin()] = 0;
        windows.relax()?;
        Some(windows)
    }

    /// Longest-path relaxation of both bounds to a fixpoint; `None` when a window empties
    /// (which also ends positive cycles, since every start is bounded by the horizon).
    fn relax(&mut self) -> Option<()> {
        loop {
            let mut changed = false;
            for &(i, j, w) in &self.arcs {
                if self.es[i] + w > self.es[j] {
                    self.es[j] = self.es[i] + w;
                    changed = true;
                }
                if self.ls[j] - w < self.ls[i] {
                    self.ls[i] = self.ls[j] - w;
                    changed = true;
                }
                if self.es[j] > self.ls[j] || self.es[i] > self.ls[i] {
                    return None;
                }
            }
            if !changed {
                return Some(());
            }
        }
    }

    /// One pass of time-tabling over every resource; `Some(true)` if a window shrank,
    /// `None` if an activity no longer fits anywhere in its window.
    fn timetable(&mut self, problem: &Problem, uses: &[Vec<Use>], horizon: i64) -> Option<bool> {
        let mut changed = false;
        for (r, users) in uses.iter().enumerate() {
            let capacity = problem.capacities[r];
            let mut profile = vec![0i64; horizon.max(0) as usize + 1];
            let compulsory = |u: &Use, es: &[i64], ls: &[i64]| {
                let (a, b) = (ls[u.activity] + u.from, es[u.activity] + u.to);
                (a.max(0), b.min(horizon))
            };
            for u in users {
                let (a, b) = compulsory(u, &self.es, &self.ls);
                for t in a..b {
                    profile[t as usize] += u.amount;
                }
            }
            for u in users {
                let j = u.activity;
                let (own_a, own_b) = compulsory(u, &self.es, &self.ls);
                let load = |t: i64| {
                    let own = if (own_a..own_b).contains(&t) {
                        u.amount
                    } else {
                        0
                    };
                    profile.get(t as usize).copied().unwrap_or(0) - own
                };
                let blocked = |t: i64| load(t) + u.amount > capacity;
                // Earliest start: jump past the last blocked instant of the span.
                let mut s = self.es[j];
                while let Some(t) = (s + u.from..s + u.to).rev().find(|&t| blocked(t)) {
                    s = t - u.from + 1;
                    if s > self.ls[j] {
                        return None;
                    }
                }
                // Latest start: jump before the first blocked instant of the span.
                let mut f = self.ls[j];
                while let Some(t) = (f + u.from..f + u.to).find(|&t| blocked(t)) {
                    f = t - u.to;
                    if f < s {
                        return None;
                    }
                }
                if s > self.es[j] || f < self.ls[j] {
                    // The profile keeps the old compulsory part until the next pass: a
                    // smaller profile only makes this pass weaker, never wrong.
                    self.es[j] = s;
                    self.ls[j] = f;
                    changed = true;
                }
            }
        }
        Some(changed)
    }
}

impl Windows {
    /// Edge finding on activities that pairwise cannot overlap (Carlier & Pinson 1990), in
    /// its task-interval form: for the activities `Ω` whose windows lie in `[lo, hi)`
    /// (`lo` an earliest start, `hi` a latest end), `lo + p(Ω) > hi` is a contradiction; an
    /// activity `i` outside `Ω` that cannot fit before all of `Ω` ends
    /// (`min(es_i, lo) + p(Ω) + p_i > hi`) must start after all of it, so not before
    /// `lo + p(Ω)`, and symmetrically one that cannot fit after all of `Ω` must end by
    /// `hi − p(Ω)`. `Some(true)` when a window shrank, `None` on a contradiction.
    fn edge_finding(&mut self, p: &[i64], clique: &[usize]) -> Option<bool> {
        let mut changed = false;
        // Members by latest end: for each `lo`, a sweep over `hi` grows `Ω` one at a time.
        let mut by_end: Vec<usize> = clique.to_vec();
        for &a in clique {
            let lo = self.es[a];
            by_end.sort_unstable_by_key(|&k| self.ls[k] + p[k]);
            // `hi` only grows: windows shrink during the sweep, and `Ω` must stay inside.
            let (mut work, mut hi) = (0, i64::MIN);
            for (m, &b) in by_end.iter().enumerate() {
                if self.es[b] < lo {
                    continue;
                }
                work += p[b];
                hi = hi.max(self.ls[b] + p[b]);
                // Members of equal latest end join `Ω` together: test at the last of them.
                if by_end
                    .get(m + 1)
                    .is_some_and(|&next| self.ls[next] + p[next] == hi)
                {
                    continue;
                }
                if lo + work > hi {
                    return None;
                }
                for &i in clique {
                    let end = self.ls[i] + p[i];
                    if self.es[i] >= lo && end <= hi {
                        continue; // in Ω
                    }
                    if self.es[i].min(lo) + work + p[i] > hi && lo + work > self.es[i] {
                        self.es[i] = lo + work;
                        changed = true;
                    }
                    if end.max(hi) - work - p[i] < lo && hi - work < end {
                        self.ls[i] = hi - work - p[i];
                        changed = true;
                    }
                    if self.es[i] > self.ls[i] {
                        return None;
                    }
                }
            }
        }
        Some(changed)
    }
}

/// Per resource, the demands with a positive span and amount.
fn resource_uses(problem: &Problem) -> Vec<Vec<Use>> {
    let mut uses = vec![Vec::new(); problem.capacities.len()];
    for (j, demands) in problem.demands.iter().enumerate().take(problem.len()) {
        for d in demands.iter().filter(|d| d.to > d.from && d.amount > 0) {
            uses[d.resource].push(Use {
                activity: j,
                amount: d.amount,
                from: d.from,
                to: d.to,
            });
        }
    }
    uses
}

/// Pairs `(i, j)`, `i < j`, that hold one resource for their whole durations and together
/// need more of it than there is, so they can never overlap.
fn disjunctive_pairs(problem: &Problem, uses: &[Vec<Use>]) -> Vec<(usize, usize)> {
    let mut pairs = std::collections::HashSet::new();
    for (r, users) in uses.iter().enumerate() {
        let whole: Vec<&Use> = users
            .iter()
            .filter(|u| u.from == 0 && u.to == problem.durations[u.activity])
            .collect();
        for (k, a) in whole.iter().enumerate() {
            for b in &whole[k + 1..] {
                if a.activity != b.activity && a.amount + b.amount > problem.capacities[r] {
                    pairs.insert((a.activity.min(b.activity), a.activity.max(b.activity)));
                }
            }
        }
    }
    let mut pairs: Vec<(usize, usize)> = pairs.into_iter().collect();
    pairs.sort_unstable();
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use makespan_model::instance::{Activity, Instance, Precedence, Resource, ResourceUse};

    /// Three activities of lengths 3, 4 and 2 on one unary machine, the first before the
    /// third: the optimum is 9.
    fn machine() -> Problem {
        let on_machine = |id: &str, p: i64| Activity {
            uses: vec![ResourceUse {
                resource: "m".into(),
                amount: 1,
            }],
            ..Activity::new(id, p)
        };
        let instance = Instance {
            resources: vec![Resource {
                id: "m".into(),
                capacity: 1,
                states: vec![],
            }],
            activities: vec![on_machine("a", 3), on_machine("b", 4), on_machine("c", 2)],
            precedences: vec![Precedence::finish_to_start("a", "c", 0)],
            ..Instance::new("m", None)
        };
        Problem::compile(&instance).unwrap()
    }

    #[test]
    fn horizons_below_the_machine_load_are_ruled_out() {
        let p = machine();
        assert!(tighten(&p, 8).is_none());
        assert_eq!(first_open_horizon(&p, 3, 20), Some(9));
        assert_eq!(first_open_horizon(&p, 3, 8), None);
    }

    #[test]
    fn tight_horizons_fix_the_order_and_keep_every_schedule() {
        let p = machine();
        let t = tighten(&p, 9).unwrap();
        // At 9 the machine is never idle and c cannot start before a ends.
        let latest = t.network.latest_starts(9).unwrap();
        assert!(latest.iter().zip(&t.earliest).all(|(l, e)| l >= e));
        // Every schedule of makespan 9 survives: a c b, b a c and a b c.
        for starts in [[0, 5, 3], [4, 0, 7], [0, 3, 7]] {
            for j in 0..3 {
                assert!(
                    t.earliest[j] <= starts[j] && starts[j] <= latest[j],
                    "{starts:?}"
                );
            }
        }
    }
}
