//! Structural validation of an [`Instance`]: everything that makes an instance meaningless
//! (unknown ids, negative durations, a wrong format tag). Whether a meaningful instance can
//! be satisfied (positive lag cycles, too few agents) is decided later by
//! the solver when it compiles the instance (`makespan_solve`), which reports infeasibility with a reason instead of an error.

use std::collections::{BTreeSet, HashMap};
use std::fmt;

use super::model::{AgentUse, Instance, INSTANCE_FORMAT};

/// One structural problem, located by its JSON path inside the instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Defect {
    /// JSON path of the offending value, e.g. `activities[3].duration`.
    pub at: String,
    /// What is wrong with the value.
    pub message: String,
}

impl fmt::Display for Defect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

/// Every structural problem of an instance (never just the first).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ValidationError {
    /// The problems, in the order they were found.
    pub problems: Vec<Defect>,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.problems.len();
        write!(
            f,
            "{n} problem{} in the instance",
            if n == 1 { "" } else { "s" }
        )?;
        for p in &self.problems {
            write!(f, "\n  - {p}")?;
        }
        Ok(())
    }
}

impl Instance {
    /// Checks the structure of the instance and reports every problem found.
    pub fn validate(&self) -> Result<(), ValidationError> {
        let mut problems = Vec::new();
        let mut problem = |at: String, message: String| problems.push(Defect { at, message });

        if self.format != INSTANCE_FORMAT {
            problem(
                "format".into(),
                format!(
                    "is \"{}\"; this version of makespan reads \"{INSTANCE_FORMAT}\"",
                    self.format
                ),
            );
        }
        if self.name.trim().is_empty() {
            problem(
                "name".into(),
                "is empty; give the instance a unique name".into(),
            );
        }
        if self.agents == Some(0) {
            let uses_agent = self.activities.iter().any(|a| a.agent != AgentUse::None);
            if uses_agent {
                problem(
                    "agents".into(),
                    "is 0 but activities need an agent; use null for unlimited agents".into(),
                );
            }
        }

        let mut resources: HashMap<&str, usize> = HashMap::new();
        let mut states: BTreeSet<String> = BTreeSet::new();
        for (i, r) in self.resources.iter().enumerate() {
            if resources.insert(r.id.as_str(), i).is_some() {
                problem(
                    format!("resources[{i}].id"),
                    format!("\"{}\" is defined twice", r.id),
                );
            }
            if r.capacity == 0 {
                problem(
                    format!("resources[{i}].capacity"),
                    format!(
                        "resource \"{}\" has capacity 0; remove it or give it capacity ≥ 1",
                        r.id
                    ),
                );
            }
            for s in &r.states {
                states.insert(format!("{}.{}", r.id, s));
            }
        }

        let mut activities: HashMap<&str, usize> = HashMap::new();
        for (i, a) in self.activities.iter().enumerate() {
            let at = |field: &str| format!("activities[{i}] (\"{}\").{field}", a.id);
            if a.id.is_empty() {
                problem(format!("activities[{i}].id"), "is empty".into());
            }
            if let Some(first) = activities.insert(a.id.as_str(), i) {
                problem(
                    format!("activities[{i}].id"),
                    format!(
                        "\"{}\" is already the id of activities[{first}]; ids must be unique",
                        a.id
                    ),
                );
            }
            if a.duration < 0 {
                problem(
                    at("duration"),
                    format!("{} is negative; durations must be ≥ 0", a.duration),
                );
            }
            if let AgentUse::BusyFor(k) = a.agent {
                if k < 1 || k > a.duration {
                    problem(
                        at("agent.busy_for"),
                        format!("{k} is outside 1..={} (the duration)", a.duration.max(1)),
                    );
                }
            }
            for (u, r) in a.uses.iter().enumerate() {
                if !resources.contains_key(r.resource.as_str()) {
                    problem(
                        format!("{}[{u}]", at("uses")),
                        format!(
                            "unknown resource \"{}\"; declare it under \"resources\"",
                            r.resource
                        ),
                    );
                }
            }
            for (field, map) in [("sets", &a.sets), ("requires", &a.requires)] {
                for key in map.keys() {
                    if !states.contains(key) {
                        problem(
                            format!("{}.{key}", at(field)),
                            "unknown state; use \"resource.state\" with a state the resource declares"
                                .into(),
                        );
                    }
                }
            }
            if let (Some(r), Some(d)) = (a.release, a.deadline) {
                if r > d {
                    problem(at("deadline"), format!("{d} is before the release {r}"));
                }
            }
            if a.release.is_some_and(|r| r < 0) {
                problem(at("release"), "is negative; times start at 0".into());
            }
        }

        for (i, p) in self.precedences.iter().enumerate() {
            for (field, id) in [("before", &p.before), ("after", &p.after)] {
                if !activities.contains_key(id.as_str()) {
                    problem(
                        format!("precedences[{i}].{field}"),
                        format!("unknown activity \"{id}\""),
                    );
                }
            }
            if p.before == p.after {
                problem(
                    format!("precedences[{i}]"),
                    format!("\"{}\" cannot precede itself", p.before),
                );
            }
            if let Some(max) = p.max_lag {
                if max < p.min_lag {
                    problem(
                        format!("precedences[{i}].max_lag"),
                        format!(
                            "{max} is below min_lag {}; no start satisfies both",
                            p.min_lag
                        ),
                    );
                }
            }
        }

        let stations: BTreeSet<&str> = self
            .activities
            .iter()
            .filter_map(|a| a.station.as_deref())
            .collect();
        for (i, s) in self.setups.iter().enumerate() {
            for (field, st) in [("from", &s.from), ("to", &s.to)] {
                if !stations.contains(st.as_str()) {
                    problem(
                        format!("setups[{i}].{field}"),
                        format!("no activity is at station \"{st}\""),
                    );
                }
            }
            if s.time < 0 {
                problem(
                    format!("setups[{i}].time"),
                    format!("{} is negative", s.time),
                );
            }
        }

        for (i, h) in self.holds.iter().enumerate() {
            if !resources.contains_key(h.resource.as_str()) {
                problem(
                    format!("holds[{i}].resource"),
                    format!(
                        "unknown resource \"{}\"; declare it under \"resources\"",
                        h.resource
                    ),
                );
            }
            for (field, id) in [("from", &h.from), ("until", &h.until)] {
                if let Some(id) = id.as_deref().filter(|id| !activities.contains_key(id)) {
                    problem(
                        format!("holds[{i}].{field}"),
                        format!("unknown activity \"{id}\""),
                    );
                }
            }
        }
        super::magnitude::check(self, &mut problems);

        if problems.is_empty() {
            Ok(())
        } else {
            Err(ValidationError { problems })
        }
    }

