//! Recipe2Plan (`cooking.json`, `plan.json`) and its `Step(step, recipe, duration, start)`
//! answer form.
//!
//! `cooking.json` is a list of 65 instances, each a list of two recipes `{recipe, steps}`.
//! Every instance is imported once per level: `easy` (no time windows) and `medium` (with
//! them); the `level` option ([`levels`]) picks which. The translation:
//! - times in seconds (`"N min"`, `"N sec"`, `"N hour"`); one agent, the cook;
//! - a continuous step (`parallel` 0) keeps the cook busy (agent use `whole`); an autonomous
//!   one (`parallel` 1) needs the cook at its start instant only (`start`), so it cannot
//!   start strictly inside a non-interruptible continuous step;
//! - `interrupt` 1 → `preemptible` (the solver splits it on the gcd grid of the instance);
//! - `prequisites` → finish-to-start precedences; a medium window `{"k": "X min"}` on step
//!   `j` → a precedence `k → j` with `max_lag` X (it binds every piece of `j`);
//! - each appliance (`oven`, `stove`, `microwave`) → a unary resource held for the whole
//!   step; an oven `update {"temperature": T}` sets `oven.temperature` at the step's start,
//!   `require {"temperature": T}` requires it there. The environment's exemption for two
//!   identical oven intervals at one temperature (shared preheating) is not modelled: no
//!   instance has two oven-using recipes, and within one recipe it cannot apply.
//!
//! Instances are named `recipe2plan-<recipe1>_<recipe2>-<level>`; activities
//! `<recipe>:<step>` ([`activity_id`]); `source.notes` holds `key` and `level`.

mod benchmark;
mod harness;
pub mod original;
pub mod steps;

pub use benchmark::Recipe2Plan;
pub use harness::Recipe2PlanHarness;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use serde::Deserialize;
use serde_json::{Map, Value};

use super::{ImportOptions, Knob};
use makespan_model::instance::{
    Activity, AgentUse, Instance, LoadError, Precedence, Resource, ResourceUse, Source, TimeUnit,
};
use makespan_model::schedule::{Piece, ScheduledActivity};

/// `source.benchmark` of every Recipe2Plan instance.
pub const BENCHMARK: &str = "recipe2plan";

/// The benchmark's two levels: without and with time windows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Recipes without time windows.
    Easy,
    /// Recipes with time windows.
    Medium,
}

impl Level {
    /// Both levels, in the benchmark's order.
    pub const ALL: [Level; 2] = [Level::Easy, Level::Medium];

    /// The level's lowercase name, `easy` or `medium`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
        }
    }

    /// `easy` or `medium` (case-insensitive).
    pub fn parse(text: &str) -> Result<Level, crate::BadValue> {
        match text.trim().to_ascii_lowercase().as_str() {
            "easy" => Ok(Level::Easy),
            "medium" => Ok(Level::Medium),
            other => Err(crate::BadValue(format!(
                "\"{other}\" is not a Recipe2Plan level; use easy or medium"
            ))),
        }
    }

    /// The key of this level's plan in `plan.json`.
    fn plan_key(self) -> &'static str {
        match self {
            Level::Easy => "plan_wo_restriction",
            Level::Medium => "plan_w_restriction",
        }
    }
}

/// The id of a recipe step's activity: `<recipe>:<step>`.
pub fn activity_id(recipe: &str, step: usize) -> String {
    format!("{recipe}:{step}")
}

/// The instance name of an instance key (`Cobbler_Pancakes`) at a level.
pub fn instance_name(key: &str, level: Level) -> String {
    format!("{BENCHMARK}-{key}-{}", level.name())
}

/// The `(key, level)` of a Recipe2Plan instance, from its notes.
pub fn key_and_level(instance: &Instance) -> Option<(String, Level)> {
    let source = instance
        .source
        .as_ref()
        .filter(|s| s.benchmark == BENCHMARK)?;
    let key = source.notes.get("key")?.as_str()?.to_string();
    let level = Level::parse(source.notes.get("level")?.as_str()?).ok()?;
    Some((key, level))
}

/// One recipe as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Recipe {
    recipe: String,
    steps: Vec<Step>,
}

/// One step as written (the field names are the benchmark's, typo included).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Step {
    step: usize,
    #[serde(default)]
    text: String,
    time: String,
    parallel: u8,
    interrupt: u8,
    prequisites: Vec<usize>,
    time_constraint: BTreeMap<String, String>,
    physical: BTreeMap<String, Appliance>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Appliance {
    #[serde(default)]
    require: Map<String, Value>,
    #[serde(default)]
    update: Map<String, Value>,
}

