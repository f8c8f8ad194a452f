//! One TimeArena run (a task, or a combination of tasks of one scenario) as a unified
//! instance, following the environment's own object naming and its exact scheduling
//! model:
//!
//! - one agent; minute grid; Type-1 actions occupy the agent for their whole duration,
//!   Type-2 (`*`) actions for their first minute only (`busy_for: 1`);
//! - every prerequisite is finish-to-start with lag 0 (a dependent may start at `s + d`);
//! - every action holds its objects for its whole duration: a private object used by two
//!   or more actions is a unary resource (one used by a single action cannot conflict and
//!   is left out), a pooled container kind (`pot`, `fryer`, `oven`) is one resource whose
//!   capacity is the number of its instances in the run (1 with `--constraint`).
//!
//! Activity ids are the action strings the environment accepts in this run, with a pooled
//! container written as its kind (`fry beef in fryer`); the label writes it as a slot
//! (`fry beef in {fryer}`) that the native exporter fills with a concrete instance.

use std::collections::{BTreeMap, HashMap};

use serde_json::{json, Value};

use super::graph::{self, GraphTask};
use super::tasks::{Action, Task};
use makespan_model::instance::{
    Activity, AgentUse, Instance, Precedence, Resource, ResourceUse, Source, TimeUnit,
};

/// An object of the run: where it comes from and what the environment calls it.
struct RunObject<'a> {
    task: usize,
    original: &'a str,
    pool: Option<&'a str>,
    /// The name in this run; `None` when `--constraint` dropped the pool instance.
    name: Option<String>,
    todo_keys: Vec<&'a str>,
}

/// The objects of all tasks of a run, renamed as the environment renames them.
struct Objects<'a> {
    list: Vec<RunObject<'a>>,
    by_task: HashMap<(usize, &'a str), usize>,
}

