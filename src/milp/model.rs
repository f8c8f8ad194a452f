//! The time-indexed MILP: `x[j,t] = 1` iff activity `j` starts at period `t`, with
//! disaggregated precedence rows (Christofides et al. 1987), one capacity row per resource
//! and period (agents included, as one pool: no assignment variables, no symmetry), and a
//! continuous makespan variable.

use highs::{Col, RowProblem};

use crate::problem::Problem;

/// A built model and the map from its columns back to start times.
pub struct TimeIndexed {
    pub problem: RowProblem,
    /// For each activity, the first period of its window and one column per period.
    pub starts: Vec<(i64, Vec<Col>)>,
}

impl TimeIndexed {
    /// Builds the model of "every activity ends by `horizon`", minimising the makespan with
    /// `lower_bound` as the makespan's lower limit. `None` if the temporal network alone
    /// rules the horizon out.
    pub fn build(problem: &Problem, horizon: i64, lower_bound: i64) -> Option<TimeIndexed> {
        let latest = problem.network.latest_starts(horizon).ok()?;
        let earliest = &problem.earliest;
        let n = problem.len();
        let p = &problem.durations;
        let mut model = RowProblem::default();
        let makespan = model.add_column(1.0, lower_bound as f64..=horizon as f64);

        let starts: Vec<(i64, Vec<Col>)> = (0..n)
            .map(|j| {
                let cols = (earliest[j]..=latest[j])
                    .map(|_| model.add_integer_column(0.0, 0..=1))
                    .collect();
                (earliest[j], cols)
            })
            .collect();
        let x = |j: usize, t: i64| -> Option<Col> {
            let (first, cols) = &starts[j];
            usize::try_from(t - first).ok().and_then(|k| cols.get(k).copied())
        };

        for (j, (first, cols)) in starts.iter().enumerate() {
            model.add_row(1.0..=1.0, cols.iter().map(|&c| (c, 1.0)));
            // C ≥ Σ_t (t + p_j) x[j,t].
            let mut row: Vec<(Col, f64)> = cols
                .iter()
                .enumerate()
                .map(|(k, &c)| (c, -((first + k as i64 + p[j]) as f64)))
                .collect();
            row.push((makespan, 1.0));
            model.add_row(0.0.., row);
        }

        // Disaggregated precedence: if i starts at t or later, j cannot start before t + w.
        for arc in problem.network.arcs() {
            let (i, j, w) = (arc.from, arc.to, arc.weight);
            if i >= n || j >= n {
                continue; // origin and sink arcs are the windows and the makespan rows
            }
            let from = (earliest[i] + 1).max(earliest[j] - w + 1);
            let to = latest[i].min(latest[j] - w);
            for t in from..=to {
                let row = (t..=latest[i])
                    .filter_map(|tau| x(i, tau))
                    .chain((earliest[j]..t + w).filter_map(|tau| x(j, tau)))
                    .map(|c| (c, 1.0));
                model.add_row(..=1.0, row);
            }
        }

        // Capacity: the demands running in period t fit under each resource's capacity.
        for (r, &capacity) in problem.capacities.iter().enumerate() {
            let users: Vec<(usize, i64, i64, i64)> = (0..n)
                .flat_map(|j| {
                    problem.demands[j]
                        .iter()
                        .filter(move |d| d.resource == r && d.to > d.from && d.amount > 0)
                        .map(move |d| (j, d.amount, d.from, d.to))
                })
                .collect();
            for t in 0..horizon {
                let mut row: Vec<(Col, f64)> = Vec::new();
                let mut peak = 0;
                for &(j, amount, from, to) in &users {
                    // Running at t iff started in (t − to, t − from].
                    let before = row.len();
                    row.extend((t - to + 1..=t - from).filter_map(|tau| x(j, tau)).map(|c| (c, amount as f64)));
                    if row.len() > before {
                        peak += amount;
                    }
                }
                if peak > capacity {
                    model.add_row(..=capacity as f64, row);
                }
            }
        }

        Some(TimeIndexed {
            problem: model,
            starts,
        })
    }

    /// Start times read from a column solution.
    /// `None` if some activity has no start (the solution is not integral).
    pub fn decode(&self, values: &[f64]) -> Option<Vec<i64>> {
        self.starts
            .iter()
            .map(|(first, cols)| {
                let k = cols.iter().position(|c| values[c.index()] > 0.5)?;
                Some(first + k as i64)
            })
            .collect()
    }
}