/// Recipe2Plan's own import option: which levels to build.
pub(crate) const KNOBS: &[Knob] = &[Knob {
    name: "level",
    help: "Recipe2Plan levels, e.g. easy,medium (default: both)",
    value: Some("LEVEL"),
    check: |v| Level::parse(v).map(|_| ()).map_err(String::from),
}];

/// The levels among `opts` (checked when they were set); empty when none were chosen.
pub fn levels(opts: &ImportOptions) -> Vec<Level> {
    let mut chosen = Vec::new();
    for level in opts
        .values("level")
        .iter()
        .filter_map(|v| Level::parse(v).ok())
    {
        if !chosen.contains(&level) {
            chosen.push(level);
        }
    }
    chosen
}

/// Reads `cooking.json`: one instance per recipe pair and requested level (default both).
pub fn import(path: &Path, text: &str, opts: &ImportOptions) -> Result<Vec<Instance>, LoadError> {
    let pairs: Vec<Vec<Recipe>> =
        serde_json::from_str(text).map_err(|e| LoadError::json_in(path, text, &e))?;
    let levels = match levels(opts) {
        chosen if chosen.is_empty() => Level::ALL.to_vec(),
        chosen => chosen,
    };
    let mut instances = Vec::new();
    for (i, recipes) in pairs.iter().enumerate() {
        let at = format!("instance {}", i + 1);
        if recipes.is_empty() {
            return Err(LoadError::format(
                path,
                at,
                "the instance lists no recipes; give it at least one {\"recipe\", \"steps\"}",
            ));
        }
        let key = recipes
            .iter()
            .map(|r| r.recipe.as_str())
            .collect::<Vec<_>>()
            .join("_");
        for &level in &levels {
            instances.push(translate(path, &at, &key, recipes, level)?);
        }
    }
    Ok(instances)
}

fn translate(
    path: &Path,
    at: &str,
    key: &str,
    recipes: &[Recipe],
    level: Level,
) -> Result<Instance, LoadError> {
    let mut activities = Vec::new();
    let mut precedences = Vec::new();
    let mut appliances: Vec<Resource> = Vec::new();
    let mut seen_recipes = HashSet::new();
    for recipe in recipes {
        let r = &recipe.recipe;
        let place = |s: usize| format!("{at}, recipe {r}, step {s}");
        if !seen_recipes.insert(r.as_str()) {
            return Err(LoadError::format(
                path,
                format!("{at}, recipe {r}"),
                "the recipe appears twice in one instance; list each recipe once",
            ));
        }
        for (index, step) in recipe.steps.iter().enumerate() {
            if step.step != index {
                return Err(LoadError::format(
                    path,
                    place(index),
                    format!(
                        "the step id is {} but the step is number {index} in the list; step ids must equal their position",
                        step.step
                    ),
                ));
            }
            let duration = seconds(&step.time)
                .map_err(|m| LoadError::format(path, format!("{}.time", place(index)), m))?;
            let autonomous = flag(path, &place(index), "parallel", step.parallel)?;
            let preemptible = flag(path, &place(index), "interrupt", step.interrupt)?;
            if autonomous && preemptible {
                return Err(LoadError::format(
                    path,
                    place(index),
                    "an autonomous step (parallel 1) that is also interruptible is not supported; the benchmark data has none",
                ));
            }
            let mut activity = Activity::new(activity_id(r, index), duration);
            activity.label = Some(step.text.clone());
            activity.preemptible = preemptible;
            activity.agent = if autonomous {
                AgentUse::StartInstant
            } else {
                AgentUse::Whole
            };
            for (name, appliance) in &step.physical {
                let at = format!("{}.physical.{name}", place(index));
                let state_key = |state: &str| format!("{name}.{state}");
                let mut states = Vec::new();
                for (state, value) in &appliance.require {
                    activity
                        .requires
                        .insert(state_key(state), state_value(path, &at, value)?);
                    states.push(state.clone());
                }
                for (state, value) in &appliance.update {
                    activity
                        .sets
                        .insert(state_key(state), state_value(path, &at, value)?);
                    states.push(state.clone());
                }
                match appliances.iter_mut().find(|a| &a.id == name) {
                    Some(a) => {
                        for s in states {
                            if !a.states.contains(&s) {
                                a.states.push(s);
                            }
                        }
                    }
                    None => appliances.push(Resource {
                        id: name.clone(),
                        capacity: 1,
                        states,
                    }),
                }
                activity.uses.push(ResourceUse {
                    resource: name.clone(),
                    amount: 1,
                });
            }
            activities.push(activity);
        }
        let n = recipe.steps.len();
        for (index, step) in recipe.steps.iter().enumerate() {
            for &k in &step.prequisites {
                if k >= n || k == index {
                    return Err(LoadError::format(
                        path,
                        format!("{}.prequisites", place(index)),
                        format!(
                            "prerequisite {k} is not another step of {r} (steps 0 to {})",
                            n - 1
                        ),
                    ));
                }
                precedences.push(Precedence::finish_to_start(
                    activity_id(r, k),
                    activity_id(r, index),
                    0,
                ));
            }
        }
        if level == Level::Medium {
            for (index, step) in recipe.steps.iter().enumerate() {
                for (k, limit) in &step.time_constraint {
                    let at = format!("{}.time_constraint.\"{k}\"", place(index));
                    let k: usize = k.parse().ok().filter(|&k| k < n).ok_or_else(|| {
                        LoadError::format(
                            path,
                            &at,
                            format!("the key must be a step id of {r} (0 to {})", n - 1),
                        )
                    })?;
                    let limit = seconds(limit).map_err(|m| LoadError::format(path, &at, m))?;
                    if !is_ancestor(&recipe.steps, k, index) {
                        return Err(LoadError::format(
                            path,
                            &at,
                            format!(
                                "step {k} is not a prerequisite (direct or indirect) of step {index}; windows from unrelated steps are not supported"
                            ),
                        ));
                    }
                    precedences.push(Precedence {
                        max_lag: Some(limit),
                        ..Precedence::finish_to_start(activity_id(r, k), activity_id(r, index), 0)
                    });
                }
            }
        }
    }
    let mut notes = BTreeMap::new();
    notes.insert("key".to_string(), Value::from(key));
    notes.insert("level".to_string(), Value::from(level.name()));
    Ok(Instance {
        time_unit: TimeUnit::Second,
        resources: appliances,
        activities,
        precedences,
        source: Some(Source {
            benchmark: BENCHMARK.to_string(),
            file: Some(path.display().to_string()),
            notes,
        }),
        ..Instance::new(instance_name(key, level), Some(1))
    })
}

