//! Bound-only certificates: a critical path, a load or an energetic interval, re-done step
//! by step.

use std::collections::HashSet;

use makespan_model::certificate::{Proof, ProofKind, Step, Work};
use makespan_model::instance::Instance;

use crate::{energetic, rules};

/// The kind of proof a certificate's proof is.
pub fn kind(proof: &Proof) -> ProofKind {
    match proof {
        Proof::CriticalPath { .. } | Proof::Load { .. } | Proof::Energetic { .. } => {
            ProofKind::Bound
        }
        Proof::Drcp { .. } => ProofKind::Drcp,
    }
}

/// Whether `proof` shows that no schedule of `instance` is shorter than `bound`.
pub fn check(instance: &Instance, proof: &Proof, bound: i64) -> Result<(), String> {
    match proof {
        Proof::CriticalPath { steps } => critical_path(instance, steps, bound),
        Proof::Load {
            resource,
            capacity,
            work,
        } => load(instance, resource.as_deref(), *capacity, work, bound),
        Proof::Energetic { .. } => energetic::check(instance, proof, bound),
        Proof::Drcp { .. } => Err("not a bound-only proof".into()),
    }
}

fn critical_path(instance: &Instance, steps: &[Step], bound: i64) -> Result<(), String> {
    let mut at: Option<(String, i64)> = None;
    let mut ended = None;
    for (k, step) in steps.iter().enumerate() {
        let fail = |why: String| Err(format!("critical path step {}: {why}", k + 1));
        if ended.is_some() {
            return fail("a step after the end".into());
        }
        match (step, &at) {
            (Step::Release { activity, at: time }, None) => {
                let a = rules::activity(instance, activity)?;
                if *time > rules::release(a) {
                    return fail(format!(
                        "\"{activity}\" may start at {}, not only from {time}",
                        rules::release(a)
                    ));
                }
                at = Some((activity.clone(), *time));
            }
            (
                Step::Lag {
                    before,
                    after,
                    weight,
                },
                Some((current, time)),
            ) if before == current => match rules::lag(instance, before, after) {
                Some(lag) if lag >= *weight => at = Some((after.clone(), time + weight)),
                _ => {
                    return fail(format!(
                        "no precedence makes \"{after}\" start {weight} or more after \"{before}\""
                    ))
                }
            },
            (Step::End { activity, duration }, Some((current, time))) if activity == current => {
                let a = rules::activity(instance, activity)?;
                if *duration > a.duration {
                    return fail(format!(
                        "\"{activity}\" lasts {}, not {duration}",
                        a.duration
                    ));
                }
                ended = Some(time + duration);
            }
            _ => {
                return fail(
                    "the chain must start with a release, and each later step leave from the activity the previous one reached"
                        .into(),
                )
            }
        }
    }
    match ended {
        Some(total) if total >= bound => Ok(()),
        Some(total) => Err(format!(
            "the critical path sums to {total}, less than the bound {bound}"
        )),
        None => Err("the critical path does not end with an activity's end".into()),
    }
}

fn load(
    instance: &Instance,
    resource: Option<&str>,
    capacity: i64,
    work: &[Work],
    bound: i64,
) -> Result<(), String> {
    let true_capacity = match resource {
        None => instance.agents.map(i64::from),
        Some(id) => instance
            .resources
            .iter()
            .find(|r| r.id == id)
            .map(|r| i64::from(r.capacity)),
    };
    let name = resource.map_or("the agents".to_string(), |r| format!("\"{r}\""));
    if true_capacity != Some(capacity) || capacity <= 0 {
        return Err(format!(
            "{name} do not have a capacity of {capacity} in the instance"
        ));
    }
    let mut seen = HashSet::new();
    let mut total = 0i64;
    for w in work {
        let a = rules::activity(instance, &w.activity)?;
        if !seen.insert(w.activity.as_str()) {
            return Err(format!("\"{}\" is counted twice", w.activity));
        }
        let most = match resource {
            None => rules::agent_time(a),
            Some(id) => rules::units(a, id) * a.duration,
        };
        if w.work > most {
            return Err(format!(
                "\"{}\" does {most} units of work on {name}, not {}",
                w.activity, w.work
            ));
        }
        total += w.work;
    }
    // ⌈total / capacity⌉ for a positive capacity (integer `div_ceil` is unstable).
    let rounded = (total + capacity - 1).div_euclid(capacity);
    if rounded >= bound {
        Ok(())
    } else {
        Err(format!(
            "the work {total} over the capacity {capacity} gives {rounded}, less than the bound {bound}"
        ))
    }
}
