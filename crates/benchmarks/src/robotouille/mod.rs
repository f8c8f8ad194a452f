//! Robotouille (ICLR 2025), asynchronous set: the scheduling abstraction of its 10 tasks
//! (`task_graphs.json`) as unified instances, and schedules back as the simulator's action
//! strings.
//!
//! What the importer encodes, all as instance data:
//! - one robot (`agents: 1`), every activity one step;
//! - a move between two different stations is a sequence-dependent setup of 1 step; the
//!   robot's start station is a release of 1 for every activity elsewhere (the first action
//!   anywhere else needs a move first);
//! - `preds` are finish-to-start precedences, `lag` a start-to-start minimum lag (cook, fry,
//!   fill, boil finish 4 steps after they start);
//! - the hand holds one thing: a `pick` and the `put`/`place_any`/`add`/`fill_bowl` that
//!   releases it are tied by a maximum lag equal to the move between their stations, so on
//!   one robot nothing fits between them;
//! - unit stations: an item placed on an appliance holds it until its next `pick`
//!   ([`makespan_model::instance::Hold`]), so the stove, board, fryer and sink serve one item at a time;
//! - `place_any` (parking a bun, fries "on a table", the pot after serving) goes to a free
//!   table: the free tables are one pool whose units are held by the objects that start on
//!   them (until picked) and by parked objects (until picked again, or to the end). Every
//!   free table is one move from everywhere, so which one is chosen changes nothing else;
//!   each parked object gets a station of its own (`park:<object>`);
//! - `add` happens where the pot is: each placement of the pot (the sink while it fills, the
//!   stove while it boils) gives an instance (`+add-sink1-stove1`: first add at the sink,
//!   second on the stove), with precedences that keep the add inside that placement;
//! - an optional activity (`required: false`, parking the pot after serving) gives two
//!   instances: `+park-after-serve` keeps it, `+serve-last` drops it and makes its
//!   predecessor chain the last thing the robot does (it keeps holding the pot).
//!
//! A task's optimum is the best over its instances. A modelling choice of makespan's, beyond
//! those of `task_graphs.json`: parking only on tables, never on an idle appliance.
//!
//! Every instance also carries its task's entry of `task_graphs.json` verbatim
//! (`source.notes.task_graph`, read back by [`task_graph`]): the objects, stacks and
//! recipe steps that the action-string export ([`answer_actions`]) and the action
//! verifier (`verify::robotouille_actions`) need, whatever variant the instance is.

pub mod actions;
mod answer;
mod benchmark;
pub mod checkout;
mod compare;
pub mod generator;
mod harness;
mod native;
pub mod pyrandom;
pub mod relaxation;
pub mod seeds;
pub mod world;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use serde::Deserialize;

use makespan_model::instance::{
    Activity, Hold, Instance, LoadError, Precedence, Relation, Resource, Setup, Source, TimeUnit,
};

pub use answer::answer_actions;
pub use benchmark::Robotouille;
pub use compare::{by_task, markdown, seed_table, SeedResult, TaskRow};
pub use native::{read_native, NativeTask};

/// `source.benchmark` of every Robotouille instance.
pub const BENCHMARK: &str = "robotouille";

/// The resource that counts free tables for parking.
pub const PARKING: &str = "free-tables";

/// The top level of `task_graphs.json`.
#[derive(Deserialize)]
struct TaskGraphs {
    tasks: Vec<Task>,
}

/// One task of `task_graphs.json`, as the importer reads it and as
/// [`task_graph`] reads it back from an instance.
#[derive(Debug, Clone, Deserialize)]
pub struct Task {
    /// `asynchronous/<n>_<name>`.
    pub task: String,
    /// The task's goal in words (kept in `source.notes.goal`).
    #[serde(default)]
    pub goal_description: String,
    /// The task's variant label, if any (kept in `source.notes.variant`).
    #[serde(default)]
    pub variant: Option<String>,
    /// The upstream optimal number of steps (see [`reference_steps`]).
    pub reference_optimal_steps_config: i64,
    /// The task's station names.
    pub stations: Vec<String>,
    /// The station where the robot starts.
    pub robot_start: String,
    /// Object name → `{kind, initial_station}`, listed bottom to top per station.
    pub objects: serde_json::Map<String, serde_json::Value>,
    /// The recipe's unit operations.
    pub activities: Vec<TaskActivity>,
}

