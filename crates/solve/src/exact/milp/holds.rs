//! Resources held across activities in the step formulation: a hold from `a` to `b` is in
//! use in period `t` iff `a` has started by `t` and `b` has not ended by `t`, that is
//! `y[a,t] − y[b,t−p_b]`, two nonzeros per hold in the resource's capacity row.

use super::highs::{Row, Term};
use super::model::Steps;
use crate::problem::Problem;

/// Adds the holds on resource `r` in period `t` to its capacity row (and to `peak`, the
/// most the row can sum to, so rows that can never bind are skipped).
pub(super) fn add_terms(
    problem: &Problem,
    r: usize,
    t: i64,
    steps: &[Steps],
    row: &mut Row,
    peak: &mut i64,
) {
    for h in problem.holds.iter().filter(|h| h.resource == r) {
        let started = h.from.map_or(Term::Const(1.0), |a| steps[a].by(t));
        let ended = h
            .until
            .map_or(Term::Const(0.0), |b| steps[b].by(t - problem.durations[b]));
        if matches!((&started, &ended), (Term::Const(s), Term::Const(e)) if s == e) {
            continue; // not held in period t whatever the schedule
        }
        *peak += h.amount;
        row.add(started, h.amount as f64);
        row.add(ended, -(h.amount as f64));
    }
}
