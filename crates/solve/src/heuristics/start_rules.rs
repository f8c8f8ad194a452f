//! The rules of schedule generation that are not resource profiles: start-instant agent
//! needs and resource states. [`StartRules`] remembers what is placed and answers whether an
//! activity may start at a time, and which later times could change that answer.

use crate::problem::Problem;

/// What is placed so far, as far as instants and states care.
pub struct StartRules<'a> {
    problem: &'a Problem,
    /// Agent busy spans placed so far: `(start, end)` per agent pool resource.
    busy: Vec<(usize, i64, i64)>,
    /// Placed instant needs: `(resource, time)`.
    instants: Vec<(usize, i64)>,
    /// Per state variable: placed sets `(time, value, activity)`.
    sets: Vec<Vec<(i64, usize, usize)>>,
    /// Per state variable: placed requirements `(time, value, activity)`.
    requirements: Vec<Vec<(i64, usize, usize)>>,
    /// Per activity: its instant needs, state sets and requirements.
    instant_of: Vec<Vec<(usize, i64)>>,
    sets_of: Vec<Vec<(usize, usize)>>,
    requires_of: Vec<Vec<(usize, usize)>>,
    pools: Vec<bool>,
    /// Start times of placed activities.
    start: Vec<Option<i64>>,
    /// Per activity: the piece lags its chunk (not the first) belongs to, with its position.
    lag_of: Vec<Vec<(usize, usize)>>,
}

impl<'a> StartRules<'a> {
    pub fn new(problem: &'a Problem) -> Self {
        let nodes = problem.network.nodes();
        let mut instant_of = vec![Vec::new(); nodes];
        let mut pools = vec![false; problem.capacities.len()];
        for i in &problem.instants {
            instant_of[i.activity].push((i.resource, i.offset));
            pools[i.resource] = true;
        }
        let mut sets_of = vec![Vec::new(); nodes];
        let mut requires_of = vec![Vec::new(); nodes];
        for (s, var) in problem.states.iter().enumerate() {
            for &(j, v) in &var.setters {
                sets_of[j].push((s, v));
            }
            for &(j, v) in &var.requirers {
                requires_of[j].push((s, v));
            }
        }
        let mut lag_of = vec![Vec::new(); nodes];
        for (g, lag) in problem.expanded.piece_lags.iter().enumerate() {
            for (i, &c) in lag.chunks.iter().enumerate().skip(1) {
                lag_of[c].push((g, i));
            }
        }
        StartRules {
            start: vec![None; nodes],
            lag_of,
            problem,
            busy: Vec::new(),
            instants: Vec::new(),
            sets: vec![Vec::new(); problem.states.len()],
            requirements: vec![Vec::new(); problem.states.len()],
            instant_of,
            sets_of,
            requires_of,
            pools,
        }
    }

    /// Whether nothing here can ever block an activity.
    pub fn is_empty(&self) -> bool {
        self.problem.instants.is_empty()
            && self.problem.states.is_empty()
            && self.problem.expanded.piece_lags.is_empty()
    }

    /// The latest allowed piece start of a piece lag, once its `from` is placed.
    fn lag_deadline(&self, g: usize) -> Option<i64> {
        let lag = &self.problem.expanded.piece_lags[g];
        let s = self.start[lag.from]?;
        Some(lag.deadline(s, self.problem.durations[lag.from]))
    }

    /// Whether a piece lag's activity runs over the unit starting at `t`.
    fn runs_at(&self, g: usize, t: i64) -> bool {
        self.problem.expanded.piece_lags[g]
            .chunks
            .iter()
            .any(|&c| self.start[c] == Some(t))
    }

    fn spanning(&self, resource: usize, t: i64) -> i64 {
        self.busy
            .iter()
            .filter(|&&(r, s, e)| r == resource && s < t && t < e)
            .count() as i64
    }