/// Where an object starts and what it is (`item` or `container`).
#[derive(Debug, Clone, Deserialize)]
pub struct ObjectInfo {
    /// `item` or `container`.
    pub kind: String,
    /// The station the object starts on.
    pub initial_station: String,
}

/// One unit operation of a task.
#[derive(Debug, Clone, Deserialize)]
pub struct TaskActivity {
    /// The operation's id, unique within its task.
    pub id: String,
    /// `pick`, `put`, `place_any`, `cut`, `cook`, `fry`, `fill`, `boil`, `add`, `fill_bowl`.
    pub kind: String,
    /// The object acted on (for `fill_bowl` the pot poured from).
    pub obj: String,
    /// Duration in steps.
    pub duration_steps: i64,
    /// Target station of a `put`, `"table"` for a `place_any` restricted to tables, the pot
    /// of an `add`, the bowl of a `fill_bowl`.
    #[serde(default)]
    pub to: Option<String>,
    /// `place` or `stack` for a `put`.
    #[serde(default)]
    pub mode: Option<String>,
    /// Activities that must finish before this one starts.
    #[serde(default)]
    pub preds: Vec<String>,
    /// `(activity, L)`: start at least `L` steps after that activity's start.
    #[serde(default)]
    pub lag: Option<(String, i64)>,
    /// `Some(false)`: may be left out (parking the pot after serving).
    #[serde(default)]
    pub required: Option<bool>,
}

impl Task {
    /// The objects with their kind and start station, in the file's order (bottom to top
    /// per station).
    pub fn object_list(&self) -> Result<Vec<(String, ObjectInfo)>, crate::BadValue> {
        self.objects
            .iter()
            .map(|(name, value)| {
                serde_json::from_value(value.clone())
                    .map(|info| (name.clone(), info))
                    .map_err(|e| crate::BadValue(format!("objects.{name}: {e}")))
            })
            .collect()
    }
}

/// The task graph a Robotouille instance was built from (`source.notes.task_graph`).
pub fn task_graph(instance: &Instance) -> Result<Task, crate::BadValue> {
    let source = instance
        .source
        .as_ref()
        .filter(|s| s.benchmark == BENCHMARK)
        .ok_or_else(|| {
            format!(
                "instance \"{}\" is not a Robotouille instance",
                instance.name
            )
        })?;
    let raw = source.notes.get("task_graph").ok_or_else(|| {
        format!(
            "instance \"{}\" has no source.notes.task_graph; import task_graphs.json again",
            instance.name
        )
    })?;
    let at = |e: String| {
        format!(
            "instance \"{}\": source.notes.task_graph: {e}",
            instance.name
        )
    };
    let task: Task = serde_json::from_value(raw.clone()).map_err(|e| at(e.to_string()))?;
    task.object_list().map_err(|e| at(e.0))?;
    Ok(task)
}

/// Imports every task of a `task_graphs.json` file (one or two instances per task).
pub fn import(path: &Path, text: &str) -> Result<Vec<Instance>, LoadError> {
    let graphs: TaskGraphs =
        serde_json::from_str(text).map_err(|e| LoadError::json_in(path, text, &e))?;
    // The same text as plain JSON, to keep each task's entry verbatim in the notes.
    let raw: RawTaskGraphs =
        serde_json::from_str(text).map_err(|e| LoadError::json_in(path, text, &e))?;
    let mut out = Vec::new();
    for (k, (task, raw)) in graphs.tasks.iter().zip(&raw.tasks).enumerate() {
        let at =
            |what: String| LoadError::format(path, format!("tasks[{k}] ({})", task.task), what);
        out.extend(task_instances(path, task, raw).map_err(at)?);
    }
    Ok(out)
}

/// `task_graphs.json` with each task kept as JSON.
#[derive(Deserialize)]
struct RawTaskGraphs {
    tasks: Vec<serde_json::Value>,
}

