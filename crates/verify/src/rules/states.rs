//! State variables of resources (oven temperature), kept simple: an activity sets its
//! values at its start and they persist until another activity sets the same state. A
//! requirement at instant `t` sees every value set by another activity at `t` or before
//! (an activity's own sets do not satisfy its own requirements). Two different values set
//! at the same instant are a conflict, since no order between them is defined.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::placed::Placements;
use crate::{Rule, Violation};

/// A value set by an activity at an instant.
struct Set<'a> {
    time: i64,
    value: &'a Value,
    by: &'a str,
}

/// Conflicting simultaneous sets, and requirements that do not hold at the start.
pub fn states(placements: &Placements, out: &mut Vec<Violation>) {
    let mut sets: BTreeMap<&str, Vec<Set>> = BTreeMap::new();
    for p in &placements.all {
        for (key, value) in &p.activity.sets {
            sets.entry(key.as_str()).or_default().push(Set {
                time: p.start(),
                value,
                by: p.id(),
            });
        }
    }
    for list in sets.values_mut() {
        list.sort_by_key(|s| (s.time, s.by));
    }
    conflicts(&sets, out);
    for p in &placements.all {
        let t = p.start();
        for (key, want) in &p.activity.requires {
            let latest: Vec<&Set> = match sets.get(key.as_str()) {
                Some(list) => {
                    let seen: Vec<&Set> = list
                        .iter()
                        .filter(|s| s.time <= t && s.by != p.id())
                        .collect();
                    let last = seen.last().map(|s| s.time);
                    seen.into_iter().filter(|s| Some(s.time) == last).collect()
                }
                None => Vec::new(),
            };
            if !latest.is_empty() && latest.iter().all(|s| s.value == want) {
                continue;
            }
            let setters: Vec<String> = placements
                .instance
                .activities
                .iter()
                .filter(|a| a.sets.get(key) == Some(want))
                .map(|a| format!("`{}`", a.id))
                .collect();
            let current = match latest.iter().find(|s| s.value != want) {
                Some(s) => format!("it is {} (set by `{}` at {})", s.value, s.by, s.time),
                None => "nothing has set it yet".to_string(),
            };
            let mut activities = vec![p.id().to_string()];
            activities.extend(latest.iter().map(|s| s.by.to_string()));
            out.push(Violation::new(
                Rule::StateViolated,
                activities,
                Some(t),
                format!("`{}` requires `{key}` = {want} at its start {t}, but {current}", p.id()),
                if setters.is_empty() {
                    format!("no activity sets `{key}` to {want}; the instance cannot satisfy `{}`", p.id())
                } else {
                    format!(
                        "start `{}` after {} (which set{} `{key}` to {want}), with no other value set in between",
                        p.id(),
                        setters.join(" or "),
                        if setters.len() == 1 { "s" } else { "" }
                    )
                },
            ));
        }
    }
}

fn conflicts(sets: &BTreeMap<&str, Vec<Set>>, out: &mut Vec<Violation>) {
    for (key, list) in sets {
        for group in list.chunk_by(|a, b| a.time == b.time) {
            if group.iter().all(|s| s.value == group[0].value) {
                continue;
            }
            let what: Vec<String> = group
                .iter()
                .map(|s| format!("`{}` to {}", s.by, s.value))
                .collect();
            out.push(Violation::new(
                Rule::StateViolated,
                group.iter().map(|s| s.by.to_string()).collect(),
                Some(group[0].time),
                format!(
                    "`{key}` is set to different values at the same instant {}: {}",
                    group[0].time,
                    what.join(", ")
                ),
                format!("start the activities that set `{key}` at different times"),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::{assert_valid, at, instance, rules};
    use crate::{verify, Rule};
    use makespan_model::instance::{Instance, Resource};

    /// `heat` sets the oven to 350, `hot` to 425, `bake` needs 350.
    fn oven() -> Instance {
        let mut inst = instance(None, &[("heat", 2), ("hot", 2), ("bake", 5)], &[]);
        inst.resources.push(Resource {
            id: "oven".into(),
            capacity: 1,
            states: vec!["temperature".into()],
        });
        inst.activities[0]
            .sets
            .insert("oven.temperature".into(), 350.into());
        inst.activities[1]
            .sets
            .insert("oven.temperature".into(), 425.into());
        inst.activities[2]
            .requires
            .insert("oven.temperature".into(), 350.into());
        inst
    }

    #[test]
    fn requirement_met_by_the_latest_set_is_clean() {
        let inst = oven();
        assert_valid(
            &inst,
            &[
                at("hot", None, 0, 2),
                at("heat", None, 2, 2),
                at("bake", None, 4, 5),
            ],
        );
    }

    #[test]
    fn requirement_overwritten_by_another_value_is_reported() {
        let inst = oven();
        let report = verify(
            &inst,
            &[
                at("heat", None, 0, 2),
                at("hot", None, 2, 2),
                at("bake", None, 4, 5),
            ],
        );
        assert_eq!(report.violations.len(), 1, "{}", report.render_text());
        let v = &report.violations[0];
        assert_eq!((v.rule, v.time), (Rule::StateViolated, Some(4)));
        assert_eq!(v.activities, ["bake", "hot"]);
        assert!(
            v.message.contains("it is 425 (set by `hot` at 2)"),
            "{}",
            v.message
        );
    }

    #[test]
    fn requirement_before_any_set_is_reported() {
        let inst = oven();
        let plan = [
            at("bake", None, 0, 5),
            at("heat", None, 5, 2),
            at("hot", None, 7, 2),
        ];
        assert_eq!(rules(&inst, &plan), [Rule::StateViolated]);
    }

    #[test]
    fn different_values_set_at_one_instant_conflict() {
        let inst = oven();
        let plan = [
            at("heat", None, 0, 2),
            at("hot", None, 0, 2),
            at("bake", None, 9, 5),
        ];
        let report = verify(&inst, &plan);
        assert!(report
            .violations
            .iter()
            .all(|v| v.rule == Rule::StateViolated));
        assert!(
            report.violations[0].message.contains("different values"),
            "{}",
            report.render_text()
        );
    }
}
