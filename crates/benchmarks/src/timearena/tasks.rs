//! Reading TimeArena's `tasks.json`: the 30 task modules as the environment
//! loads them. Every record is read strictly (unknown fields are errors) and checked for
//! the facts the importer relies on, each error naming the task and the action.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use serde::de::IgnoredAny;
use serde::Deserialize;

use makespan_model::instance::LoadError;

/// The pooled container kinds: their instances are interchangeable.
pub const POOL_KINDS: [&str; 3] = ["pot", "fryer", "oven"];

/// The whole file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskFile {
    #[serde(rename = "source")]
    pub(super) _source: IgnoredAny,
    #[serde(rename = "semantics")]
    pub(super) _semantics: IgnoredAny,
    /// The file's own list of disagreements with `dependencygraph.json`; the importer
    /// recomputes them from the graph instead (tests compare the two).
    #[serde(rename = "dependencygraph_disagreements")]
    pub(super) _dependencygraph_disagreements: IgnoredAny,
    pub tasks: Vec<Task>,
}

/// One task module (`cooking1` … `lab10`).
#[derive(Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Task {
    pub name: String,
    pub scenario: String,
    pub description: String,
    /// Pool kind → number of instances of it in this task.
    pub pools: BTreeMap<String, u32>,
    pub objects: Vec<Object>,
    pub actions: Vec<Action>,
    pub total_action_time: i64,
    #[serde(rename = "action_space")]
    pub(super) _action_space: IgnoredAny,
    #[serde(rename = "instruction")]
    pub(super) _instruction: IgnoredAny,
}

/// An object of a task, named as the environment names it when the task runs alone.
#[derive(Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Object {
    pub name: String,
    #[serde(rename = "initial_state")]
    pub(super) _initial_state: IgnoredAny,
    /// State key → minutes still to do; `_2` keys are container roles (0 minutes).
    pub todo: BTreeMap<String, i64>,
    #[serde(rename = "dependency_raw")]
    pub(super) _dependency_raw: IgnoredAny,
}

/// An action, named exactly as the environment accepts it in a single-task run.
#[derive(Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Action {
    pub name: String,
    /// The same action in `dependencygraph.json` (with `*` for autonomous actions).
    pub dependencygraph_name: String,
    pub duration: i64,
    /// Type-1 (occupying) when true, Type-2 (autonomous, `*`) when false.
    pub occupies_agent: bool,
    #[serde(rename = "type")]
    pub(super) _kind: IgnoredAny,
    pub subject: String,
    pub todo_key: String,
    pub container: Option<String>,
    /// `pot`, `fryer` or `oven` when the container is pooled.
    pub container_pool: Option<String>,
    /// Every container the environment accepts for this action when the task runs alone.
    pub env_allowed_containers: Vec<String>,
    #[serde(rename = "objects")]
    pub(super) _objects: IgnoredAny,
    pub objects_held_while_running: Vec<String>,
    /// Names of actions of the same task that must finish first.
    pub dependencies: Vec<String>,
    #[serde(rename = "env_marks_objects_occupied")]
    pub(super) _marks_occupied: IgnoredAny,
    #[serde(default, rename = "name_template")]
    pub(super) _name_template: Option<IgnoredAny>,
}

impl Action {
    /// The verb and preposition of `verb SUBJECT [prep CONTAINER]`.
    pub fn words(&self) -> (&str, Option<&str>) {
        let mut tokens = self.name.split(' ');
        let verb = tokens.next().unwrap_or_default();
        let prep = tokens.nth(1);
        (verb, prep)
    }
}