/// The instances of the task `name` names: the task number (`7`), its short name
/// (`7_tomato_soup_and_lettuce_chicken_sandwich`) or full name (`asynchronous/7_…`); or
/// one instance by its full name (with or without the `robotouille-` prefix). A task
/// reference gives every variant of the task; an instance name gives that one.
pub fn select<'a>(instances: &'a [Instance], name: &str) -> Vec<&'a Instance> {
    let bare = name.strip_prefix("robotouille-").unwrap_or(name);
    let exact: Vec<&Instance> = instances
        .iter()
        .filter(|i| i.name == name || i.name == format!("robotouille-{bare}"))
        .collect();
    if !exact.is_empty() {
        return exact;
    }
    let short = task_name(bare);
    instances
        .iter()
        .filter(|i| {
            let task = task_of(i).trim_start_matches("robotouille-");
            task == short || task.split_once('_').is_some_and(|(n, _)| n == short)
        })
        .collect()
}

/// The short task name: `asynchronous/0_cheese_chicken_sandwich` → `0_cheese_chicken_sandwich`.
pub fn task_name(task: &str) -> &str {
    task.rsplit('/').next().unwrap_or(task)
}

/// The task an instance belongs to (the instance name without its `+variant` suffix).
pub fn task_of(instance: &Instance) -> &str {
    instance.name.split('+').next().unwrap_or(&instance.name)
}

/// The names of every variant of the task an instance was imported from, rebuilt from the
/// task graph its notes carry: a task's optimum is the least over all of them.
pub fn variant_names(instance: &Instance) -> Result<Vec<String>, crate::BadValue> {
    let task = task_graph(instance)?;
    let source = instance.source.as_ref();
    let raw = source
        .and_then(|s| s.notes.get("task_graph"))
        .cloned()
        .unwrap_or_default();
    let file = source.and_then(|s| s.file.as_deref()).unwrap_or_default();
    let built = task_instances(Path::new(file), &task, &raw).map_err(|e| {
        format!(
            "instance \"{}\": source.notes.task_graph: {e}",
            instance.name
        )
    })?;
    Ok(built.into_iter().map(|i| i.name).collect())
}

/// The upstream `optimal_steps` of the instance's task, from its notes.
pub fn reference_steps(instance: &Instance) -> Option<i64> {
    instance
        .source
        .as_ref()?
        .notes
        .get("reference_optimal_steps_config")?
        .as_i64()
}

fn task_instances(
    path: &Path,
    task: &Task,
    raw: &serde_json::Value,
) -> Result<Vec<Instance>, String> {
    let built = Built::new(task)?;
    let optional: Vec<usize> = (0..task.activities.len())
        .filter(|&i| task.activities[i].required == Some(false))
        .collect();
    let base = format!("robotouille-{}", task_name(&task.task));
    // Every choice of where each `add` happens (the pot's placements).
    let mut choices: Vec<Vec<usize>> = vec![vec![]];
    for (_, spots) in &built.adds {
        choices = choices
            .into_iter()
            .flat_map(|c| {
                (0..spots.len()).map(move |k| {
                    let mut c = c.clone();
                    c.push(k);
                    c
                })
            })
            .collect();
    }
    let mut out = Vec::new();
    for choice in &choices {
        let mut name = base.clone();
        if built.adds.iter().any(|(_, spots)| spots.len() > 1) {
            let at: Vec<&str> = built
                .adds
                .iter()
                .zip(choice)
                .map(|((_, spots), &k)| spots[k].1.as_str())
                .collect();
            name = format!("{name}+add-{}", at.join("-"));
        }
        match optional.as_slice() {
            [] => out.push(built.instance(path, task, raw, name, choice, None)),
            [o] => {
                out.push(built.instance(
                    path,
                    task,
                    raw,
                    format!("{name}+park-after-serve"),
                    choice,
                    None,
                ));
                out.push(built.instance(
                    path,
                    task,
                    raw,
                    format!("{name}+serve-last"),
                    choice,
                    Some(*o),
                ));
            }
            _ => {
                return Err(format!(
                    "{} optional activities; the importer handles at most one per task",
                    optional.len()
                ))
            }
        }
    }
    Ok(out)
}

