//! The energetic certificate: an interval in which, were the schedule to end one unit
//! before the bound, one resource (or the agents) would have to do more work than its
//! capacity allows. Windows come from the instance's own timing rules ([`Timing`]), in its
//! own units, and a split activity is credited only the work that cannot leave the interval,
//! exactly as the checker (`makespan-certify-check`, module `energetic`) recomputes them.

use makespan_model::certificate::{IntervalWork, Proof};
use makespan_model::instance::Instance;

use super::timing::{splittable, Timing};
use crate::bounds::{first_overload, Clock, Energy};

/// One activity's demand on the resource, within its window.
struct Job {
    activity: usize,
    /// The window of the activity itself.
    window: (i64, i64),
    /// Its demand's window and energy.
    energy: Energy,
}

/// An interval overloaded on some resource (the agents first) when every activity ends by
/// `bound − 1`.
pub fn energetic(instance: &Instance, timing: &Timing, bound: i64) -> Option<Proof> {
    let windows = timing.windows(bound - 1)?;
    let agents = instance.agents.map(|m| {
        let demand = |i: usize| {
            let a = &instance.activities[i];
            a.agent
                .busy_span(a.duration)
                .map(|(from, to)| (1, from, to))
        };
        (None, i64::from(m), jobs(instance, &windows, demand))
    });
    let resources = instance.resources.iter().map(|r| {
        let demand = |i: usize| {
            let a = &instance.activities[i];
            let units: i64 = a
                .uses
                .iter()
                .filter(|u| u.resource == r.id)
                .map(|u| i64::from(u.amount))
                .sum();
            Some((units, 0, a.duration))
        };
        (
            Some(r.id.clone()),
            i64::from(r.capacity),
            jobs(instance, &windows, demand),
        )
    });
    agents
        .into_iter()
        .chain(resources)
        .filter(|(_, capacity, _)| *capacity > 0)
        .find_map(|(resource, capacity, jobs)| {
            let energies: Vec<Energy> = jobs.iter().map(|j| j.energy).collect();
            let (from, to) = first_overload(&energies, capacity, Clock(None)).ok()??;
            let work = jobs
                .iter()
                .filter_map(|j| {
                    let work = i64::try_from(j.energy.mandatory(from, to)).ok()?;
                    (work > 0).then(|| IntervalWork {
                        activity: instance.activities[j.activity].id.clone(),
                        earliest_start: j.window.0,
                        latest_end: j.window.1,
                        work,
                    })
                })
                .collect();
            Some(Proof::Energetic {
                resource,
                capacity,
                from,
                to,
                work,
            })
        })
}

/// The jobs of the activities with a positive `demand(i)`: `(amount, first, last)` over
/// their processing units `[first, last)`.
fn jobs(
    instance: &Instance,
    windows: &[(i64, i64)],
    demand: impl Fn(usize) -> Option<(i64, i64, i64)>,
) -> Vec<Job> {
    (0..instance.activities.len())
        .filter_map(|i| {
            let (amount, first, last) = demand(i)?;
            let a = &instance.activities[i];
            let (es, le) = windows[i];
            (amount > 0 && last > first).then_some(Job {
                activity: i,
                window: (es, le),
                energy: Energy {
                    release: es + first,
                    due: le - a.duration + last,
                    len: last - first,
                    amount,
                    split: splittable(a),
                },
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use makespan_model::instance::{Activity, AgentUse, Precedence};

    /// One agent starts two 2-unit tasks `a` and `b`, each followed by 5 units that run
    /// alone: the critical path is 7 and the load 4, but ending by 8 both tasks must run
    /// within `[0, 3)`, 4 units of work in 3: so 9 is a bound (and the optimum).
    fn two_heads_before_long_tails(split: bool) -> Instance {
        let task = |id: &str| Activity {
            preemptible: split,
            ..Activity::new(id, 2)
        };
        let tail = |id: &str| Activity {
            agent: AgentUse::None,
            ..Activity::new(id, 5)
        };
        Instance {
            activities: vec![task("a"), task("b"), tail("x"), tail("y")],
            precedences: vec![
                Precedence::finish_to_start("a", "x", 0),
                Precedence::finish_to_start("b", "y", 0),
            ],
            ..Instance::new("t", Some(1))
        }
    }

    #[test]
    fn work_squeezed_before_the_tails_overloads_the_agent() {
        for split in [false, true] {
            let instance = two_heads_before_long_tails(split);
            let timing = Timing::new(&instance);
            let proof = energetic(&instance, &timing, 9);
            let Some(Proof::Energetic {
                resource: None,
                capacity: 1,
                from: 0,
                to: 3,
                work,
            }) = proof
            else {
                panic!("an overload of the agent in [0, 3): {proof:?}")
            };
            assert_eq!(work.iter().map(|w| w.work).collect::<Vec<_>>(), [2, 2]);
            assert_eq!((work[0].earliest_start, work[0].latest_end), (0, 3));
            assert!(energetic(&instance, &timing, 10).is_none());
        }
    }
}
