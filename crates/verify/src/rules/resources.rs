//! Renewable resources: at every instant the units in use stay within the capacity.
//!
//! An activity holds its resources over every piece (`[start, end)`, so back-to-back use
//! is fine). Two identical intervals count twice: an exemption for sharing one preheat
//! between two recipes is not modelled (no benchmark's data needs it).

use std::collections::BTreeMap;

use crate::placed::Placements;
use crate::{Rule, Violation};

/// One violation per instant at which a start pushes a resource over its capacity, naming
/// the activities that start then first and the others holding the resource after them.
pub fn over_capacity(placements: &Placements, out: &mut Vec<Violation>) {
    for resource in &placements.instance.resources {
        if placements
            .instance
            .holds
            .iter()
            .any(|h| h.resource == resource.id)
        {
            continue; // checked with its holds by `holds::over_capacity`
        }
        // (time, −amount at an end / +amount at a start, placement); ends sort first.
        let mut events: Vec<(i64, i64, usize)> = Vec::new();
        for (i, p) in placements.all.iter().enumerate() {
            let amount: i64 = p
                .activity
                .uses
                .iter()
                .filter(|u| u.resource == resource.id)
                .map(|u| i64::from(u.amount))
                .sum();
            if amount == 0 {
                continue;
            }
            for piece in p.pieces.iter().filter(|piece| piece.start() < piece.end()) {
                events.push((piece.start(), amount, i));
                events.push((piece.end(), -amount, i));
            }
        }
        events.sort();
        let capacity = i64::from(resource.capacity);
        let mut holding: BTreeMap<usize, i64> = BTreeMap::new();
        let mut k = 0;
        while k < events.len() {
            let t = events[k].0;
            let mut starters = Vec::new();
            while k < events.len() && events[k].0 == t {
                let (_, amount, i) = events[k];
                let held = holding.entry(i).or_default();
                *held += amount;
                if *held == 0 {
                    holding.remove(&i);
                } else if amount > 0 {
                    starters.push(i);
                }
                k += 1;
            }
            let load: i64 = holding.values().sum();
            if starters.is_empty() || load <= capacity {
                continue;
            }
            let others: Vec<usize> = holding
                .keys()
                .copied()
                .filter(|i| !starters.contains(i))
                .collect();
            // Per activity, once: an activity whose pieces overlap starts several times.
            let mut per_activity: Vec<(&str, i64)> = Vec::new();
            let mut counted = std::collections::HashSet::new();
            for &i in starters.iter().chain(&others) {
                if !counted.insert(i) {
                    continue;
                }
                let id = placements.all[i].id();
                match per_activity.iter_mut().find(|(a, _)| *a == id) {
                    Some((_, amount)) => *amount += holding[&i],
                    None => per_activity.push((id, holding[&i])),
                }
            }
            let mut late: Vec<String> = Vec::new();
            for &i in &starters {
                let id = placements.all[i].id().to_string();
                if !late.contains(&id) {
                    late.push(id);
                }
            }
            let activities: Vec<String> = per_activity.iter().map(|(a, _)| a.to_string()).collect();
            let uses: Vec<String> = per_activity
                .iter()
                .map(|(a, amount)| format!("`{a}` ({amount})"))
                .collect();
            let released = others
                .iter()
                .filter_map(|&i| {
                    placements.all[i]
                        .pieces
                        .iter()
                        .find(|p| p.start() <= t && t < p.end())
                })
                .map(|p| p.end())
                .min();
            let late_list = late
                .iter()
                .map(|id| format!("`{id}`"))
                .collect::<Vec<_>>()
                .join(", ");
            out.push(Violation::new(
                Rule::ResourceOverCapacity,
                activities,
                Some(t),
                format!(
                    "resource `{}` (capacity {capacity}) is in use by {load} units at {t}: {}",
                    resource.id,
                    uses.join(", ")
                ),
                match released {
                    Some(r) => format!(
                        "start {late_list} at {r} or later, when `{}` is released",
                        resource.id
                    ),
                    None => format!("run {late_list} at different times"),
                },
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::{assert_valid, at, instance};
    use crate::{verify, Rule};
    use makespan_model::instance::{Resource, ResourceUse};

    fn with_pot(capacity: u32, amounts: &[u32]) -> makespan_model::instance::Instance {
        let acts: Vec<(String, i64)> = (0..amounts.len()).map(|i| (format!("j{i}"), 4)).collect();
        let refs: Vec<(&str, i64)> = acts.iter().map(|(id, d)| (id.as_str(), *d)).collect();
        let mut inst = instance(None, &refs, &[]);
        inst.resources.push(Resource {
            id: "pot".into(),
            capacity,
            states: vec![],
        });
        for (a, &amount) in inst.activities.iter_mut().zip(amounts) {
            a.uses.push(ResourceUse {
                resource: "pot".into(),
                amount,
            });
        }
        inst
    }

    #[test]
    fn amounts_within_capacity_are_clean() {
        let inst = with_pot(3, &[1, 2, 3]);
        assert_valid(
            &inst,
            &[
                at("j0", None, 0, 4),
                at("j1", None, 0, 4),
                at("j2", None, 4, 4),
            ],
        );
    }

    #[test]
    fn over_capacity_names_the_time_and_every_holder() {
        let inst = with_pot(3, &[1, 2, 3]);
        let report = verify(
            &inst,
            &[
                at("j0", None, 0, 4),
                at("j1", None, 0, 4),
                at("j2", None, 2, 4),
            ],
        );
        assert_eq!(report.violations.len(), 1, "{}", report.render_text());
        let v = &report.violations[0];
        assert_eq!((v.rule, v.time), (Rule::ResourceOverCapacity, Some(2)));
        assert_eq!(v.activities, ["j2", "j0", "j1"]);
        assert!(v.message.contains("6 units at 2"), "{}", v.message);
        assert_eq!(v.hint, "start `j2` at 4 or later, when `pot` is released");
    }

    #[test]
    fn each_start_that_overloads_is_reported() {
        let inst = with_pot(1, &[1, 1, 1]);
        let plan = [
            at("j0", None, 0, 4),
            at("j1", None, 1, 4),
            at("j2", None, 2, 4),
        ];
        let times: Vec<Option<i64>> = verify(&inst, &plan)
            .violations
            .iter()
            .map(|v| v.time)
            .collect();
        assert_eq!(times, [Some(1), Some(2)]);
    }
}