/// Everything derived from a task before an instance is written.
struct Built {
    /// Station of each activity.
    station: Vec<String>,
    /// Each `add` and the puts of its pot it may follow (the pot's placements).
    adds: Vec<(usize, Vec<(usize, String)>)>,
    /// The next pick of the object after each activity, if any.
    next_pick: Vec<Option<usize>>,
    /// Hand links: `(holder, releaser)` activity pairs.
    hand: Vec<(usize, usize)>,
    resources: Vec<Resource>,
    holds: Vec<(String, Option<usize>, Option<usize>)>,
}

impl Built {
    fn new(task: &Task) -> Result<Built, String> {
        let acts = &task.activities;
        let ids: HashMap<&str, usize> = acts
            .iter()
            .enumerate()
            .map(|(i, a)| (a.id.as_str(), i))
            .collect();
        if ids.len() != acts.len() {
            return Err("two activities share an id".into());
        }
        let mut location: HashMap<String, String> = HashMap::new();
        let mut initial: Vec<(String, String)> = Vec::new();
        for (name, value) in &task.objects {
            let info: ObjectInfo = serde_json::from_value(value.clone())
                .map_err(|e| format!("objects.{name}: {e}"))?;
            if info.kind != "item" && info.kind != "container" {
                return Err(format!("objects.{name}.kind is \"{}\"", info.kind));
            }
            if !task.stations.contains(&info.initial_station) {
                return Err(format!(
                    "objects.{name}.initial_station \"{}\" is not a station",
                    info.initial_station
                ));
            }
            location.insert(name.clone(), info.initial_station.clone());
            initial.push((name.clone(), info.initial_station));
        }
        let mut placed_by: HashMap<String, usize> = HashMap::new();
        let mut station = Vec::with_capacity(acts.len());
        let mut adds = Vec::new();
        for (i, a) in acts.iter().enumerate() {
            if a.duration_steps != 1 {
                return Err(format!(
                    "{}: duration_steps is {}, not 1",
                    a.id, a.duration_steps
                ));
            }
            let here = |o: &str| {
                location
                    .get(o)
                    .cloned()
                    .ok_or_else(|| format!("{}: unknown object \"{o}\"", a.id))
            };
            let st = match a.kind.as_str() {
                "pick" | "cut" | "cook" | "fry" | "fill" | "boil" => here(&a.obj)?,
                "put" => {
                    let to =
                        a.to.clone()
                            .ok_or_else(|| format!("{}: put without `to`", a.id))?;
                    if !task.stations.contains(&to) {
                        return Err(format!("{}: `to` \"{to}\" is not a station", a.id));
                    }
                    location.insert(a.obj.clone(), to.clone());
                    placed_by.insert(a.obj.clone(), i);
                    to
                }
                "place_any" => {
                    let st = format!("park:{}", a.obj);
                    location.insert(a.obj.clone(), st.clone());
                    placed_by.insert(a.obj.clone(), i);
                    st
                }
                "add" => {
                    let target =
                        a.to.as_deref()
                            .ok_or_else(|| format!("{}: no `to`", a.id))?;
                    // Wherever the pot has been put before this point in the list.
                    let spots: Vec<(usize, String)> = (0..i)
                        .filter(|&k| acts[k].kind == "put" && acts[k].obj == target)
                        .filter_map(|k| acts[k].to.clone().map(|to| (k, to)))
                        .collect();
                    if spots.is_empty() {
                        return Err(format!("{}: {target} is never put anywhere", a.id));
                    }
                    adds.push((i, spots));
                    here(target)?
                }
                "fill_bowl" => {
                    let target =
                        a.to.as_deref()
                            .ok_or_else(|| format!("{}: no `to`", a.id))?;
                    here(target)?
                }
                other => return Err(format!("{}: unknown kind \"{other}\"", a.id)),
            };
            station.push(st);
        }

        // Hand links, per object in list order.
        let mut hand = Vec::new();
        let mut holding: HashMap<&str, usize> = HashMap::new();
        for (i, a) in acts.iter().enumerate() {
            match a.kind.as_str() {
                "pick" => {
                    holding.insert(&a.obj, i);
                }
                "fill_bowl" => {
                    let h = holding
                        .get(a.obj.as_str())
                        .copied()
                        .ok_or_else(|| format!("{}: the robot does not hold {}", a.id, a.obj))?;
                    hand.push((h, i));
                    holding.insert(&a.obj, i);
                }
                "put" | "place_any" | "add" => {
                    let h = holding
                        .remove(a.obj.as_str())
                        .ok_or_else(|| format!("{}: the robot does not hold {}", a.id, a.obj))?;
                    hand.push((h, i));
                }
                _ => {}
            }
        }

        // The next pick of the same object after activity i.
        let next_pick = |i: usize| {
            (i + 1..acts.len()).find(|&k| acts[k].kind == "pick" && acts[k].obj == acts[i].obj)
        };
        let first_pick =
            |o: &str| (0..acts.len()).find(|&k| acts[k].kind == "pick" && acts[k].obj == o);

        // Appliances (and any station) that receive placed items hold one at a time.
        let mut resources = Vec::new();
        let mut holds = Vec::new();
        let place_targets: BTreeSet<&str> = acts
            .iter()
            .filter(|a| a.kind == "put" && a.mode.as_deref() != Some("stack"))
            .filter_map(|a| a.to.as_deref())
            .collect();
        for &st in &place_targets {
            let id = format!("station:{st}");
            resources.push(Resource {
                id: id.clone(),
                capacity: 1,
                states: vec![],
            });
            if let Some((o, _)) = initial.iter().find(|(_, s)| s == st) {
                holds.push((id.clone(), None, first_pick(o)));
            }
            for (i, a) in acts.iter().enumerate() {
                if a.kind == "put"
                    && a.to.as_deref() == Some(st)
                    && a.mode.as_deref() != Some("stack")
                {
                    holds.push((id.clone(), Some(i), next_pick(i)));
                }
            }
        }

        // Free tables for parking: tables nothing is put on whose objects all leave.
        let targets: BTreeSet<&str> = acts
            .iter()
            .filter(|a| a.kind == "put")
            .filter_map(|a| a.to.as_deref())
            .chain(
                acts.iter()
                    .filter(|a| a.kind == "fill_bowl")
                    .filter_map(|a| a.to.as_deref())
                    .filter_map(|b| {
                        initial
                            .iter()
                            .find(|(o, _)| o == b)
                            .map(|(_, s)| s.as_str())
                    }),
            )
            .collect();
        let parks: Vec<usize> = (0..acts.len())
            .filter(|&i| acts[i].kind == "place_any")
            .collect();
        if !parks.is_empty() {
            let mut spots = 0;
            for st in task.stations.iter().filter(|s| s.starts_with("table")) {
                if targets.contains(st.as_str()) {
                    continue;
                }
                let bottom = initial
                    .iter()
                    .find(|(_, s)| s == st)
                    .map(|(o, _)| o.as_str());
                match bottom {
                    None => spots += 1,
                    Some(o) => {
                        if let Some(p) = first_pick(o) {
                            spots += 1;
                            holds.push((PARKING.to_string(), None, Some(p)));
                        }
                    }
                }
            }
            if spots == 0 {
                return Err("a place_any activity but no table that can become free".into());
            }
            resources.push(Resource {
                id: PARKING.into(),
                capacity: spots,
                states: vec![],
            });
            for &i in &parks {
                holds.push((PARKING.to_string(), Some(i), next_pick(i)));
            }
        }
        let next_pick = (0..acts.len()).map(next_pick).collect();
        Ok(Built {
            station,
            adds,
            next_pick,
            hand,
            resources,
            holds,
        })
    }

