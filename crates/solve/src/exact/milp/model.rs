//! The time-indexed MILP in its step form: `y[j,t] = 1` iff activity `j` has started by
//! period `t`. It is a unimodular transform of the pulse form (`x[j,t] = y[j,t] − y[j,t−1]`)
//! with the LP strength of disaggregated precedences (Christofides et al. 1987; Artigues
//! 2017), but every precedence row has two nonzeros and every capacity row two per activity,
//! so the LP stays small on long horizons. The makespan is the start of the sink, a node
//! like any other, so it gets the same strong rows.

use super::highs::{Row, Rows, Term, Var};
use crate::problem::Problem;

/// The step variables of one network node: `y[t]` for `t` in `[first, last)`; the node has
/// certainly started by `last` (its latest start), so `y[last..] = 1` needs no column.
pub(super) struct Steps {
    pub(super) first: i64,
    pub(super) last: i64,
    cols: Vec<Var>,
}

impl Steps {
    /// "Started by `t`" as a column or a constant.
    pub(super) fn by(&self, t: i64) -> Term {
        if t < self.first {
            Term::Const(0.0)
        } else if t >= self.last {
            Term::Const(1.0)
        } else {
            Term::Var(self.cols[(t - self.first) as usize])
        }
    }

    /// The start time encoded by a column solution.
    fn start(&self, values: &[f64]) -> i64 {
        self.cols
            .iter()
            .position(|&c| values[c.index()] > 0.5)
            .map_or(self.last, |k| self.first + k as i64)
    }
}

/// A built model and the map from its columns back to start times.
pub(super) struct TimeIndexed {
    pub(super) rows: Rows,
    steps: Vec<Steps>,
}

impl TimeIndexed {
    /// Number of step variables the model of `horizon` would have (`None` if the temporal
    /// network alone rules the horizon out), to refuse models too large to be useful.
    pub(super) fn variables(problem: &Problem, horizon: i64) -> Option<u64> {
        let latest = problem.network.latest_starts(horizon).ok()?;
        Some(
            latest
                .iter()
                .zip(&problem.earliest)
                .map(|(l, e)| (l - e).max(0) as u64)
                .sum(),
        )
    }

    /// Builds the model of "every activity ends by `horizon`", minimising the makespan with
    /// `lower_bound` as the makespan's lower limit. `None` if the temporal network alone
    /// rules the horizon out.
    pub(super) fn build(problem: &Problem, horizon: i64, lower_bound: i64) -> Option<TimeIndexed> {
        let latest = problem.network.latest_starts(horizon).ok()?;
        let sink = problem.network.sink();
        let mut rows = Rows::default();
        let mut first: Vec<i64> = problem.earliest.clone();
        first[sink] = first[sink].max(lower_bound);
        if first[sink] > latest[sink] {
            return None;
        }
        // Minimising the sink's start = last − Σ_t y[sink, t]: each column costs −1.
        let steps: Vec<Steps> = (0..problem.network.nodes())
            .map(|j| {
                let cost = if j == sink { -1.0 } else { 0.0 };
                let cols = (first[j]..latest[j]).map(|_| rows.binary(cost)).collect();
                Steps {
                    first: first[j],
                    last: latest[j],
                    cols,
                }
            })
            .collect();

        for s in &steps {
            // Once started, always started.
            for w in s.cols.windows(2) {
                let mut row = Row::default();
                row.add(Term::Var(w[0]), 1.0);
                row.add(Term::Var(w[1]), -1.0);
                rows.add(row, 0.0);
            }
        }
        // S_j ≥ S_i + w: if j has started by t, i has started by t − w.
        for arc in problem.network.arcs() {
            let (i, j, w) = (arc.from, arc.to, arc.weight);
            if i == problem.network.origin() {
                continue; // releases are already in the earliest starts
            }
            for t in steps[j].first..steps[j].last {
                let mut row = Row::default();
                row.add(steps[j].by(t), 1.0);
                row.add(steps[i].by(t - w), -1.0);
                rows.add(row, 0.0);
            }
        }
        // Capacity: j runs at t iff it started in (t − to, t − from].
        for (r, &capacity) in problem.capacities.iter().enumerate() {
            let users: Vec<(usize, i64, i64, i64)> = (0..problem.len())
                .flat_map(|j| {
                    problem.demands[j]
                        .iter()
                        .filter(move |d| d.resource == r && d.to > d.from && d.amount > 0)
                        .map(move |d| (j, d.amount, d.from, d.to))
                })
                .collect();
            for t in 0..horizon {
                let mut row = Row::default();
                let mut peak = 0;
                for &(j, amount, from, to) in &users {
                    let (s, e) = (steps[j].by(t - from), steps[j].by(t - to));
                    let may_run = !matches!((&s, &e), (Term::Const(a), Term::Const(b)) if a == b);
                    if may_run {
                        peak += amount;
                        row.add(s, amount as f64);
                        row.add(e, -(amount as f64));
                    }
                }
                super::holds::add_terms(problem, r, t, &steps, &mut row, &mut peak);
                if peak > capacity {
                    rows.add(row, capacity as f64);
                }
            }
        }
        // Rules beyond precedences and capacities: one module each, one signature.
        for family in super::ROW_FAMILIES {
            family(problem, horizon, &steps, &mut rows);
        }
        if rows.contradicted() {
            return None;
        }
        Some(TimeIndexed { rows, steps })
    }

    /// What to add to the objective value to get the makespan (the objective is
    /// `−Σ_t y[sink, t]`).
    pub(super) fn objective_offset(&self) -> i64 {
        self.steps.last().map_or(0, |sink| sink.last)
    }

    /// Start times of the activities (not the origin and sink) in a column solution.
    pub(super) fn decode(&self, values: &[f64], activities: usize) -> Vec<i64> {
        self.steps[..activities]
            .iter()
            .map(|s| s.start(values))
            .collect()
    }
}
