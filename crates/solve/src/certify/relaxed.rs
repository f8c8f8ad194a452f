//! The instance a DRCP proof is searched on: the instance with every rule the constraint
//! model does not take left out, so that the proof exists wherever those rules are not what
//! makes the optimum. Leaving rules out only admits more schedules, so "no schedule of the
//! relaxation ends before the bound" holds for the instance too; the checker does not trust
//! this: it re-checks every row of the model against the instance's own rules.
//!
//! Left out: states, start-instant needs, and the setups and holds the model cannot state
//! exactly as orders between pairs ([`setups_as_orders`], [`holds_as_orders`]). An activity
//! split into pieces is kept in one of two ways ([`Splits`]).

use makespan_model::instance::{AgentUse, Hold, Instance, Relation};

use super::timing::{splittable, Timing};
use crate::problem::sequencing::SetupMatrix;
use crate::problem::Problem;

/// How the relaxation keeps an activity split into pieces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Splits {
    /// Its timing only: one block that holds neither an agent nor a resource, without the
    /// maximum lags after its end (which do not bound its start). Each schedule of the
    /// instance is one of the relaxation with the same starts, so the proof holds for
    /// every schedule; but it ignores the split activities' work.
    Timing,
    /// Its units of work: the problem's unit chunks, each holding what the activity holds,
    /// the last ending it; the maximum lags into its later pieces become the lag they imply
    /// on its end ([`end_by_piece_lags`]). On a scaled model the proof holds for the
    /// schedules whose pieces lie on the grid (the solver's model).
    Units,
}

/// `instance` without the rules the constraint model does not take.
pub fn relaxed(instance: &Instance, splits: Splits) -> Instance {
    let mut out = instance.clone();
    if !setups_as_orders(instance) {
        out.setups.clear();
    }
    out.holds = holds_as_orders(instance);
    for r in &mut out.resources {
        r.states.clear();
    }
    for a in &mut out.activities {
        a.sets.clear();
        a.requires.clear();
        if a.agent == AgentUse::StartInstant {
            a.agent = AgentUse::None;
        }
    }
    if splits == Splits::Timing {
        let split: Vec<String> = out
            .activities
            .iter()
            .filter(|a| splittable(a))
            .map(|a| a.id.clone())
            .collect();
        for a in out.activities.iter_mut().filter(|a| splittable(a)) {
            a.preemptible = false;
            a.agent = AgentUse::None;
            a.uses.clear();
        }
        for p in &mut out.precedences {
            if p.relation == Relation::FinishToStart && split.contains(&p.before) {
                p.max_lag = None;
            }
        }
    }
    out
}

/// The rules of `instance` that every relaxation leaves out, named for a message.
pub fn left_out(instance: &Instance) -> Vec<&'static str> {
    let split: Vec<&str> = instance
        .activities
        .iter()
        .filter(|a| splittable(a))
        .map(|a| a.id.as_str())
        .collect();
    let rules = [
        (
            "setups",
            !instance.setups.is_empty() && !setups_as_orders(instance),
        ),
        (
            "holds",
            holds_as_orders(instance).len() < instance.holds.len(),
        ),
        (
            "states",
            instance
                .activities
                .iter()
                .any(|a| !a.sets.is_empty() || !a.requires.is_empty()),
        ),
        (
            "start-instant needs",
            instance
                .activities
                .iter()
                .any(|a| a.agent == AgentUse::StartInstant),
        ),
        (
            "maximum lags into later pieces",
            instance
                .precedences
                .iter()
                .any(|p| p.max_lag.is_some() && split.contains(&p.after.as_str())),
        ),
    ];
    rules
        .into_iter()
        .filter_map(|(name, has)| has.then_some(name))
        .collect()
}

/// Whether the constraint model states `instance`'s setups exactly, as one order per pair
/// of activities at stations (module `exact::cp::orders`): one agent, every activity that
/// keeps it busy at a station (the verifier lets an activity without one reset the agent's
/// travel), none split into pieces, and setup times that obey the triangle inequality.
pub fn setups_as_orders(instance: &Instance) -> bool {
    instance.agents == Some(1)
        && instance.activities.iter().all(|a| {
            !splittable(a) && (a.agent.busy_span(a.duration).is_none() || a.station.is_some())
        })
        && SetupMatrix::compile(instance).is_ok()
}

/// The holds of `instance` that the constraint model states exactly, as orders between the
/// spans of a resource (module `exact::cp::orders`): those of resources that no split
/// activity touches, and of those, the ones at least a unit long in every schedule (an
/// empty hold overlaps nothing, so no order between it and another span is a rule).
pub fn holds_as_orders(instance: &Instance) -> Vec<Hold> {
    let timing = Timing::new(instance);
    let index = instance.activity_index();
    let activity = |id: &str| index.get(id).map(|&i| &instance.activities[i]);
    let split = |id: Option<&str>| id.and_then(activity).is_some_and(splittable);
    let touched = |resource: &str| {
        instance.holds.iter().any(|h| {
            h.resource == resource && (split(h.from.as_deref()) || split(h.until.as_deref()))
        }) || instance
            .activities
            .iter()
            .any(|a| splittable(a) && a.uses.iter().any(|u| u.resource == resource))
    };
    let unit_long = |h: &Hold| match (h.from.as_deref(), h.until.as_deref()) {
        (None, Some(until)) => activity(until).is_some_and(|a| a.duration > 0),
        (Some(from), Some(until)) => match (index.get(from), index.get(until)) {
            (Some(&f), Some(&u)) => timing.gap(f, u).is_some_and(|gap| gap >= 1),
            _ => false,
        },
        (_, None) => true,
    };
    instance
        .holds
        .iter()
        .filter(|h| h.amount > 0 && unit_long(h) && !touched(&h.resource))
        .cloned()
        .collect()
}