    /// The instance; with `omit`, that optional activity is dropped and its hand chain
    /// comes last.
    fn instance(
        &self,
        path: &Path,
        task: &Task,
        raw: &serde_json::Value,
        name: String,
        choice: &[usize],
        omit: Option<usize>,
    ) -> Instance {
        let acts = &task.activities;
        let keep = |i: usize| Some(i) != omit;
        let id = |i: usize| acts[i].id.clone();
        let mut station = self.station.clone();
        let mut placed = Vec::new();
        for ((add, spots), &k) in self.adds.iter().zip(choice) {
            let (put, at) = &spots[k];
            station[*add] = at.clone();
            placed.push((*put, *add));
            if let Some(p) = self.next_pick[*put] {
                placed.push((*add, p));
            }
        }
        let station = &station;
        let move_time = |i: usize, j: usize| i64::from(station[i] != station[j]);
        let mut activities = Vec::new();
        for (i, a) in acts.iter().enumerate().filter(|(i, _)| keep(*i)) {
            let mut act = Activity::new(a.id.clone(), 1);
            act.station = Some(station[i].clone());
            if station[i] != task.robot_start {
                act.release = Some(1);
            }
            act.label = Some(a.kind.clone());
            activities.push(act);
        }
        let mut precedences = Vec::new();
        for (_, a) in acts.iter().enumerate().filter(|(i, _)| keep(*i)) {
            for p in &a.preds {
                precedences.push(Precedence::finish_to_start(p.clone(), a.id.clone(), 0));
            }
            if let Some((before, lag)) = &a.lag {
                precedences.push(Precedence {
                    before: before.clone(),
                    after: a.id.clone(),
                    relation: Relation::StartToStart,
                    min_lag: *lag,
                    max_lag: None,
                });
            }
        }
        for &(p, i) in &placed {
            precedences.push(Precedence::finish_to_start(id(p), id(i), 0));
        }
        for &(h, r) in self.hand.iter().filter(|(h, r)| keep(*h) && keep(*r)) {
            precedences.push(Precedence {
                max_lag: Some(move_time(h, r)),
                ..Precedence::finish_to_start(id(h), id(r), 0)
            });
        }
        if let Some(o) = omit {
            // The robot keeps what it holds: its hand chain into `o` is the last work.
            let mut chain = vec![];
            let mut cur = self.hand.iter().find(|(_, r)| *r == o).map(|(h, _)| *h);
            while let Some(c) = cur {
                chain.push(c);
                cur = self.hand.iter().find(|(_, r)| *r == c).map(|(h, _)| *h);
            }
            if let Some(&first) = chain.last() {
                for i in (0..acts.len()).filter(|&i| keep(i) && !chain.contains(&i)) {
                    precedences.push(Precedence::finish_to_start(id(i), id(first), 0));
                }
            }
        }
        let used: BTreeSet<&str> = activities
            .iter()
            .filter_map(|a| a.station.as_deref())
            .collect();
        let mut setups = Vec::new();
        for &from in &used {
            for &to in used.iter().filter(|&&to| to != from) {
                setups.push(Setup {
                    from: from.into(),
                    to: to.into(),
                    time: 1,
                });
            }
        }
        let holds = self
            .holds
            .iter()
            .filter(|(_, f, u)| f.is_none_or(keep) && u.is_none_or(keep))
            .map(|(r, f, u)| Hold {
                resource: r.clone(),
                amount: 1,
                from: f.map(id),
                until: u.map(id),
            })
            .collect();
        let mut notes = BTreeMap::new();
        notes.insert("task".into(), task.task.clone().into());
        notes.insert(
            "reference_optimal_steps_config".into(),
            task.reference_optimal_steps_config.into(),
        );
        notes.insert("robot_start".into(), task.robot_start.clone().into());
        if let Some(v) = &task.variant {
            notes.insert("variant".into(), v.clone().into());
        }
        notes.insert("goal".into(), task.goal_description.clone().into());
        let initial: Vec<serde_json::Value> = task
            .objects
            .iter()
            .map(|(o, v)| serde_json::json!([o, v.get("initial_station")]))
            .collect();
        notes.insert("initial_objects".into(), initial.into());
        notes.insert("task_graph".into(), raw.clone());
        Instance {
            time_unit: TimeUnit::Step,
            resources: self.resources.clone(),
            activities,
            precedences,
            setups,
            holds,
            source: Some(Source {
                benchmark: BENCHMARK.into(),
                file: Some(path.display().to_string()),
                notes,
            }),
            ..Instance::new(name, Some(1))
        }
    }
}