/// Whether `k` is reachable from `j` backwards through prerequisites.
fn is_ancestor(steps: &[Step], k: usize, j: usize) -> bool {
    let mut stack = steps[j].prequisites.clone();
    let mut seen = HashSet::new();
    while let Some(i) = stack.pop() {
        if i == k {
            return true;
        }
        if seen.insert(i) {
            if let Some(s) = steps.get(i) {
                stack.extend(&s.prequisites);
            }
        }
    }
    false
}

fn flag(path: &Path, place: &str, field: &str, value: u8) -> Result<bool, LoadError> {
    match value {
        0 => Ok(false),
        1 => Ok(true),
        v => Err(LoadError::format(
            path,
            format!("{place}.{field}"),
            format!("{field} is {v}; it must be 0 or 1"),
        )),
    }
}

/// A state value as the instance stores it: whole numbers as integers (`350.0` → `350`),
/// so a set and a requirement written differently still compare equal.
fn state_value(path: &Path, at: &str, value: &Value) -> Result<Value, LoadError> {
    match value {
        Value::Number(n) => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 1e15 => Ok(Value::from(f as i64)),
            _ => Ok(value.clone()),
        },
        Value::String(_) | Value::Bool(_) => Ok(value.clone()),
        _ => Err(LoadError::format(
            path,
            at,
            format!("state value {value} is not a number, string or boolean"),
        )),
    }
}

/// Seconds of a benchmark time string: `"N min"`, `"N sec"`, `"N hour"` (plural forms too).
pub fn seconds(text: &str) -> Result<i64, crate::BadValue> {
    let mut words = text.split_whitespace();
    let (Some(number), Some(unit), None) = (words.next(), words.next(), words.next()) else {
        return Err(crate::BadValue(format!(
            "time \"{text}\" is not \"<whole number> min|sec|hour\", e.g. \"5 min\""
        )));
    };
    let n: i64 = number
        .parse()
        .ok()
        .filter(|n: &i64| (0..=1_000_000).contains(n))
        .ok_or_else(|| {
            format!("time \"{text}\": \"{number}\" is not a whole number of at most 1000000")
        })?;
    let unit_seconds = match unit.to_ascii_lowercase().as_str() {
        "sec" | "secs" | "second" | "seconds" => 1,
        "min" | "mins" | "minute" | "minutes" => 60,
        "hour" | "hours" => 3600,
        other => {
            return Err(crate::BadValue(format!(
                "time \"{text}\": unknown unit \"{other}\"; use min, sec or hour"
            )))
        }
    };
    Ok(n * unit_seconds)
}

/// One action of a benchmark plan: `[step, recipe, duration_s, start_s]`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct PlanAction(pub usize, pub String, pub i64, pub i64);

/// The heuristic plans of `plan.json`: for each instance key and level, the plan (`None`
/// where the file has `null`, as for `Pizza_Chocolate-Egg` at medium).
pub type BaselinePlans = BTreeMap<(String, Level), Option<Vec<PlanAction>>>;