/// Replaces the maximum lags into the later pieces of split activities (a disjunctive rule
/// the constraint model cannot state) by the lag each implies on the activity's end, and
/// returns whether there were any. Every piece starts by the deadline `D`, so the last piece
/// starts by `D` and runs to the end without a break: the activity ends by `D` plus its
/// duration, i.e. its last unit chunk starts by `D + p − 1`.
pub fn end_by_piece_lags(problem: &mut Problem) -> bool {
    let lags = std::mem::take(&mut problem.expanded.piece_lags);
    for lag in &lags {
        let last = *lag.chunks.last().expect("a piece lag has chunks");
        let deadline = lag.deadline(0, problem.durations[lag.from]);
        let slack = deadline + lag.chunks.len() as i64 - 1;
        // S_from ≥ S_last − slack: a maximum lag, read backwards.
        problem.network.add(last, lag.from, -slack, false);
    }
    // The lags hold in every schedule of an instance that has one (it is being certified),
    // so they close no positive cycle; they may raise heads.
    if let Ok(heads) = problem.network.earliest_starts() {
        problem.earliest = heads;
    }
    !lags.is_empty()
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
    use makespan_model::instance::{Activity, Precedence, Resource, ResourceUse, Setup};

    #[test]
    fn a_split_activity_keeps_its_timing_or_its_units() {
        let mut chop = Activity::new("chop", 4);
        chop.preemptible = true;
        chop.uses.push(ResourceUse {
            resource: "board".into(),
            amount: 1,
        });
        let mut boil = Activity::new("boil", 6);
        boil.agent = AgentUse::StartInstant;
        boil.requires.insert("pot.hot".into(), true.into());
        let instance = Instance {
            activities: vec![chop, boil],
            precedences: vec![Precedence {
                max_lag: Some(2),
                ..Precedence::finish_to_start("chop", "boil", 1)
            }],
            ..Instance::new("t", Some(1))
        };
        let timing = relaxed(&instance, Splits::Timing);
        let chop = &timing.activities[0];
        assert!(!chop.preemptible && chop.uses.is_empty() && chop.agent == AgentUse::None);
        assert_eq!(timing.activities[1].agent, AgentUse::None);
        assert!(timing.activities[1].requires.is_empty());
        assert_eq!(timing.precedences[0].min_lag, 1);
        assert_eq!(timing.precedences[0].max_lag, None);
        assert_eq!(
            left_out(&instance),
            ["states", "start-instant needs"],
            "the lag runs out of the split step, not into it"
        );
        let units = relaxed(&instance, Splits::Units);
        assert_eq!(units.activities[0], instance.activities[0]);
        assert_eq!(units.activities[1].agent, AgentUse::None);
        assert_eq!(units.precedences, instance.precedences);
        assert!(scale_divides(&instance, 1) && !scale_divides(&instance, 2));
    }

    #[test]
    fn setups_and_holds_stay_where_orders_state_them_exactly() {
        let at = |id: &str, station: &str| Activity {
            station: Some(station.into()),
            ..Activity::new(id, 1)
        };
        let instance = Instance {
            activities: vec![at("put", "x"), at("pick", "y"), at("wait", "y")],
            precedences: vec![Precedence::finish_to_start("put", "pick", 0)],
            setups: vec![Setup {
                from: "x".into(),
                to: "y".into(),
                time: 1,
            }],
            resources: vec![Resource {
                id: "shelf".into(),
                capacity: 1,
                states: vec![],
            }],
            holds: vec![
                // Put before pick: at least a unit long.
                Hold {
                    resource: "shelf".into(),
                    amount: 1,
                    from: Some("put".into()),
                    until: Some("pick".into()),
                },
                // Nothing orders `wait` after `pick`: it may be empty.
                Hold {
                    resource: "shelf".into(),
                    amount: 1,
                    from: Some("pick".into()),
                    until: Some("wait".into()),
                },
            ],
            ..Instance::new("t", Some(1))
        };
        let kept = relaxed(&instance, Splits::Timing);
        assert_eq!(kept.setups, instance.setups);
        assert_eq!(kept.holds, instance.holds[..1]);
        assert_eq!(left_out(&instance), ["holds"]);
        // An activity busy without a station resets the agent's travel, and two agents
        // travel apart: the setups are left out.
        let mut unplaced = instance.clone();
        unplaced.activities[2].station = None;
        let mut two = instance.clone();
        two.agents = Some(2);
        for other in [unplaced, two] {
            assert!(relaxed(&other, Splits::Timing).setups.is_empty());
            assert_eq!(left_out(&other), ["setups", "holds"]);
        }
    }
}
