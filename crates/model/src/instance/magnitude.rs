//! Limits on the size of numbers, so that no sum a solver or the verifier forms can overflow
//! `i64` (or lose precision in the `f64` longest paths): every time value and the total of
//! all of them stay within [`MAX_TIME`], every capacity and agent count within
//! [`MAX_CAPACITY`], so a capacity times a time span stays far below `i64::MAX`.

use super::model::{AgentUse, Instance};
use super::validate::Defect;

/// The largest time value, and the largest total of all durations, lags, releases,
/// deadlines and setup times of one instance: 2^40, about 35 000 years in seconds.
pub const MAX_TIME: i64 = 1 << 40;

/// The largest resource capacity, demand or agent count: 2^20 (about a million).
pub const MAX_CAPACITY: u32 = 1 << 20;

/// Adds a problem for every value beyond the limits, and one for a total beyond
/// [`MAX_TIME`], each at its JSON path.
pub(super) fn check(instance: &Instance, problems: &mut Vec<Defect>) {
    let mut total: i128 = 0;
    let mut time = |at: String, value: i64, problems: &mut Vec<Defect>| {
        total += i128::from(value).abs();
        if value.unsigned_abs() > MAX_TIME as u64 {
            problems.push(Defect {
                at,
                message: format!(
                    "{value} is beyond ±{MAX_TIME}, the largest time makespan handles; use a coarser time unit"
                ),
            });
        }
    };
    for (i, a) in instance.activities.iter().enumerate() {
        let at = |field: &str| format!("activities[{i}] (\"{}\").{field}", a.id);
        time(at("duration"), a.duration, problems);
        if let AgentUse::BusyFor(k) = a.agent {
            time(at("agent.busy_for"), k, problems);
        }
        for (field, value) in [("release", a.release), ("deadline", a.deadline)] {
            if let Some(v) = value {
                time(at(field), v, problems);
            }
        }
        for (u, r) in a.uses.iter().enumerate() {
            capacity(format!("{}[{u}].amount", at("uses")), r.amount, problems);
        }
    }
    for (i, p) in instance.precedences.iter().enumerate() {
        time(format!("precedences[{i}].min_lag"), p.min_lag, problems);
        if let Some(max) = p.max_lag {
            time(format!("precedences[{i}].max_lag"), max, problems);
        }
    }
    for (i, s) in instance.setups.iter().enumerate() {
        time(format!("setups[{i}].time"), s.time, problems);
    }
    if total > i128::from(MAX_TIME) {
        problems.push(Defect {
            at: "activities".into(),
            message: format!(
                "the durations, lags, releases, deadlines and setup times add up to {total}, beyond {MAX_TIME}, the largest schedule length makespan handles; use a coarser time unit"
            ),
        });
    }
    for (i, r) in instance.resources.iter().enumerate() {
        capacity(format!("resources[{i}].capacity"), r.capacity, problems);
    }
    if let Some(m) = instance.agents {
        if m > MAX_CAPACITY {
            problems.push(Defect {
                at: "agents".into(),
                message: format!("{m} is beyond {MAX_CAPACITY}; use null for unlimited agents"),
            });
        }
    }
}

fn capacity(at: String, value: u32, problems: &mut Vec<Defect>) {
    if value > MAX_CAPACITY {
        problems.push(Defect {
            at,
            message: format!(
                "{value} is beyond {MAX_CAPACITY}, the largest amount makespan handles"
            ),
        });
    }
}

#[cfg(test)]
mod tests {
    use crate::instance::{Activity, Instance, Precedence};

    fn two(duration: i64, lag: i64) -> Instance {
        Instance {
            activities: vec![Activity::new("a", duration), Activity::new("b", 1)],
            precedences: vec![Precedence::finish_to_start("a", "b", lag)],
            ..Instance::new("big", Some(1))
        }
    }

    #[test]
    fn a_duration_near_i64_max_is_a_problem_at_its_path() {
        let err = two(i64::MAX, 0).validate().unwrap_err();
        let first = &err.problems[0];
        assert_eq!(first.at, "activities[0] (\"a\").duration");
        assert!(first.message.contains("coarser time unit"), "{first}");
    }

    #[test]
    fn values_each_within_the_limit_but_too_large_together_are_a_problem() {
        let err = two(super::MAX_TIME, super::MAX_TIME)
            .validate()
            .unwrap_err();
        assert_eq!(err.problems.len(), 1, "{err}");
        assert!(err.problems[0].message.contains("add up to"), "{err}");
    }

    #[test]
    fn a_negative_lag_of_i64_min_is_a_problem_not_an_overflow() {
        let err = two(1, i64::MIN).validate().unwrap_err();
        assert!(err.to_string().contains("precedences[0].min_lag"), "{err}");
    }

    #[test]
    fn the_limit_itself_is_accepted() {
        two(super::MAX_TIME - 2, 1).validate().unwrap();
    }
}
