//! Piece lags of chunked preemptible activities (see [`crate::problem::expand::PieceLag`]). With
//! `D = s_from + A` the latest allowed piece start and `C` the end of the last chunk:
//! (a) the activity runs in every unit `t` with `D ≤ t < C` (so no piece starts after `D`):
//!     `y[from, t−A] − y[last, t−1] − Σ_i x[c_i, t] ≤ 0`;
//! (b) no start-instant need of its agent falls at `u` with `D < u < C` (the agent's pause
//!     would start a new piece there): `x[a,t] + y[from, u−1−A] − y[last, u−1] ≤ 1`.

use super::highs::{Row, Rows};
use super::model::Steps;
use crate::problem::Problem;
use makespan_model::instance::Relation;

/// Adds the rows of every piece lag.
pub(super) fn add_rows(problem: &Problem, _horizon: i64, steps: &[Steps], rows: &mut Rows) {
    for lag in &problem.expanded.piece_lags {
        let anchor = match lag.relation {
            Relation::FinishToStart => problem.durations[lag.from],
            Relation::StartToStart => 0,
        };
        let a = anchor + lag.offset;
        let from = &steps[lag.from];
        let last = &steps[*lag.chunks.last().expect("a piece lag has chunks")];
        let lo = from.first + a;
        let hi = last.last;
        for t in lo..=hi {
            let mut row = Row::default();
            row.add(from.by(t - a), 1.0);
            row.add(last.by(t - 1), -1.0);
            for &c in &lag.chunks {
                row.add(steps[c].by(t), -1.0);
                row.add(steps[c].by(t - 1), 1.0);
            }
            rows.add_merged(row, 0.0);
        }
        let busy: Vec<usize> = problem.demands[lag.chunks[0]]
            .iter()
            .filter(|d| d.amount > 0 && d.to > d.from)
            .map(|d| d.resource)
            .collect();
        for need in problem
            .instants
            .iter()
            .filter(|n| busy.contains(&n.resource) && !lag.chunks.contains(&n.activity))
        {
            let s = &steps[need.activity];
            for t in s.first..=s.last {
                let u = t + need.offset;
                if u <= lo || u > hi {
                    continue;
                }
                let mut row = Row::default();
                row.add(s.by(t), 1.0);
                row.add(s.by(t - 1), -1.0);
                row.add(from.by(u - 1 - a), 1.0);
                row.add(last.by(u - 1), -1.0);
                rows.add_merged(row, 1.0);
            }
        }
    }
}
