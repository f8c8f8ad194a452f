//! Sequence-dependent setups of the one agent in the step formulation. With `E_i` the end
//! of `i`'s busy span and `B_j` the start of `j`'s, an agent that ends busy work at station
//! `u` at time `τ` cannot start busy work at `v` before `τ + s(u,v)`. For every station
//! `u`, time `τ` and offset `k < max_v s(u,v)`:
//!
//! `Σ_{i at u} [E_i = τ] + Σ_{j : s(u, station j) > k} [B_j = τ + k] ≤ 1`
//!
//! Both sums are at most 1 on one agent (busy spans are disjoint), so the row only forbids
//! the pair; with the triangle inequality (checked when the problem is compiled) it holds
//! for non-consecutive pairs too, so the rows are valid and exact. `[S_j = t]` is
//! `y[j,t] − y[j,t−1]`.

use super::highs::{Row, Rows, Term};
use super::model::Steps;
use crate::problem::Problem;

/// Adds every setup row of a horizon.
pub(super) fn add_rows(problem: &Problem, horizon: i64, steps: &[Steps], rows: &mut Rows) {
    let (Some(setups), Some(pool)) = (&problem.setups, problem.agent_resource) else {
        return;
    };
    // (activity, busy from, busy to) of every activity that occupies the agent.
    let busy: Vec<(usize, i64, i64)> = (0..problem.len())
        .filter_map(|j| {
            problem.demands[j]
                .iter()
                .find(|d| d.resource == pool && d.to > d.from)
                .map(|d| (j, d.from, d.to))
        })
        .collect();
    let at_instant = |row: &mut Row, j: usize, t: i64| -> bool {
        let (now, before) = (steps[j].by(t), steps[j].by(t - 1));
        let possible = !matches!((&now, &before), (Term::Const(a), Term::Const(b)) if a == b);
        if possible {
            row.add(now, 1.0);
            row.add(before, -1.0);
        }
        possible
    };
    for u in 0..setups.station_names.len() {
        let enders: Vec<&(usize, i64, i64)> = busy
            .iter()
            .filter(|(j, _, _)| setups.station[*j] == Some(u))
            .collect();
        for k in 0..setups.longest_from(u) {
            let starters: Vec<&(usize, i64, i64)> = busy
                .iter()
                .filter(|(j, _, _)| setups.station[*j].is_some_and(|v| setups.time[u][v] > k))
                .collect();
            for tau in 1..horizon {
                let mut row = Row::default();
                let mut ends = false;
                for &&(i, _, to) in &enders {
                    ends |= at_instant(&mut row, i, tau - to);
                }
                let mut starts = false;
                for &&(j, from, _) in &starters {
                    starts |= at_instant(&mut row, j, tau + k - from);
                }
                if ends && starts {
                    rows.add(row, 1.0);
                }
            }
        }
    }
}
