//! A replica of TimeArena's greedy "oracle" (`algorithm/cal_oracle.py`), the
//! baseline the benchmark reports as optimal. It works on the oracle's own model (the
//! `oracle_graph` the importer stores in `source.notes`: `dependencygraph.json`'s entries,
//! no objects, no pools), so its schedules can break rules of the real instance; the
//! verifier says which.
//!
//! The algorithm, for each permutation of the autonomous (`*`) actions, sorted by duration
//! descending and enumerated in `itertools.permutations` order:
//! 1. groups: for each autonomous action in permutation order, its prerequisites not yet
//!    listed in reversed breadth-first order (deepest first, the action last, all marked
//!    listed); then for every action not yet listed, in dictionary order, the same (marking
//!    only the action itself);
//! 2. non-delay list scheduling from minute 0: start the first unscheduled action (scanning
//!    the groups in order) whose prerequisites have all ended; a `*` action costs the agent
//!    one minute, any other its duration; if nothing can start, one minute passes;
//! 3. value = latest end; the first permutation with the least value wins.
//!
//! The original starts the minimum at 100 (a value of 100 or more would be reported as 100
//! with no schedule); this replica keeps the true minimum, which is the same on all data.

use std::collections::{BTreeMap, HashSet, VecDeque};

use serde::Deserialize;
use serde_json::{Map, Value};

use makespan_model::instance::Instance;
use makespan_model::schedule::ScheduledActivity;

/// The oracle's schedule of an instance, mapped onto the instance's activities.
#[derive(Debug, Clone, PartialEq)]
pub struct GreedyOutcome {
    /// What the oracle reports: its latest end.
    pub value: i64,
    /// Its schedule, for the graph actions that have a counterpart in the instance.
    pub schedule: Vec<ScheduledActivity>,
    /// Graph actions with no counterpart in the instance (the graph names an action the
    /// environment does not have).
    pub unmapped: Vec<String>,
}

/// One task's entry of `oracle_graph`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OracleTask {
    task: String,
    durations: Map<String, Value>,
    dependencies: BTreeMap<String, Vec<String>>,
    activities: BTreeMap<String, String>,
}

/// An action of the merged oracle model.
struct GraphAction {
    duration: i64,
    autonomous: bool,
    prerequisites: Vec<usize>,
}

/// Runs the oracle on an instance imported with `dependencygraph.json` beside `tasks.json`.
pub fn run(instance: &Instance) -> Result<GreedyOutcome, crate::BadValue> {
    let raw = instance
        .source
        .as_ref()
        .and_then(|s| s.notes.get("oracle_graph"))
        .ok_or_else(|| {
            format!(
                "{}: no oracle graph in source.notes; import TimeArena's tasks.json with its \
                 dependencygraph.json in the same folder",
                instance.name
            )
        })?;
    let tasks: Vec<OracleTask> = serde_json::from_value(raw.clone())
        .map_err(|e| format!("{}: source.notes.oracle_graph: {e}", instance.name))?;
    let mut names: Vec<(usize, String)> = Vec::new();
    let mut index: BTreeMap<(usize, &str), usize> = BTreeMap::new();
    for (k, task) in tasks.iter().enumerate() {
        for name in task.durations.keys() {
            index.insert((k, name.as_str()), names.len());
            names.push((k, name.clone()));
        }
    }
    let mut actions = Vec::new();
    for (k, name) in &names {
        let task = &tasks[*k];
        let duration = task.durations[name]
            .as_i64()
            .filter(|&d| d >= 1)
            .ok_or_else(|| format!("{}: oracle duration of \"{name}\" is not ≥ 1", task.task))?;
        let prerequisites = task
            .dependencies
            .get(name)
            .into_iter()
            .flatten()
            .map(|p| {
                index.get(&(*k, p.as_str())).copied().ok_or_else(|| {
                    format!(
                        "{}: oracle prerequisite \"{p}\" of \"{name}\" has no duration",
                        task.task
                    )
                })
            })
            .collect::<Result<_, _>>()?;
        actions.push(GraphAction {
            duration,
            autonomous: name.contains('*'),
            prerequisites,
        });
    }
    let (value, starts) = oracle(&actions).ok_or_else(|| {
        format!(
            "{}: the oracle's graph has a prerequisite cycle",
            instance.name
        )
    })?;
    let mut schedule = Vec::new();
    let mut unmapped = Vec::new();
    for ((k, name), (start, action)) in names.iter().zip(starts.iter().zip(&actions)) {
        match tasks[*k].activities.get(name) {
            Some(id) => schedule.push(ScheduledActivity::at(
                id.clone(),
                Some(0),
                *start,
                action.duration,
            )),
            None => unmapped.push(format!("{} (task {})", name, tasks[*k].task)),
        }
    }
    Ok(GreedyOutcome {
        value,
        schedule,
        unmapped,
    })
}

