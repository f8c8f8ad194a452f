//! Start-instant agent needs in the step formulation: if `a` starts at `t`, fewer than
//! `m` agents may be in the middle of a task at `u = t + offset`:
//! `Σ_j [s_j + from < u < s_j + to] + x[a,t] ≤ m`, where `x[a,t] = y[a,t] − y[a,t−1]` and
//! `s_j ∈ [u − to + 1, u − from − 1]` is `y[j, u−from−1] − y[j, u−to]`.

use super::highs::{Row, Rows, Term};
use super::model::Steps;
use crate::problem::Problem;

/// Adds one row per instant need and start time.
pub(super) fn add_rows(problem: &Problem, _horizon: i64, steps: &[Steps], rows: &mut Rows) {
    for need in &problem.instants {
        let r = need.resource;
        // Busy demands long enough to have an integer strictly inside.
        let spans: Vec<(usize, i64, i64)> = (0..problem.len())
            .filter(|&j| j != need.activity)
            .flat_map(|j| {
                problem.demands[j]
                    .iter()
                    .filter(move |d| d.resource == r && d.amount > 0 && d.to - d.from >= 2)
                    .map(move |d| (j, d.from, d.to))
            })
            .collect();
        let a = &steps[need.activity];
        for t in a.first..=a.last {
            let u = t + need.offset;
            let mut row = Row::default();
            row.add(a.by(t), 1.0);
            row.add(a.by(t - 1), -1.0);
            let mut inside = 0;
            for &(j, from, to) in &spans {
                let (enter, leave) = (steps[j].by(u - from - 1), steps[j].by(u - to));
                if let (Term::Const(x), Term::Const(y)) = (&enter, &leave) {
                    if x == y {
                        continue;
                    }
                }
                inside += 1;
                row.add(enter, 1.0);
                row.add(leave, -1.0);
            }
            if inside > 0 {
                rows.add_merged(row, problem.capacities[r] as f64);
            }
        }
    }
}
