//! The activities of a Robotouille world instance: a relaxation of the kitchen, never its
//! rules. The simulator (the instance's note `world`) is the rule book; the scheduling
//! engine's optimum on these activities is a lower bound on the number of steps of every
//! plan the simulator accepts, and nothing more.
//!
//! Why a bound holds: the simulator executes one action per step, so a plan is at least as
//! long as the actions the goal forces, and a delayed effect (cook, fry, filling a pot,
//! boiling) is there 4 steps after the action that starts it. The activities are those
//! forced actions, one step each on the one robot, with the delays as start-to-start lags
//! to a milestone (an activity of no duration and no robot):
//! - `cut` ×3 for each goal item to be cut, unless an item of its kind starts cut;
//! - `cook` (`fry`) and the milestone `cooked` (`fried`) 4 steps later, unless an item of its
//!   kind starts cooked (fried); a fry after the third cut when the goal item must be cut
//!   and fried and none of its kind starts fryable;
//! - for each water of a soup (unless the kitchen starts with meals): `fill`, then `boil`
//!   and `boiling` 4 and 8 steps later when it must boil, each `add` of an ingredient and
//!   the `fill_bowl` at least 4 steps after the fill;
//! - on a kitchen without stacks (every seeded one), a `stack` for each item the goal puts on
//!   another (an `atop` top, or an item wanted at a station besides the one directly on it),
//!   each after a `pick` of it, less one pick when the robot starts holding an item;
//! - a milestone `goal` after everything.
//!
//! Goal objects are named by the goal's ids as upstream grounds them: an id belongs to the
//! first kind (in the goal's order) that uses it, so a shared id (`cheese3` beside `lettuce3`
//! in the synchronous task 1) is one object, as upstream resolves it. Moves, picks for
//! processing, clearing stations and choosing among items and stations are left out: they
//! only add steps.

use std::collections::BTreeSet;

use serde_json::Value;

use makespan_model::instance::{Activity, AgentUse, Instance, Precedence, Relation, TimeUnit};

use super::checkout::WorldNote;

/// Steps from a delayed action to its effect.
const DELAY: i64 = 4;

/// One goal literal over numbered ids (literals that name objects by a non-numeric id are
/// left out).
struct Literal {
    predicate: String,
    args: Vec<(String, String)>,
}