impl Task {
    /// The pool kind of an object of this task, if it is a pooled container instance
    /// (`fryer`, `fryer_2`, … for a kind listed in `pools`).
    pub fn pool_kind(&self, object: &str) -> Option<&str> {
        self.pools.keys().map(String::as_str).find(|kind| {
            object == *kind
                || object
                    .strip_prefix(kind)
                    .and_then(|rest| rest.strip_prefix('_'))
                    .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
    }
}

/// Parses `tasks.json` and checks it; errors name the file and the task/action.
pub fn read(path: &Path, text: &str) -> Result<TaskFile, LoadError> {
    let file: TaskFile =
        serde_json::from_str(text).map_err(|e| LoadError::json_in(path, text, &e))?;
    if file.tasks.is_empty() {
        return Err(LoadError::format(path, "tasks", "the task list is empty"));
    }
    let mut names = HashSet::new();
    for (t, task) in file.tasks.iter().enumerate() {
        if !names.insert(task.name.as_str()) {
            return Err(LoadError::format(
                path,
                format!("tasks[{t}].name"),
                format!(
                    "task \"{}\" appears twice; task names must be unique",
                    task.name
                ),
            ));
        }
        check_task(path, t, task)?;
    }
    Ok(file)
}

/// The facts about one task that the importer relies on.
fn check_task(path: &Path, t: usize, task: &Task) -> Result<(), LoadError> {
    let at = |a: usize, field: &str| format!("tasks[{t}] ({}).actions[{a}].{field}", task.name);
    if task.name.contains('+') || task.name.is_empty() {
        return Err(LoadError::format(
            path,
            format!("tasks[{t}].name"),
            "a task name must be non-empty and must not contain '+' (it joins combinations)",
        ));
    }
    for kind in task.pools.keys() {
        if !POOL_KINDS.contains(&kind.as_str()) {
            return Err(LoadError::format(
                path,
                format!("tasks[{t}] ({}).pools", task.name),
                format!("unknown pool kind \"{kind}\"; expected one of {POOL_KINDS:?}"),
            ));
        }
    }
    let objects: HashSet<&str> = task.objects.iter().map(|o| o.name.as_str()).collect();
    let actions: HashSet<&str> = task.actions.iter().map(|a| a.name.as_str()).collect();
    if actions.len() != task.actions.len() {
        return Err(LoadError::format(
            path,
            format!("tasks[{t}] ({}).actions", task.name),
            "two actions have the same name; action names must be unique within a task",
        ));
    }
    for (a, action) in task.actions.iter().enumerate() {
        if action.duration < 1 {
            return Err(LoadError::format(
                path,
                at(a, "duration"),
                format!(
                    "duration {} of \"{}\" must be at least one minute",
                    action.duration, action.name
                ),
            ));
        }
        let tokens: Vec<&str> = action.name.split(' ').collect();
        let shape_ok = match (&action.container, tokens.as_slice()) {
            (None, [_, subject]) => *subject == action.subject,
            (Some(container), [_, subject, _, named]) => {
                *subject == action.subject && named == container
            }
            _ => false,
        };
        if !shape_ok {
            return Err(LoadError::format(
                path,
                at(a, "name"),
                format!(
                    "\"{}\" is not `verb {}` or `verb {} prep CONTAINER` with its subject and container",
                    action.name, action.subject, action.subject
                ),
            ));
        }
        let named = std::iter::once(&action.subject)
            .chain(&action.container)
            .chain(&action.objects_held_while_running)
            .chain(&action.env_allowed_containers);
        for object in named {
            if !objects.contains(object.as_str()) {
                return Err(LoadError::format(
                    path,
                    at(a, "objects"),
                    format!(
                        "\"{}\" names object \"{object}\", which the task does not list",
                        action.name
                    ),
                ));
            }
        }
        if let (Some(container), Some(pool)) = (&action.container, &action.container_pool) {
            if task.pool_kind(container) != Some(pool.as_str()) {
                return Err(LoadError::format(
                    path,
                    at(a, "container_pool"),
                    format!("container \"{container}\" is not an instance of pool \"{pool}\""),
                ));
            }
        }
        for dependency in &action.dependencies {
            if !actions.contains(dependency.as_str()) {
                return Err(LoadError::format(
                    path,
                    at(a, "dependencies"),
                    format!(
                        "\"{}\" depends on \"{dependency}\", which is not an action of {}",
                        action.name, task.name
                    ),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task_with(pools: &[(&str, u32)]) -> Task {
        Task {
            name: "t".into(),
            scenario: "cooking".into(),
            description: String::new(),
            pools: pools.iter().map(|(k, n)| (k.to_string(), *n)).collect(),
            objects: Vec::new(),
            actions: Vec::new(),
            total_action_time: 0,
            _action_space: IgnoredAny,
            _instruction: IgnoredAny,
        }
    }

    #[test]
    fn pool_instances_are_the_kind_or_kind_underscore_number() {
        let task = task_with(&[("fryer", 2), ("pot", 1)]);
        assert_eq!(task.pool_kind("fryer_2"), Some("fryer"));
        assert_eq!(task.pool_kind("pot"), Some("pot"));
        assert_eq!(task.pool_kind("teapot"), None);
        assert_eq!(task.pool_kind("fryer_"), None);
        assert_eq!(task.pool_kind("fryer_x"), None);
        assert_eq!(task.pool_kind("oven"), None, "not a pool of this task");
    }

    #[test]
    fn errors_name_the_task_and_the_action() {
        let text = r#"{"source": "s", "semantics": {}, "dependencygraph_disagreements": [],
          "tasks": [{"name": "cooking1", "scenario": "cooking", "description": "", "pools": {},
            "objects": [{"name": "rice", "initial_state": "raw", "todo": {"pick": 2}, "dependency_raw": {}}],
            "actions": [{"name": "pick rice", "dependencygraph_name": "pick rice", "duration": 0,
              "occupies_agent": true, "type": "Type1/continuous", "subject": "rice", "todo_key": "pick",
              "container": null, "container_pool": null, "env_allowed_containers": [],
              "objects": ["rice"], "objects_held_while_running": ["rice"], "dependencies": [],
              "env_marks_objects_occupied": false}],
            "total_action_time": 2, "action_space": [], "instruction": ""}]}"#;
        let err = read(Path::new("tasks.json"), text).unwrap_err().to_string();
        assert!(
            err.contains("tasks[0] (cooking1).actions[0].duration"),
            "{err}"
        );
        let unknown = text.replace("\"todo_key\"", "\"extra\": 1, \"todo_key\"");
        let err = read(Path::new("tasks.json"), &unknown)
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown field `extra`"), "{err}");
    }
}