impl<'a> Objects<'a> {
    /// The environment's renaming: a name occurring more than once in the run becomes
    /// `name_1 … name_n` in task order; pool instances count under their kind. With
    /// `constraint`, only the first instance of each pool kind is kept, under its bare kind
    /// name.
    fn new(tasks: &[&'a Task], constraint: bool) -> Self {
        let mut list = Vec::new();
        let mut kept_pools: Vec<&str> = Vec::new();
        for (t, task) in tasks.iter().enumerate() {
            for object in &task.objects {
                let pool = task.pool_kind(&object.name);
                let dropped = constraint
                    && pool.is_some_and(|kind| {
                        let seen = kept_pools.contains(&kind);
                        kept_pools.push(kind);
                        seen
                    });
                list.push(RunObject {
                    task: t,
                    original: &object.name,
                    pool,
                    name: (!dropped).then(|| pool.unwrap_or(&object.name).to_string()),
                    todo_keys: object.todo.keys().map(String::as_str).collect(),
                });
            }
        }
        let mut count: HashMap<String, usize> = HashMap::new();
        for name in list.iter().filter_map(|o| o.name.clone()) {
            *count.entry(name).or_default() += 1;
        }
        let mut seen: HashMap<String, usize> = HashMap::new();
        for object in &mut list {
            if let Some(base) = object.name.clone() {
                if count[&base] > 1 {
                    let k = seen.entry(base.clone()).or_default();
                    *k += 1;
                    object.name = Some(format!("{base}_{k}"));
                }
            }
        }
        let by_task = list
            .iter()
            .enumerate()
            .map(|(i, o)| ((o.task, o.original), i))
            .collect();
        Objects { list, by_task }
    }

    fn get(&self, task: usize, original: &'a str) -> &RunObject<'a> {
        &self.list[self.by_task[&(task, original)]]
    }

    /// The run name of a private object (pooled ones are addressed by kind instead).
    fn name(&self, task: usize, original: &'a str) -> &str {
        let object = self.get(task, original);
        object.name.as_deref().unwrap_or(original)
    }

    /// Whether a private object's name was changed because it collides in the run.
    fn renamed(&self, task: usize, original: &'a str) -> bool {
        let object = self.get(task, original);
        object.pool.is_none() && object.name.as_deref() != Some(original)
    }
}

/// The action string of `action` in this run, with a pooled container written `slot(kind)`.
fn action_text(
    objects: &Objects,
    t: usize,
    action: &Action,
    slot: impl Fn(&str) -> String,
) -> String {
    let mut tokens: Vec<String> = action.name.split(' ').map(str::to_string).collect();
    tokens[1] = objects.name(t, &action.subject).to_string();
    if let Some(container) = &action.container {
        tokens[3] = match &action.container_pool {
            Some(kind) => slot(kind),
            None => objects.name(t, container).to_string(),
        };
    }
    tokens.join(" ")
}

/// The run's instance name: task names joined by `+`, `-constraint` for that variant.
pub fn run_name(tasks: &[&Task], constraint: bool) -> String {
    let joined: Vec<&str> = tasks.iter().map(|t| t.name.as_str()).collect();
    let suffix = if constraint { "-constraint" } else { "" };
    format!("{}{suffix}", joined.join("+"))
}

/// Builds the instance of one run. `graph` (the oracle's `dependencygraph.json`, when it
/// was found) adds the oracle's model and its disagreements to `source.notes`.
pub fn build(
    file: Option<String>,
    tasks: &[&Task],
    constraint: bool,
    graph: Option<&BTreeMap<String, GraphTask>>,
) -> Instance {
    let objects = Objects::new(tasks, constraint);
    let mut activities = Vec::new();
    let mut precedences = Vec::new();
    let mut ids: Vec<Vec<String>> = Vec::new();
    for (t, task) in tasks.iter().enumerate() {
        let task_ids: Vec<String> = task
            .actions
            .iter()
            .map(|a| action_text(&objects, t, a, |kind| kind.to_string()))
            .collect();
        for (action, id) in task.actions.iter().zip(&task_ids) {
            let uses = action
                .objects_held_while_running
                .iter()
                .map(|o| ResourceUse {
                    resource: match objects.get(t, o).pool {
                        Some(kind) => kind.to_string(),
                        None => objects.name(t, o).to_string(),
                    },
                    amount: 1,
                })
                .collect();
            activities.push(Activity {
                agent: if action.occupies_agent {
                    AgentUse::Whole
                } else {
                    AgentUse::BusyFor(1)
                },
                uses,
                label: Some(action_text(&objects, t, action, |kind| {
                    format!("{{{kind}}}")
                })),
                ..Activity::new(id.clone(), action.duration)
            });
            for dependency in &action.dependencies {
                let k = task.actions.iter().position(|a| &a.name == dependency);
                // `tasks::read` checked that every dependency names an action of the task.
                let before = k.map_or_else(|| dependency.clone(), |k| task_ids[k].clone());
                precedences.push(Precedence::finish_to_start(before, id.clone(), 0));
            }
        }
        ids.push(task_ids);
    }
    let pools = pool_capacities(tasks, constraint);
    let resources = resources(&mut activities, &pools);
    let mut notes = BTreeMap::new();
    notes.insert("scenario".into(), json!(tasks[0].scenario));
    notes.insert(
        "tasks".into(),
        json!(tasks.iter().map(|t| &t.name).collect::<Vec<_>>()),
    );
    notes.insert("constraint".into(), json!(constraint));
    if !pools.is_empty() {
        notes.insert("pools".into(), json!(pools));
    }
    let restrictions = environment_restrictions(tasks, &objects, &ids);
    for (key, list) in [
        ("environment_unfinishable", restrictions.unfinishable),
        ("environment_needs_foreign_container", restrictions.foreign),
    ] {
        if !list.is_empty() {
            notes.insert(key.into(), json!(list));
        }
    }
    if !restrictions.alternatives.is_empty() {
        notes.insert(
            "alternative_actions".into(),
            json!(restrictions.alternatives),
        );
    }
    if let Some(graph) = graph {
        let (oracle, disagreements) = oracle_model(tasks, &ids, graph);
        notes.insert("oracle_graph".into(), Value::Array(oracle));
        if !disagreements.is_empty() {
            notes.insert("dependencygraph_disagreements".into(), json!(disagreements));
        }
    }
    Instance {
        time_unit: TimeUnit::Minute,
        resources,
        activities,
        precedences,
        source: Some(Source {
            benchmark: super::BENCHMARK.into(),
            file,
            notes,
        }),
        ..Instance::new(run_name(tasks, constraint), Some(1))
    }
}

/// Pool kind → capacity: the number of instances over the run's tasks, or 1 with
/// `--constraint`.
fn pool_capacities(tasks: &[&Task], constraint: bool) -> BTreeMap<String, u32> {
    let mut pools = BTreeMap::new();
    for task in tasks {
        for (kind, &n) in &task.pools {
            let total = pools.entry(kind.clone()).or_insert(0);
            *total = if constraint { 1 } else { *total + n };
        }
    }
    pools
}

/// The resources of the run: every pool kind, and each private object held by two or more
/// actions. Uses of objects held by a single action are dropped from the activities.
fn resources(activities: &mut [Activity], pools: &BTreeMap<String, u32>) -> Vec<Resource> {
    let mut holders: BTreeMap<String, usize> = BTreeMap::new();
    for activity in activities.iter() {
        for used in &activity.uses {
            *holders.entry(used.resource.clone()).or_default() += 1;
        }
    }
    let shared = |id: &str| pools.contains_key(id) || holders.get(id).is_some_and(|&n| n > 1);
    for activity in activities.iter_mut() {
        activity.uses.retain(|u| shared(&u.resource));
    }
    holders
        .keys()
        .filter(|id| shared(id))
        .map(|id| Resource {
            id: id.clone(),
            capacity: pools.get(id).copied().unwrap_or(1),
            states: Vec::new(),
        })
        .collect()
}

/// What the environment's container restriction does to a run.
struct Restrictions {
    /// Actions no container of the run is accepted for: the run cannot be completed.
    unfinishable: Vec<String>,
    /// Actions accepted only with another task's container.
    foreign: Vec<String>,
    /// Other action strings the environment accepts for an action (another container).
    alternatives: BTreeMap<String, String>,
}

/// Replays `constraint_only_for_task`: each renamed private subject is listed
/// on the containers of its own task that carry the matching `_2` key (containers whose
/// name contains `pot`, `fryer` or `oven` are skipped), and `verb X prep C` is rejected
/// when `C` has a list without `X`.
fn environment_restrictions(
    tasks: &[&Task],
    objects: &Objects,
    ids: &[Vec<String>],
) -> Restrictions {
    let role = |key: &str| key.strip_suffix("_1").map(|k| format!("{k}_2"));
    let mut allowed: HashMap<&str, Vec<&str>> = HashMap::new();
    for subject in objects
        .list
        .iter()
        .filter(|o| objects.renamed(o.task, o.original))
    {
        for key in subject.todo_keys.iter().filter_map(|k| role(k)) {
            for container in objects.list.iter().filter(|c| c.task == subject.task) {
                let Some(name) = container.name.as_deref() else {
                    continue;
                };
                let skipped = ["pot", "fryer", "oven"].iter().any(|p| name.contains(p));
                if !skipped && container.todo_keys.contains(&key.as_str()) {
                    allowed
                        .entry(name)
                        .or_default()
                        .push(subject.name.as_deref().unwrap_or_default());
                }
            }
        }
    }
    let accepts = |container: &str, subject: &str| {
        allowed
            .get(container)
            .is_none_or(|list| list.contains(&subject))
    };
    let mut found = Restrictions {
        unfinishable: Vec::new(),
        foreign: Vec::new(),
        alternatives: BTreeMap::new(),
    };
    for (t, task) in tasks.iter().enumerate() {
        for (action, id) in task.actions.iter().zip(&ids[t]) {
            let (Some(container), None) = (&action.container, &action.container_pool) else {
                continue;
            };
            let subject = objects.name(t, &action.subject);
            let own = objects.name(t, container);
            for other in action
                .env_allowed_containers
                .iter()
                .filter(|c| *c != container)
            {
                let text = id.replacen(
                    &format!(" {own}"),
                    &format!(" {}", objects.name(t, other)),
                    1,
                );
                found.alternatives.insert(text, id.clone());
            }
            if accepts(own, subject) {
                continue;
            }
            let key = role(&action.todo_key).unwrap_or_default();
            let elsewhere = objects.list.iter().any(|c| {
                c.name.as_deref().is_some_and(|name| {
                    c.todo_keys.contains(&key.as_str()) && accepts(name, subject)
                })
            });
            if elsewhere {
                found.foreign.push(id.clone());
            } else {
                found.unfinishable.push(id.clone());
            }
        }
    }
    found
}

/// The oracle's model of the run for [`super::greedy`]: per task, its graph entry and the
/// activity id of each graph action, plus the graph's disagreements with the tasks.
/// Graph actions are matched by `dependencygraph_name`; an unmatched graph action is paired
/// with the task's one unmatched action of the same verb and duration, if there is exactly
/// one (household4's `water fruit`, lab3's `stir solution`).
fn oracle_model(
    tasks: &[&Task],
    ids: &[Vec<String>],
    graph: &BTreeMap<String, GraphTask>,
) -> (Vec<Value>, Vec<String>) {
    let mut oracle = Vec::new();
    let mut disagreements = Vec::new();
    for (t, task) in tasks.iter().enumerate() {
        let Some(entry) = graph.get(&task.name) else {
            disagreements.push(format!("{}: not in dependencygraph", task.name));
            continue;
        };
        disagreements.extend(graph::disagreements(task, entry));
        let mut activity_of = serde_json::Map::new();
        for (graph_name, _) in &entry.durations {
            if let Some(k) = task
                .actions
                .iter()
                .position(|a| &a.dependencygraph_name == graph_name)
            {
                activity_of.insert(graph_name.clone(), json!(ids[t][k]));
            }
        }
        for (graph_name, minutes) in &entry.durations {
            if activity_of.contains_key(graph_name) {
                continue;
            }
            let verb = graph_name.split(' ').next();
            let candidates: Vec<usize> = (0..task.actions.len())
                .filter(|&k| {
                    let a = &task.actions[k];
                    a.duration == *minutes
                        && a.name.split(' ').next() == verb
                        && !entry
                            .durations
                            .iter()
                            .any(|(g, _)| *g == a.dependencygraph_name)
                })
                .collect();
            if let [k] = candidates[..] {
                activity_of.insert(graph_name.clone(), json!(ids[t][k]));
            }
        }
        oracle.push(json!({
            "task": task.name,
            "durations": entry.durations.iter().map(|(a, d)| (a.clone(), json!(d))).collect::<serde_json::Map<_, _>>(),
            "dependencies": entry.dependencies,
            "activities": activity_of,
        }));
    }
    (oracle, disagreements)
}