/// The oracle's value and start times; `None` if the prerequisites form a cycle.
fn oracle(actions: &[GraphAction]) -> Option<(i64, Vec<i64>)> {
    let mut autonomous: Vec<usize> = (0..actions.len())
        .filter(|&a| actions[a].autonomous)
        .collect();
    // A stable sort, longest first, as Python's `sorted(..., reverse=True)`.
    autonomous.sort_by_key(|&a| std::cmp::Reverse(actions[a].duration));
    // An action's ancestry does not depend on the permutation: computed once.
    let ancestries: Vec<Vec<usize>> = (0..actions.len()).map(|a| ancestry(actions, a)).collect();
    let mut order: Vec<usize> = (0..autonomous.len()).collect();
    let mut best: Option<(i64, Vec<i64>)> = None;
    loop {
        let permutation: Vec<usize> = order.iter().map(|&i| autonomous[i]).collect();
        let starts = list_schedule(actions, &groups(&ancestries, &permutation))?;
        let value = (0..actions.len())
            .map(|a| starts[a] + actions[a].duration)
            .max()
            .unwrap_or(0);
        if best.as_ref().is_none_or(|(v, _)| value < *v) {
            best = Some((value, starts));
        }
        if !next_permutation(&mut order) {
            return best;
        }
    }
}

/// Step 1: the scan order, as groups of actions, from each action's [`ancestry`].
fn groups(ancestries: &[Vec<usize>], permutation: &[usize]) -> Vec<Vec<usize>> {
    let mut listed = HashSet::new();
    let mut groups = Vec::new();
    for &a in permutation {
        let group: Vec<usize> = ancestries[a]
            .iter()
            .copied()
            .filter(|&p| listed.insert(p))
            .collect();
        groups.push(group);
    }
    for (a, ancestry) in ancestries.iter().enumerate() {
        if !listed.contains(&a) {
            let group = ancestry
                .iter()
                .copied()
                .filter(|p| !listed.contains(p))
                .collect();
            groups.push(group);
            listed.insert(a);
        }
    }
    groups
}

/// The action and its transitive prerequisites in reversed breadth-first order.
fn ancestry(actions: &[GraphAction], action: usize) -> Vec<usize> {
    let mut visited = HashSet::new();
    let mut queue = VecDeque::from([action]);
    let mut order = Vec::new();
    while let Some(current) = queue.pop_front() {
        if !visited.insert(current) {
            continue;
        }
        queue.extend(
            actions[current]
                .prerequisites
                .iter()
                .filter(|p| !visited.contains(*p)),
        );
        order.push(current);
    }
    order.reverse();
    order
}

/// Step 2: non-delay list scheduling; `None` if some action can never start.
fn list_schedule(actions: &[GraphAction], groups: &[Vec<usize>]) -> Option<Vec<i64>> {
    let mut start: Vec<Option<i64>> = vec![None; actions.len()];
    let horizon: i64 = actions.iter().map(|a| a.duration).sum::<i64>() + 1;
    let mut remaining = actions.len();
    let mut now = 0;
    while remaining > 0 {
        let ready = groups.iter().flatten().copied().find(|&a| {
            start[a].is_none()
                && actions[a]
                    .prerequisites
                    .iter()
                    .all(|&p| start[p].is_some_and(|s| s + actions[p].duration <= now))
        });
        match ready {
            Some(a) => {
                start[a] = Some(now);
                remaining -= 1;
                now += if actions[a].autonomous {
                    1
                } else {
                    actions[a].duration
                };
            }
            None if now > horizon => return None,
            None => now += 1,
        }
    }
    start.into_iter().collect()
}

/// Advances `order` to the next permutation in lexicographic order; false after the last.
fn next_permutation(order: &mut [usize]) -> bool {
    let Some(i) = (1..order.len()).rev().find(|&i| order[i - 1] < order[i]) else {
        return false;
    };
    let j = (i..order.len())
        .rev()
        .find(|&j| order[j] > order[i - 1])
        .unwrap_or(i);
    order.swap(i - 1, j);
    order[i..].reverse();
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn action(duration: i64, autonomous: bool, prerequisites: &[usize]) -> GraphAction {
        GraphAction {
            duration,
            autonomous,
            prerequisites: prerequisites.to_vec(),
        }
    }

    #[test]
    fn permutations_come_in_lexicographic_order() {
        let mut order = vec![0, 1, 2];
        let mut seen = vec![order.clone()];
        while next_permutation(&mut order) {
            seen.push(order.clone());
        }
        assert_eq!(seen.len(), 6);
        assert_eq!(seen[1], vec![0, 2, 1]);
        assert_eq!(seen[5], vec![2, 1, 0]);
    }

    #[test]
    fn autonomous_actions_free_the_agent_after_one_minute() {
        // pick (2) → cook* (4); wash (3) runs while cook runs: value 2 + 4 = 6.
        let actions = [
            action(2, false, &[]),
            action(4, true, &[0]),
            action(3, false, &[]),
        ];
        let (value, starts) = oracle(&actions).unwrap();
        assert_eq!(starts, vec![0, 2, 3]);
        assert_eq!(value, 6);
    }

    #[test]
    fn ancestry_lists_the_deepest_first() {
        let actions = [
            action(1, false, &[]),
            action(1, false, &[0]),
            action(1, true, &[1]),
        ];
        assert_eq!(ancestry(&actions, 2), vec![0, 1, 2]);
    }

    #[test]
    fn a_cycle_is_reported_not_looped_on() {
        let actions = [action(1, false, &[1]), action(1, false, &[0])];
        assert!(oracle(&actions).is_none());
    }
}