/// The relaxation of a world (see the module docs), as an instance called `name`.
pub fn relaxation(name: String, note: &WorldNote) -> Instance {
    let literals: Vec<Literal> = note
        .goal
        .iter()
        .filter_map(|l| {
            let predicate = l.get("predicate")?.as_str()?.to_string();
            let kinds = l.get("args")?.as_array()?;
            let ids = l.get("ids")?.as_array()?;
            let args = kinds
                .iter()
                .zip(ids)
                .map(|(k, id)| {
                    let id = match id {
                        Value::Number(n) => n.to_string(),
                        Value::String(s) => s.clone(),
                        _ => return None,
                    };
                    id.chars()
                        .all(|c| c.is_ascii_digit())
                        .then(|| (k.as_str().unwrap_or_default().to_string(), id))
                })
                .collect::<Option<Vec<_>>>()?;
            Some(Literal { predicate, args })
        })
        .collect();
    // Upstream's grounding: kinds in order of first use, an id belongs to the first kind
    // that uses it.
    let mut kinds: Vec<(String, BTreeSet<String>)> = Vec::new();
    for (kind, id) in literals.iter().flat_map(|l| &l.args) {
        match kinds.iter_mut().find(|(k, _)| k == kind) {
            Some((_, ids)) => {
                ids.insert(id.clone());
            }
            None => kinds.push((kind.clone(), BTreeSet::from([id.clone()]))),
        }
    }
    let object = |id: &str| {
        let kind = kinds
            .iter()
            .find(|(_, ids)| ids.contains(id))
            .map_or("", |(k, _)| k.as_str());
        (kind.to_string(), format!("{kind}#{id}"))
    };
    let environment = &note.environment;
    let list = |field: &str| {
        environment
            .get(field)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let items = list("items");
    let starts = |kind: &str, predicate: &str| {
        items.iter().any(|i| {
            i.get("name").and_then(Value::as_str) == Some(kind)
                && i.get("predicates")
                    .and_then(Value::as_array)
                    .is_some_and(|p| p.iter().any(|v| v.as_str() == Some(predicate)))
        })
    };
    let place = |o: &Value| {
        (
            o.get("x").and_then(Value::as_i64),
            o.get("y").and_then(Value::as_i64),
        )
    };
    let places: Vec<_> = items.iter().map(place).collect();
    let stacked = places
        .iter()
        .enumerate()
        .any(|(k, p)| places[..k].contains(p));
    let holding = list("players").iter().any(|p| places.contains(&place(p)));
    let no_meals = list("meals").is_empty();
    let wants = |predicate: &str, position: usize| -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for l in literals.iter().filter(|l| l.predicate == predicate) {
            if let Some((_, id)) = l.args.get(position) {
                if !out.contains(id) {
                    out.push(id.clone());
                }
            }
        }
        out
    };

    let mut b = Builder::default();
    for id in wants("iscut", 0) {
        let (kind, obj) = object(&id);
        if !starts(&kind, "iscut") {
            for k in 1..=3 {
                b.step(format!("cut:{obj}:{k}"));
                if k > 1 {
                    b.after(format!("cut:{obj}:{}", k - 1), format!("cut:{obj}:{k}"));
                }
            }
        }
    }
    for (predicate, action, effect, done) in [
        ("iscooked", "cook", "cooked", "iscooked"),
        ("isfried", "fry", "fried", "isfried"),
    ] {
        for id in wants(predicate, 0) {
            let (kind, obj) = object(&id);
            if starts(&kind, done) {
                continue;
            }
            let act = format!("{action}:{obj}");
            b.step(act.clone());
            b.milestone(format!("{effect}:{obj}"));
            b.delayed(&act, format!("{effect}:{obj}"));
            let cut = format!("cut:{obj}:3");
            if action == "fry" && b.has(&cut) && !starts(&kind, "isfryable") {
                b.after(cut, act);
            }
        }
    }
    if no_meals {
        let mut waters: Vec<String> = wants("isboiling", 0);
        for w in wants("addedto", 1).into_iter().chain(wants("in", 0)) {
            if !waters.contains(&w) {
                waters.push(w);
            }
        }
        for w in waters {
            let (_, water) = object(&w);
            let fill = format!("fill:{water}");
            b.step(fill.clone());
            if wants("isboiling", 0).contains(&w) {
                let boil = format!("boil:{water}");
                b.step(boil.clone());
                b.delayed(&fill, boil.clone());
                b.milestone(format!("boiling:{water}"));
                b.delayed(&boil, format!("boiling:{water}"));
            }
            for l in literals
                .iter()
                .filter(|l| l.predicate == "addedto" && l.args.get(1).is_some_and(|a| a.1 == w))
            {
                let (_, item) = object(&l.args[0].1);
                let add = format!("add:{item}");
                if !b.has(&add) {
                    b.step(add.clone());
                    b.delayed(&fill, add);
                }
            }
            if wants("in", 0).contains(&w) {
                b.step(format!("fill_bowl:{water}"));
                b.delayed(&fill, format!("fill_bowl:{water}"));
            }
        }
    }
    if !stacked {
        // Items the goal puts on another item: the tops of `atop`, and every item the goal
        // wants at a station beside the one directly on it (`item_on`, else any one of them).
        let mut tops = wants("atop", 0);
        let mut at_station: Vec<(String, Vec<String>)> = Vec::new();
        for l in literals.iter().filter(|l| l.predicate == "item_at") {
            if let [(_, item), (_, station)] = l.args.as_slice() {
                match at_station.iter_mut().find(|(s, _)| s == station) {
                    Some((_, items)) if !items.contains(item) => items.push(item.clone()),
                    Some(_) => {}
                    None => at_station.push((station.clone(), vec![item.clone()])),
                }
            }
        }
        for (station, items) in &at_station {
            let base = literals.iter().find_map(|l| match l.args.as_slice() {
                [(_, item), (_, s)] if l.predicate == "item_on" && s == station => Some(item),
                _ => None,
            });
            let base = base.unwrap_or(&items[0]);
            for item in items.iter().filter(|i| *i != base) {
                if !tops.contains(item) {
                    tops.push(item.clone());
                }
            }
        }
        for (k, id) in tops.into_iter().enumerate() {
            let (_, obj) = object(&id);
            let stack = format!("stack:{obj}");
            b.step(stack.clone());
            if k > 0 || !holding {
                b.step(format!("pick:{obj}"));
                b.after(format!("pick:{obj}"), stack);
            }
        }
    }
    let before: Vec<String> = b.activities.iter().map(|a| a.id.clone()).collect();
    b.milestone("goal".into());
    for id in before {
        b.after(id, "goal".into());
    }
    Instance {
        time_unit: TimeUnit::Step,
        activities: b.activities,
        precedences: b.precedences,
        ..Instance::new(name, Some(1))
    }
}

/// Activities and precedences as they are added.
#[derive(Default)]
struct Builder {
    activities: Vec<Activity>,
    precedences: Vec<Precedence>,
}

impl Builder {
    fn has(&self, id: &str) -> bool {
        self.activities.iter().any(|a| a.id == id)
    }

    /// One action: a step of the robot.
    fn step(&mut self, id: String) {
        self.activities.push(Activity::new(id, 1));
    }

    /// An effect or the goal: no duration, no robot.
    fn milestone(&mut self, id: String) {
        self.activities.push(Activity {
            agent: AgentUse::None,
            ..Activity::new(id, 0)
        });
    }

    fn after(&mut self, before: String, after: String) {
        self.precedences
            .push(Precedence::finish_to_start(before, after, 0));
    }

    /// `after` no sooner than the delayed effect of `action`.
    fn delayed(&mut self, action: &str, after: String) {
        self.precedences.push(Precedence {
            relation: Relation::StartToStart,
            min_lag: DELAY,
            ..Precedence::finish_to_start(action, after, 0)
        });
    }
}
