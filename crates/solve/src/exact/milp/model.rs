//! The time-indexed MILP in its step form: `y[j,t] = 1` iff activity `j` has started by
//! period `t`. It is a unimodular transform of the pulse form (`x[j,t] = y[j,t] − y[j,t−1]`)
//! with the LP strength of disaggregated precedences (Christofides et al. 1987; Artigues
//! 2017), but every precedence row has two nonzeros and every capacity row two per activity,
//! so the LP stays small on long horizons. The makespan is the start of the sink, a node
//! like any other, so it gets the same strong rows.

use highs::{Col, RowProblem};

use crate::problem::Problem;

/// The step variables of one network node: `y[t]` for `t` in `[first, last)`; the node has
/// certainly started by `last` (its latest start), so `y[last..] = 1` needs no column.
pub struct Steps {
    pub(super) first: i64,
    pub(super) last: i64,
    cols: Vec<Col>,
}

/// A term of a row: a column, or a constant that is already known.
pub(super) enum Term {
    Col(Col),
    Const(f64),
}

impl Steps {
    /// "Started by `t`" as a column or a constant.
    pub(super) fn by(&self, t: i64) -> Term {
        if t < self.first {
            Term::Const(0.0)
        } else if t >= self.last {
            Term::Const(1.0)
        } else {
            Term::Col(self.cols[(t - self.first) as usize])
        }
    }

    /// The start time encoded by a column solution.
    fn start(&self, values: &[f64]) -> i64 {
        self.cols
            .iter()
            .position(|c| values[c.index()] > 0.5)
            .map_or(self.last, |k| self.first + k as i64)
    }
}

/// A built model and the map from its columns back to start times.
pub struct TimeIndexed {
    pub problem: RowProblem,
    steps: Vec<Steps>,
}

/// Collects `Σ coef · term ≤/≥ bound` with constants folded into the bound.
#[derive(Default)]
pub(super) struct Row {
    pub(super) terms: Vec<(Col, f64)>,
    pub(super) constant: f64,
}

impl Row {
    pub(super) fn add(&mut self, term: Term, coef: f64) {
        match term {
            Term::Col(c) => self.terms.push((c, coef)),
            Term::Const(v) => self.constant += v * coef,
        }
    }
}

impl TimeIndexed {
    /// Number of step variables the model of `horizon` would have (`None` if the temporal
    /// network alone rules the horizon out), to refuse models too large to be useful.
    pub fn variables(problem: &Problem, horizon: i64) -> Option<u64> {
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
    pub fn build(problem: &Problem, horizon: i64, lower_bound: i64) -> Option<TimeIndexed> {
        let latest = problem.network.latest_starts(horizon).ok()?;
        let sink = problem.network.sink();
        let mut model = RowProblem::default();
        let mut first: Vec<i64> = problem.earliest.clone();
        first[sink] = first[sink].max(lower_bound);
        if first[sink] > latest[sink] {
            return None;
        }
        // Minimising the sink's start = last − Σ_t y[sink, t]: each column costs −1.
        let steps: Vec<Steps> = (0..problem.network.nodes())
            .map(|j| {
                let cost = if j == sink { -1.0 } else { 0.0 };
                let cols = (first[j]..latest[j])
                    .map(|_| model.add_integer_column(cost, 0..=1))
                    .collect();
                Steps {
                    first: first[j],
                    last: latest[j],
                    cols,
                }
            })
            .collect();

        // A row whose every term is known is either trivially true or proves the horizon
        // infeasible.
        let mut contradiction = false;
        let mut add = |row: Row, upper: f64| {
            if !row.terms.is_empty() {
                model.add_row(..=upper - row.constant, row.terms);
            } else if row.constant > upper + 1e-9 {
                contradiction = true;
            }
        };
        for s in &steps {
            // Once started, always started.
            for w in s.cols.windows(2) {
                add(
                    Row {
                        terms: vec![(w[0], 1.0), (w[1], -1.0)],
                        constant: 0.0,
                    },
                    0.0,
                );
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
                add(row, 0.0);
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
                    add(row, capacity as f64);
                }
            }
        }
        super::cliques::add_rows(problem, horizon, &steps, &mut add);
        super::setups::add_rows(problem, horizon, &steps, &mut add);
        // Rules beyond capacities, one module each; `false` means a proven contradiction.
        let sides = [
            super::instants::add_rows(problem, &steps, &mut model),
            super::preemption::add_rows(problem, &steps, &mut model),
            super::states::add_rows(problem, &steps, horizon, &mut model),
        ];
        if contradiction || sides.contains(&false) {
            return None;
        }
        Some(TimeIndexed {
            problem: model,
            steps,
        })
    }

    /// Adds `row ≤ upper`, folding constants; `false` if the row is constant and violated.
    /// Terms of one column are merged (HiGHS rejects repeated columns in a row).
    pub(super) fn push(model: &mut RowProblem, row: Row, upper: f64) -> bool {
        let mut terms: Vec<(Col, f64)> = Vec::with_capacity(row.terms.len());
        for (col, coef) in row.terms {
            match terms.iter_mut().find(|(c, _)| c.index() == col.index()) {
                Some(term) => term.1 += coef,
                None => terms.push((col, coef)),
            }
        }
        terms.retain(|&(_, coef)| coef != 0.0);
        if !terms.is_empty() {
            model.add_row(..=upper - row.constant, terms);
            true
        } else {
            row.constant <= upper + 1e-9
        }
    }

    /// What to add to the objective value to get the makespan (the objective is
    /// `−Σ_t y[sink, t]`).
    pub fn objective_offset(&self) -> i64 {
        self.steps.last().map_or(0, |sink| sink.last)
    }

    /// Start times of the activities (not the origin and sink) in a column solution.
    pub fn decode(&self, values: &[f64], activities: usize) -> Vec<i64> {
        self.steps[..activities]
            .iter()
            .map(|s| s.start(values))
            .collect()
    }
}