/// Reads `plan.json`, the benchmark's own heuristic plans.
pub fn read_baseline(path: &Path) -> Result<BaselinePlans, LoadError> {
    let text = makespan_model::input::read_text(path)?;
    let raw: BTreeMap<String, HashMap<String, Option<Vec<PlanAction>>>> =
        serde_json::from_str(&text).map_err(|e| LoadError::json_in(path, &text, &e))?;
    let mut plans = BTreeMap::new();
    for (key, by_level) in raw {
        for level in Level::ALL {
            let plan = by_level.get(level.plan_key()).ok_or_else(|| {
                LoadError::format(
                    path,
                    format!("\"{key}\""),
                    format!(
                        "no \"{}\" entry; a plan.json entry has both levels",
                        level.plan_key()
                    ),
                )
            })?;
            plans.insert((key.clone(), level), plan.clone());
        }
    }
    Ok(plans)
}

/// A benchmark plan as a schedule of the instance: each action a piece of its step's
/// activity (the released plans never split a step, but a split plan would come out as
/// pieces). The cook is agent 0 for every step.
pub fn plan_schedule(plan: &[PlanAction]) -> Vec<ScheduledActivity> {
    let mut schedule: Vec<ScheduledActivity> = Vec::new();
    for PlanAction(step, recipe, duration, start) in plan {
        let id = activity_id(recipe, *step);
        let piece = Piece(*start, start.saturating_add(*duration));
        match schedule.iter_mut().find(|s| s.activity == id) {
            Some(entry) => entry.pieces.push(piece),
            None => schedule.push(ScheduledActivity {
                activity: id,
                agent: Some(0),
                pieces: vec![piece],
            }),
        }
    }
    schedule
}

/// The schedule as the environment's answer text, one `Step(step, recipe, HH:MM:SS,
/// HH:MM:SS)` per line in execution order. A preemptible step is split wherever an
/// autonomous step starts inside one of its pieces (the environment's clock forbids
/// anything else), and at equal starts autonomous steps come first.
pub fn answer_steps(instance: &Instance, schedule: &[ScheduledActivity]) -> String {
    let activities: HashMap<&str, &Activity> = instance
        .activities
        .iter()
        .map(|a| (a.id.as_str(), a))
        .collect();
    let autonomous_starts: Vec<i64> = schedule
        .iter()
        .filter(|s| {
            activities
                .get(s.activity.as_str())
                .is_some_and(|a| a.agent != AgentUse::Whole)
        })
        .filter_map(ScheduledActivity::start)
        .collect();
    // (start, continuous?, order, line)
    let mut lines: Vec<(i64, bool, usize, String)> = Vec::new();
    for (order, entry) in schedule.iter().enumerate() {
        let Some((recipe, step)) = entry.activity.rsplit_once(':') else {
            continue;
        };
        let continuous = activities
            .get(entry.activity.as_str())
            .is_some_and(|a| a.agent == AgentUse::Whole);
        let mut pieces = entry.pieces.clone();
        pieces.sort();
        for p in pieces {
            let mut cuts: Vec<i64> = autonomous_starts
                .iter()
                .copied()
                .filter(|&t| continuous && p.start() < t && t < p.end())
                .collect();
            cuts.sort_unstable();
            cuts.dedup();
            let mut from = p.start();
            for to in cuts.into_iter().chain([p.end()]) {
                lines.push((
                    from,
                    continuous,
                    order,
                    format!(
                        "Step({step}, {recipe}, {}, {})",
                        clock(to - from),
                        clock(from)
                    ),
                ));
                from = to;
            }
        }
    }
    lines.sort_by_key(|l| (l.0, l.1, l.2));
    let mut text = String::new();
    for (_, _, _, line) in lines {
        text.push_str(&line);
        text.push('\n');
    }
    text
}

/// Seconds as `HH:MM:SS`, as the environment writes times.
pub fn clock(seconds: i64) -> String {
    TimeUnit::Second.show(seconds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_strings_become_seconds() {
        assert_eq!(seconds("5 min"), Ok(300));
        assert_eq!(seconds("30 sec"), Ok(30));
        assert_eq!(seconds("1 hour"), Ok(3600));
        assert!(seconds("1.5 min").is_err());
        assert!(seconds("5 parsecs").unwrap_err().0.contains("unknown unit"));
        assert!(seconds("5").is_err());
    }

    #[test]
    fn clock_is_hh_mm_ss() {
        assert_eq!(clock(3725), "01:02:05");
        assert_eq!(clock(0), "00:00:00");
    }

    #[test]
    fn levels_parse_and_name() {
        assert_eq!(Level::parse(" Medium"), Ok(Level::Medium));
        assert!(Level::parse("hard").is_err());
        assert_eq!(instance_name("A_B", Level::Easy), "recipe2plan-A_B-easy");
    }
}
