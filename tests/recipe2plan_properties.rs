//! Property: on tiny random "recipes" with one cook, autonomous steps (start-instant agent
//! use), one interruptible step and random time windows (max lags on every piece), the
//! solver's proven optimum equals an exhaustive search over every schedule on the unit grid
//! that the independent verifier accepts.

use makespan::instance::Instance;
use makespan::schedule::{Piece, ScheduledActivity};
use makespan::solution::Status;
use makespan::solve::{solve, SolveOptions};
use makespan::verify::verify;
use proptest::prelude::*;

use crate::common::strategies::tiny_recipes;

/// Every schedule on `[0, horizon)`: one start per one-piece step, any set of units for
/// the interruptible one; the shortest the verifier accepts.
fn brute_force(instance: &Instance, horizon: i64) -> Option<i64> {
    let n = instance.activities.len();
    let mut best: Option<i64> = None;
    let mut starts = vec![0i64; n];
    loop {
        let units = instance.activities.iter().find(|a| a.preemptible).unwrap();
        for mask in 0u32..(1 << horizon) {
            if mask.count_ones() as i64 != units.duration {
                continue;
            }
            let schedule: Vec<ScheduledActivity> = instance
                .activities
                .iter()
                .zip(&starts)
                .map(|(a, &s)| {
                    if a.preemptible {
                        let mut pieces: Vec<Piece> = Vec::new();
                        for t in (0..horizon).filter(|t| mask >> t & 1 == 1) {
                            match pieces.last_mut() {
                                Some(last) if last.1 == t => last.1 = t + 1,
                                _ => pieces.push(Piece(t, t + 1)),
                            }
                        }
                        ScheduledActivity {
                            activity: a.id.clone(),
                            agent: Some(0),
                            pieces,
                        }
                    } else {
                        ScheduledActivity::at(a.id.clone(), Some(0), s, a.duration)
                    }
                })
                .collect();
            let report = verify(instance, &schedule);
            if report.valid {
                let m = report.makespan.unwrap();
                best = Some(best.map_or(m, |b: i64| b.min(m)));
            }
        }
        // Next start vector (the interruptible step's entry is unused).
        let mut k = 0;
        loop {
            if k == n {
                return best;
            }
            if instance.activities[k].preemptible {
                k += 1;
                continue;
            }
            starts[k] += 1;
            if starts[k] < horizon {
                break;
            }
            starts[k] = 0;
            k += 1;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn solver_optimum_equals_brute_force(instance in tiny_recipes()) {
        let solved = solve(&instance, &SolveOptions::default());
        let horizon: i64 = instance.activities.iter().map(|a| a.duration).sum::<i64>() + 2;
        let exhaustive = brute_force(&instance, horizon);
        match exhaustive {
            Some(best) => {
                prop_assert_eq!(solved.status, Status::Optimal, "{:?}", solved.reason);
                prop_assert_eq!(solved.makespan, Some(best));
            }
            // Nothing within the horizon: the solver may not claim anything shorter.
            None => prop_assert!(solved.makespan.is_none_or(|m| m > horizon)),
        }
    }
}
