//! The instance a DRCP proof is searched on: the instance with every rule the constraint
//! model does not take left out, so that the proof exists wherever those rules are not what
//! makes the optimum (Recipe2Plan's start-instant needs, for one, rarely are). Leaving rules
//! out only admits more schedules, so "no schedule of the relaxation ends before the bound"
//! holds for the instance too; the checker does not trust this: it re-checks every row of
//! the model against the instance's own rules.
//!
//! Left out: setups, holds, states, start-instant needs, and of an activity split into
//! pieces everything but its timing. A split activity becomes one block that holds neither
//! an agent nor a resource: each schedule of the instance is one of the relaxation with the
//! same starts, because every rule the block keeps (lags after its end count from its start
//! plus its duration, its deadline bounds its start plus its duration) holds for the split
//! activity too; a maximum lag after its end does not bound its start, so it is dropped.

use makespan_model::instance::{AgentUse, Instance, Relation};

use super::timing::splittable;

/// `instance` without the rules the constraint model does not take.
pub fn relaxed(instance: &Instance) -> Instance {
    let mut out = instance.clone();
    out.setups.clear();
    out.holds.clear();
    for r in &mut out.resources {
        r.states.clear();
    }
    let split: Vec<String> = out
        .activities
        .iter()
        .filter(|a| splittable(a))
        .map(|a| a.id.clone())
        .collect();
    for a in &mut out.activities {
        a.sets.clear();
        a.requires.clear();
        if a.agent == AgentUse::StartInstant {
            a.agent = AgentUse::None;
        }
        if splittable(a) {
            a.preemptible = false;
            a.agent = AgentUse::None;
            a.uses.clear();
        }
    }
    for p in &mut out.precedences {
        if p.relation == Relation::FinishToStart && split.contains(&p.before) {
            p.max_lag = None;
        }
    }
    out
}

/// Whether `g` divides every time the checker reads from the instance (durations, releases,
/// deadlines, busy spans, lags), which it requires of a proof's scale.
pub fn scale_divides(instance: &Instance, g: i64) -> bool {
    let activities = instance.activities.iter().flat_map(|a| {
        let busy = a.agent.busy_span(a.duration).map(|(from, to)| to - from);
        [Some(a.duration), a.release, a.deadline, busy]
    });
    let lags = instance
        .precedences
        .iter()
        .flat_map(|p| [Some(p.min_lag), p.max_lag]);
    activities.chain(lags).flatten().all(|t| t % g == 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use makespan_model::instance::{Activity, Precedence, ResourceUse};

    #[test]
    fn a_split_activity_keeps_only_its_timing() {
        let mut chop = Activity::new("chop", 4);
        chop.preemptible = true;
        chop.uses.push(ResourceUse {
            resource: "board".into(),
            amount: 1,
        });
        let mut boil = Activity::new("boil", 6);
        boil.agent = AgentUse::StartInstant;
        let instance = Instance {
            activities: vec![chop, boil],
            precedences: vec![Precedence {
                max_lag: Some(2),
                ..Precedence::finish_to_start("chop", "boil", 1)
            }],
            ..Instance::new("t", Some(1))
        };
        let relaxed = relaxed(&instance);
        let chop = &relaxed.activities[0];
        assert!(!chop.preemptible && chop.uses.is_empty() && chop.agent == AgentUse::None);
        assert_eq!(relaxed.activities[1].agent, AgentUse::None);
        assert_eq!(relaxed.precedences[0].min_lag, 1);
        assert_eq!(relaxed.precedences[0].max_lag, None);
        assert!(scale_divides(&instance, 1) && !scale_divides(&instance, 2));
    }
}
