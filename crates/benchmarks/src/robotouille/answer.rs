//! A schedule of a Robotouille instance as the simulator's action strings, one per
//! step: each activity becomes its action, an idle step before an activity at another
//! station becomes the `Move`, and any other idle step is `Do nothing`. The plan has exactly
//! `makespan` lines.
//!
//! The strings need what the instance model leaves out (which object an activity handles,
//! what lies under it, which table a parked object goes to), so the export replays the
//! schedule on the task graph the instance carries ([`super::task_graph`]). A parked object
//! goes to an empty table that no later `put` targets (the importer's pool of free tables).

use std::collections::{HashMap, HashSet};

use makespan_model::instance::Instance;
use makespan_model::schedule::ScheduledActivity;

use super::{task_graph, TaskActivity};

/// The robot of every single-robot task.
const ROBOT: &str = "robot1";

/// Where things are while the schedule is replayed.
struct World {
    robot: String,
    /// Station → objects on it, bottom to top.
    stacks: HashMap<String, Vec<String>>,
}

impl World {
    fn station_of(&self, object: &str) -> Option<&str> {
        self.stacks
            .iter()
            .find(|(_, stack)| stack.iter().any(|o| o == object))
            .map(|(s, _)| s.as_str())
    }

    fn remove(&mut self, object: &str) {
        for stack in self.stacks.values_mut() {
            stack.retain(|o| o != object);
        }
    }
}

/// The action strings of `schedule`, one per line, or `None` when the instance carries no
/// task graph or the schedule does not replay (it was not verified, or not for this
/// instance): a wrong answer is worse than none.
pub fn answer_actions(instance: &Instance, schedule: &[ScheduledActivity]) -> Option<String> {
    let graph = task_graph(instance).ok()?;
    let by_id: HashMap<&str, &TaskActivity> = graph
        .activities
        .iter()
        .map(|a| (a.id.as_str(), a))
        .collect();
    let mut world = World {
        robot: graph.robot_start.clone(),
        stacks: HashMap::new(),
    };
    for (name, info) in graph.object_list().ok()? {
        world
            .stacks
            .entry(info.initial_station)
            .or_default()
            .push(name);
    }
    let mut starts: Vec<(i64, &TaskActivity)> = schedule
        .iter()
        .map(|s| Some((s.pieces.first()?.0, *by_id.get(s.activity.as_str())?)))
        .collect::<Option<_>>()?;
    starts.sort_by_key(|(start, _)| *start);
    let makespan = schedule
        .iter()
        .filter_map(|s| s.pieces.last().map(|p| p.1))
        .max()?;
    let mut lines = Vec::new();
    let mut next = 0;
    let mut parked_at: HashMap<&str, String> = HashMap::new();
    for t in 0..makespan {
        let (start, activity) = *starts.get(next)?;
        if start < t {
            return None; // two activities in one step
        }
        let at = match parked_at.get(activity.id.as_str()) {
            Some(table) => table.clone(),
            None => {
                let later: HashSet<&str> = starts[next..]
                    .iter()
                    .filter(|(_, a)| a.kind == "put")
                    .filter_map(|(_, a)| a.to.as_deref())
                    .collect();
                let at = station(&world, activity, &graph.stations, &later)?;
                if activity.kind == "place_any" {
                    parked_at.insert(&activity.id, at.clone());
                }
                at
            }
        };
        if start > t {
            lines.push(if at == world.robot {
                "Do nothing".to_string()
            } else {
                let from = std::mem::replace(&mut world.robot, at.clone());
                format!("Move {ROBOT} from {from} to {at}")
            });
            continue;
        }
        if at != world.robot {
            return None; // no step left for the move
        }
        lines.push(act(&mut world, activity, &at)?);
        next += 1;
    }
    (next == starts.len()).then(|| lines.join("\n") + "\n")
}

/// The station where `activity` happens in the current world.
fn station(
    world: &World,
    activity: &TaskActivity,
    stations: &[String],
    later_targets: &HashSet<&str>,
) -> Option<String> {
    let at = match activity.kind.as_str() {
        "put" => activity.to.as_deref()?,
        "add" | "fill_bowl" => world.station_of(activity.to.as_deref()?)?,
        "place_any" => {
            let empty = |s: &&String| world.stacks.get(s.as_str()).is_none_or(Vec::is_empty);
            let table = |s: &&String| activity.to.is_none() || s.starts_with("table");
            // The robot's own station when it is free, else the first free one.
            let free: Vec<&String> = stations
                .iter()
                .filter(empty)
                .filter(table)
                .filter(|s| !later_targets.contains(s.as_str()))
                .collect();
            let pick = free
                .iter()
                .find(|s| **s == &world.robot)
                .or_else(|| free.iter().find(|s| s.starts_with("table")))
                .or_else(|| free.first())?;
            pick.as_str()
        }
        _ => world.station_of(&activity.obj)?,
    };
    Some(at.to_string())
}

/// The action string of `activity` at station `at`, and its effect on the world.
fn act(world: &mut World, activity: &TaskActivity, at: &str) -> Option<String> {
    let x = activity.obj.as_str();
    let text = match activity.kind.as_str() {
        "pick" => {
            let stack = world.stacks.get(at)?;
            let k = stack.iter().position(|o| o == x)?;
            let text = match k {
                0 => format!("Pick up {x} from {at} using {ROBOT}"),
                _ => format!("Unstack {x} from {} using {ROBOT}", stack[k - 1]),
            };
            world.remove(x);
            text
        }
        "put" | "place_any" => {
            let stack = world.stacks.entry(at.to_string()).or_default();
            let text = match stack.last() {
                Some(top) if activity.mode.as_deref() == Some("stack") => {
                    format!("Stack {x} on top of {top} using {ROBOT}")
                }
                _ => format!("Place {x} on {at} using {ROBOT}"),
            };
            stack.push(x.to_string());
            text
        }
        "cut" => format!("Cut {x} on {at} using {ROBOT}"),
        "cook" => format!("Cook {x} on {at} using {ROBOT}"),
        "fry" => format!("Fry {x} on {at} using {ROBOT}"),
        "fill" => format!("Fill {x} with water from {at} using {ROBOT}"),
        "boil" => format!("Boil {x}'s contents on {at} using {ROBOT}"),
        "add" => format!("Add {x} into {} using {ROBOT}", activity.to.as_deref()?),
        "fill_bowl" => format!(
            "Fill {} with {x}'s contents using {ROBOT}",
            activity.to.as_deref()?
        ),
        _ => return None,
    };
    Some(text)
}
