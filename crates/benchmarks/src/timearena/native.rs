//! TimeArena's own plan form: the decisions of the agent, one per free minute,
//! as `{"time": t, "action": "..."}` records (the keys of the environment's trajectory
//! records). Idle free minutes are `wait`, up to the last minute of the run, so feeding the
//! actions to the environment in order replays the schedule exactly. Pooled actions name
//! a concrete free instance (`fry beef in fryer_2`), assigned by interval colouring.
//!
//! A run the original environment cannot complete whatever the answer (its container
//! restriction) says so in its first record's `warning`: the environment reads only `time` and
//! `action`, and whoever replays the answer learns why it never finishes there.

use std::collections::BTreeMap;

use serde_json::json;

use makespan_model::instance::{AgentUse, Instance};
use makespan_model::schedule::ScheduledActivity;

/// Pool kind → the names of its instances in the run: the bare kind for a single
/// instance, else `kind_1 … kind_n` (the environment's renaming rule).
pub fn pool_instances(instance: &Instance) -> BTreeMap<String, Vec<String>> {
    let pools = instance
        .source
        .as_ref()
        .and_then(|s| s.notes.get("pools"))
        .and_then(|p| p.as_object());
    let mut names = BTreeMap::new();
    for (kind, capacity) in pools.into_iter().flatten() {
        let n = capacity.as_u64().unwrap_or(1);
        let list = if n <= 1 {
            vec![kind.clone()]
        } else {
            (1..=n).map(|i| format!("{kind}_{i}")).collect()
        };
        names.insert(kind.clone(), list);
    }
    names
}

/// Each scheduled action in start order: its start, how long it occupies the agent, and its
/// text in the run, a pooled container named by the concrete instance it gets (interval
/// colouring: the first instance free at its start).
fn action_texts(
    instance: &Instance,
    schedule: &[ScheduledActivity],
) -> Vec<(i64, i64, String, String)> {
    let pools = pool_instances(instance);
    let mut starts: Vec<(i64, &ScheduledActivity)> = schedule
        .iter()
        .filter_map(|s| Some((s.pieces.first()?.start(), s)))
        .collect();
    starts.sort_by_key(|(start, s)| (*start, s.activity.clone()));
    let mut free_at: BTreeMap<&str, Vec<i64>> = pools
        .iter()
        .map(|(kind, names)| (kind.as_str(), vec![0; names.len()]))
        .collect();
    let mut texts = Vec::new();
    for &(start, scheduled) in &starts {
        let activity = instance
            .activities
            .iter()
            .find(|a| a.id == scheduled.activity);
        let label = activity
            .and_then(|a| a.label.clone())
            .unwrap_or_else(|| scheduled.activity.clone());
        let end = scheduled.pieces.last().map_or(start, |p| p.end());
        let mut text = label.clone();
        for (kind, names) in &pools {
            let slot = format!("{{{kind}}}");
            if label.contains(&slot) {
                let instances = free_at
                    .get_mut(kind.as_str())
                    .expect("every pool has a slot list");
                let k = instances.iter().position(|&f| f <= start).unwrap_or(0);
                instances[k] = end;
                text = text.replace(&slot, &names[k]);
            }
        }
        let busy = activity.map_or(end - start, |a| match a.agent {
            AgentUse::BusyFor(k) => k.min(end - start),
            _ => end - start,
        });
        texts.push((start, busy.max(1), scheduled.activity.clone(), text));
    }
    texts
}

/// Each scheduled activity's text as the decision list of the schedule writes it (a pooled
/// container named by the concrete instance it gets), by activity id: what a picture of the
/// schedule should label its bars with (`fry beef in fryer_2`, not `fry beef in {fryer}`).
pub fn concrete_labels(
    instance: &Instance,
    schedule: &[ScheduledActivity],
) -> BTreeMap<String, String> {
    action_texts(instance, schedule)
        .into_iter()
        .map(|(_, _, id, text)| (id, text))
        .collect()
}

/// The decision list of a schedule of a TimeArena instance, as pretty JSON.
pub fn decisions(instance: &Instance, schedule: &[ScheduledActivity]) -> String {
    let text_of: Vec<(i64, i64, String)> = action_texts(instance, schedule)
        .into_iter()
        .map(|(start, busy, _, text)| (start, busy, text))
        .collect();
    let makespan = schedule
        .iter()
        .filter_map(|s| s.pieces.last().map(|p| p.end()))
        .max()
        .unwrap_or(0);
    let mut records: Vec<serde_json::Value> = Vec::new();
    let mut next = text_of.iter().peekable();
    let mut minute = 0;
    while minute < makespan {
        match next.next_if(|(start, _, _)| *start <= minute) {
            Some((_, busy, text)) => {
                records.push(json!({"time": minute, "action": text}));
                minute += busy;
            }
            None => {
                records.push(json!({"time": minute, "action": "wait"}));
                minute += 1;
            }
        }
    }
    if let (Some(first), Some(why)) = (records.first_mut(), super::harness::unfinishable(instance))
    {
        first["warning"] = json!(why);
    }
    serde_json::to_string_pretty(&records).expect("records always serialise") + "\n"
}