    /// The agent busy spans of `j` started at `t`, on pools that have instant needs.
    fn spans(&self, j: usize, t: i64) -> impl Iterator<Item = (usize, i64, i64)> + '_ {
        self.problem.demands[j]
            .iter()
            .filter(|d| self.pools[d.resource] && d.amount > 0 && d.to > d.from)
            .map(move |d| (d.resource, t + d.from, t + d.to))
    }

    /// Whether `j` may start at `t` given everything placed.
    pub fn fits(&self, j: usize, t: i64) -> bool {
        let cap = |r: usize| self.problem.capacities[r];
        for &(r, offset) in &self.instant_of[j] {
            if self.spanning(r, t + offset) >= cap(r) {
                return false;
            }
            // An instant inside a window-bound preemptible activity starts a new piece.
            let u = t + offset;
            for g in 0..self.problem.expanded.piece_lags.len() {
                if self.runs_at(g, u - 1)
                    && self.runs_at(g, u)
                    && self.lag_deadline(g).is_some_and(|d| u > d)
                {
                    return false;
                }
            }
        }
        for &(g, i) in &self.lag_of[j] {
            let chunks = &self.problem.expanded.piece_lags[g].chunks;
            let Some(prev) = self.start[chunks[i - 1]] else {
                continue;
            };
            let split = t > prev + 1 || self.instants.iter().any(|&(_, u)| u == t);
            if split && self.lag_deadline(g).is_some_and(|d| t > d) {
                return false;
            }
        }
        for (r, s, e) in self.spans(j, t) {
            for &(ir, u) in &self.instants {
                if ir == r && s < u && u < e && self.spanning(r, u) + 1 >= cap(r) {
                    return false;
                }
            }
        }
        for &(s, v) in &self.requires_of[j] {
            if self.governing(s, t, j) != Some(Ok(v)) {
                return false;
            }
        }
        for &(s, v) in &self.sets_of[j] {
            if self.sets[s].iter().any(|&(u, w, _)| u == t && w != v) {
                return false;
            }
            for &(ta, w, a) in &self.requirements[s] {
                if w == v || ta < t {
                    continue;
                }
                let g = self.sets[s]
                    .iter()
                    .filter(|&&(u, _, b)| u <= ta && b != a)
                    .map(|&(u, _, _)| u)
                    .max();
                if g.is_none_or(|g| t >= g) {
                    return false;
                }
            }
        }
        true
    }

    /// The value of state `s` that a requirement of `j` at `t` sees: `Ok(value)` when every
    /// latest set agrees, `Err(())` when they differ, `None` when nothing is set yet.
    fn governing(&self, s: usize, t: i64, j: usize) -> Option<Result<usize, ()>> {
        let seen = self.sets[s].iter().filter(|&&(u, _, b)| u <= t && b != j);
        let last = seen.clone().map(|&(u, _, _)| u).max()?;
        let mut values = seen.filter(|&&(u, _, _)| u == last).map(|&(_, v, _)| v);
        let first = values.next()?;
        Some(if values.all(|v| v == first) {
            Ok(first)
        } else {
            Err(())
        })
    }

    /// Times after `lo` at which a start of `j` blocked here may become possible.
    pub fn candidates(&self, j: usize, lo: i64) -> Vec<i64> {
        let mut out = Vec::new();
        for &(r, offset) in &self.instant_of[j] {
            out.extend(
                self.busy
                    .iter()
                    .filter(|b| b.0 == r)
                    .map(|&(_, _, e)| e - offset),
            );
        }
        let spans: Vec<(usize, i64, i64)> = self.spans(j, 0).collect();
        for (r, from, to) in spans {
            for &(_, u) in self.instants.iter().filter(|i| i.0 == r) {
                out.extend([u - from, u - to]);
            }
        }
        for &(s, v) in &self.requires_of[j] {
            out.extend(self.sets[s].iter().filter(|x| x.1 == v).map(|x| x.0));
        }
        for &(s, _) in &self.sets_of[j] {
            out.extend(self.requirements[s].iter().map(|x| x.0 + 1));
            out.extend(self.sets[s].iter().map(|x| x.0 + 1));
        }
        out.retain(|&t| t > lo);
        out
    }

    /// When `j` found no start because a piece lag's window closed, the activity the lag is
    /// measured from and a start one unit later than it has now.
    pub fn lag_to_delay(&self, j: usize) -> Option<(usize, i64)> {
        self.lag_of[j].iter().find_map(|&(g, _)| {
            let from = self.problem.expanded.piece_lags[g].from;
            self.start[from].map(|s| (from, s + 1))
        })
    }

    /// Records `j` started at `t`.
    pub fn place(&mut self, j: usize, t: i64) {
        self.start[j] = Some(t);
        let spans: Vec<(usize, i64, i64)> = self.spans(j, t).collect();
        self.busy.extend(spans);
        for &(r, offset) in &self.instant_of[j] {
            self.instants.push((r, t + offset));
        }
        for &(s, v) in &self.sets_of[j] {
            self.sets[s].push((t, v, j));
        }
        for &(s, v) in &self.requires_of[j] {
            self.requirements[s].push((t, v, j));
        }
    }
}
