//! TimeArena's `dependencygraph.json`: the greedy oracle's own, hand-written
//! model of each task (durations and prerequisites, no objects, no pools). It is not used
//! to build instances (it disagrees with the environment in six tasks), only to
//! replay the oracle ([`super::greedy`]) and to report where it disagrees with `tasks.json`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::{Map, Value};

use super::tasks::Task;
use makespan_model::instance::LoadError;

/// One task of the graph, in the file's key order (the oracle's "dictionary order").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GraphTask {
    /// Action name (with `*` for autonomous actions) → minutes, in file order.
    pub durations: Vec<(String, i64)>,
    /// Action name → its prerequisites; actions without any are absent.
    pub dependencies: BTreeMap<String, Vec<String>>,
}

impl GraphTask {
    /// Whether the oracle treats the action as autonomous (Type-2).
    pub fn is_autonomous(name: &str) -> bool {
        name.contains('*')
    }
}

/// Whether `value` has the graph's shape: an object of `[durations, dependencies]` pairs.
pub fn looks_like_graph(value: &Value) -> bool {
    value.as_object().is_some_and(|tasks| {
        !tasks.is_empty()
            && tasks.values().all(|entry| {
                entry
                    .as_array()
                    .is_some_and(|pair| pair.len() == 2 && pair.iter().all(Value::is_object))
            })
    })
}

/// Parses the graph file; errors name the task and the entry.
pub fn read(path: &Path, text: &str) -> Result<BTreeMap<String, GraphTask>, LoadError> {
    let raw: Map<String, Value> =
        serde_json::from_str(text).map_err(|e| LoadError::json_in(path, text, &e))?;
    let mut tasks = BTreeMap::new();
    for (name, entry) in raw {
        let bad = |what: &str| {
            LoadError::format(
                path,
                format!("\"{name}\""),
                format!("{what}; expected [{{action: minutes}}, {{action: [prerequisites]}}]"),
            )
        };
        let Some([durations, dependencies]) = entry.as_array().map(Vec::as_slice) else {
            return Err(bad("the entry is not a list of two objects"));
        };
        let (Some(durations), Some(dependencies)) =
            (durations.as_object(), dependencies.as_object())
        else {
            return Err(bad("the entry is not a list of two objects"));
        };
        let durations = durations
            .iter()
            .map(|(action, minutes)| match minutes.as_i64() {
                Some(m) if m >= 1 => Ok((action.clone(), m)),
                _ => Err(bad(&format!(
                    "duration of \"{action}\" is {minutes}, not a whole number ≥ 1"
                ))),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let known: BTreeSet<&str> = durations.iter().map(|(a, _)| a.as_str()).collect();
        let mut deps = BTreeMap::new();
        for (action, list) in dependencies {
            let list: Vec<String> = list
                .as_array()
                .and_then(|l| l.iter().map(|v| v.as_str().map(str::to_string)).collect())
                .ok_or_else(|| {
                    bad(&format!(
                        "prerequisites of \"{action}\" are not a list of names"
                    ))
                })?;
            for name in std::iter::once(action).chain(&list) {
                if !known.contains(name.as_str()) {
                    return Err(bad(&format!(
                        "\"{name}\" appears among the prerequisites but has no duration"
                    )));
                }
            }
            deps.insert(action.clone(), list);
        }
        tasks.insert(
            name,
            GraphTask {
                durations,
                dependencies: deps,
            },
        );
    }
    Ok(tasks)
}

/// Where the graph and the environment's task disagree, one sentence each, in the form
/// of `tasks.json`'s own `dependencygraph_disagreements` list.
pub fn disagreements(task: &Task, graph: &GraphTask) -> Vec<String> {
    let name = &task.name;
    let env: BTreeMap<&str, &super::tasks::Action> = task
        .actions
        .iter()
        .map(|a| (a.dependencygraph_name.as_str(), a))
        .collect();
    let dg: BTreeMap<&str, i64> = graph
        .durations
        .iter()
        .map(|(a, d)| (a.as_str(), *d))
        .collect();
    let mut found = Vec::new();
    for action in env.keys().filter(|a| !dg.contains_key(*a)) {
        found.push(format!(
            "{name}: action '{action}' (env) not in dependencygraph"
        ));
    }
    for action in dg.keys().filter(|a| !env.contains_key(*a)) {
        found.push(format!(
            "{name}: dependencygraph action '{action}' not in env"
        ));
    }
    let graph_name: BTreeMap<&str, &str> = task
        .actions
        .iter()
        .map(|a| (a.name.as_str(), a.dependencygraph_name.as_str()))
        .collect();
    for (action, record) in &env {
        let Some(&minutes) = dg.get(action) else {
            continue;
        };
        if minutes != record.duration {
            found.push(format!(
                "{name}: duration of '{action}': env={} dg={minutes}",
                record.duration
            ));
        }
        let env_deps: BTreeSet<&str> = record
            .dependencies
            .iter()
            .map(|d| graph_name.get(d.as_str()).copied().unwrap_or(d))
            .collect();
        let dg_deps: BTreeSet<&str> = graph
            .dependencies
            .get(*action)
            .map(|l| l.iter().map(String::as_str).collect())
            .unwrap_or_default();
        if env_deps != dg_deps {
            found.push(format!(
                "{name}: deps of '{action}': env={} dg={}",
                python_list(&env_deps),
                python_list(&dg_deps)
            ));
        }
    }
    found
}

/// `['a', 'b']`, as Python prints a list of strings.
fn python_list(items: &BTreeSet<&str>) -> String {
    let quoted: Vec<String> = items.iter().map(|s| format!("'{s}'")).collect();
    format!("[{}]", quoted.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_entries_in_file_order() {
        let text = r#"{"t": [{"b x": 2, "a y*": 4}, {"a y*": ["b x"]}]}"#;
        let graph = read(Path::new("g.json"), text).unwrap();
        let t = &graph["t"];
        assert_eq!(t.durations[0], ("b x".to_string(), 2));
        assert_eq!(t.dependencies["a y*"], vec!["b x".to_string()]);
        assert!(GraphTask::is_autonomous("a y*"));
        assert!(looks_like_graph(&serde_json::from_str(text).unwrap()));
    }

    #[test]
    fn unknown_prerequisites_and_bad_durations_are_errors() {
        let err = read(Path::new("g.json"), r#"{"t": [{"a": 1}, {"a": ["zz"]}]}"#).unwrap_err();
        assert!(err.to_string().contains("\"zz\""), "{err}");
        let err = read(Path::new("g.json"), r#"{"t": [{"a": 0}, {}]}"#).unwrap_err();
        assert!(err.to_string().contains("not a whole number"), "{err}");
        assert!(read(Path::new("g.json"), r#"{"t": [{"a": 1}]}"#).is_err());
    }
}