    /// Index of each activity id, for solvers that work on positions.
    pub fn activity_index(&self) -> HashMap<&str, usize> {
        self.activities
            .iter()
            .enumerate()
            .map(|(i, a)| (a.id.as_str(), i))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::{Activity, Precedence, Resource, ResourceUse};

    fn base() -> Instance {
        Instance {
            activities: vec![Activity::new("a", 2), Activity::new("b", 3)],
            precedences: vec![Precedence::finish_to_start("a", "b", 0)],
            ..Instance::new("t", Some(1))
        }
    }

    #[test]
    fn valid_instance_passes() {
        base().validate().unwrap();
    }

    #[test]
    fn validation_reports_every_problem_not_just_the_first() {
        let mut inst = base();
        inst.activities[0].duration = -1;
        inst.activities.push(Activity::new("b", 1));
        inst.precedences
            .push(Precedence::finish_to_start("a", "ghost", 0));
        inst.activities[1].uses.push(ResourceUse {
            resource: "oven".into(),
            amount: 1,
        });
        let err = inst.validate().unwrap_err();
        let text = err.to_string();
        assert_eq!(err.problems.len(), 4, "{text}");
        assert!(text.contains("-1 is negative"), "{text}");
        assert!(text.contains("already the id"), "{text}");
        assert!(text.contains("unknown activity \"ghost\""), "{text}");
        assert!(text.contains("unknown resource \"oven\""), "{text}");
    }

    #[test]
    fn zero_capacity_and_bad_busy_for_are_reported() {
        let mut inst = base();
        inst.resources.push(Resource {
            id: "pot".into(),
            capacity: 0,
            states: vec![],
        });
        inst.activities[0].agent = AgentUse::BusyFor(5);
        let err = inst.validate().unwrap_err();
        assert_eq!(err.problems.len(), 2, "{err}");
    }

    #[test]
    fn unknown_state_key_is_reported() {
        let mut inst = base();
        inst.resources.push(Resource {
            id: "oven".into(),
            capacity: 1,
            states: vec!["temperature".into()],
        });
        inst.activities[0]
            .sets
            .insert("oven.temperature".into(), 350.into());
        inst.activities[1]
            .requires
            .insert("oven.colour".into(), "red".into());
        let err = inst.validate().unwrap_err();
        assert_eq!(err.problems.len(), 1, "{err}");
        assert!(err.problems[0].at.contains("oven.colour"));
    }
}
