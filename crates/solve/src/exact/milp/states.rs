//! Resource states in the step formulation. For each state and value `v`, `w[v,t] = 1`
//! means "the state is `v` at `t`, after the sets at `t`":
//! `Σ_v w[v,t] ≤ 1` (one value at a time, so two different sets at one instant conflict);
//! a set of `v` at `t` forces `w[v,t] = 1`; `w[v,t]` may be 1 only if it was at `t − 1` or
//! `v` is set at `t` (initially no value); a requirement of `v` at `t` needs `w[v,t] = 1`.
//! (`x[j,t] = y[j,t] − y[j,t−1]`: `j` starts at `t`.)

use super::highs::{Row, Rows, Term};
use super::model::Steps;
use crate::problem::Problem;

/// Adds the state columns and rows.
pub(super) fn add_rows(problem: &Problem, horizon: i64, steps: &[Steps], rows: &mut Rows) {
    let starts = |row: &mut Row, j: usize, t: i64, coef: f64| {
        row.add(steps[j].by(t), coef);
        row.add(steps[j].by(t - 1), -coef);
    };
    for var in &problem.states {
        let w: Vec<Vec<_>> = var
            .values
            .iter()
            .map(|_| (0..=horizon).map(|_| rows.binary(0.0)).collect())
            .collect();
        for t in 0..=horizon {
            let ti = t as usize;
            if w.len() > 1 {
                let mut one_value = Row::default();
                for col in &w {
                    one_value.add(Term::Var(col[ti]), 1.0);
                }
                rows.add(one_value, 1.0);
            }
            for (v, col) in w.iter().enumerate() {
                let mut carry = Row::default();
                carry.add(Term::Var(col[ti]), 1.0);
                if t > 0 {
                    carry.add(Term::Var(col[ti - 1]), -1.0);
                }
                for &(b, _) in var.setters.iter().filter(|s| s.1 == v) {
                    starts(&mut carry, b, t, -1.0);
                    let mut forced = Row::default();
                    starts(&mut forced, b, t, 1.0);
                    forced.add(Term::Var(col[ti]), -1.0);
                    rows.add_merged(forced, 0.0);
                }
                rows.add_merged(carry, 0.0);
                for &(a, _) in var.requirers.iter().filter(|r| r.1 == v) {
                    let mut needs = Row::default();
                    starts(&mut needs, a, t, 1.0);
                    needs.add(Term::Var(col[ti]), -1.0);
                    rows.add_merged(needs, 0.0);
                }
            }
        }
    }
}
