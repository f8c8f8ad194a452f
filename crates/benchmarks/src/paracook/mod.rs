//! ParaCook abstract task files (`<dish>/seed_<s>/orders_num_<k>.json`) and its answer form.
//!
//! A file is a JSON list of `{"name", "time", "dependencies": {pred: lag}}`; a dependency
//! means `start ≥ end(pred) + lag`, which is exactly a finish-to-start
//! precedence with a minimum lag. The file does not say how many cooks there are: the
//! benchmark solves each file for 1, 2 and 3, so one file gives one instance per count.
//! The list is not in topological order, so nothing here assumes it.
//!
//! Instances are named `paracook-<dish>-s<seed>-o<orders>-m<m>` when the path follows the
//! benchmark's layout, else `paracook-<file stem>-m<m>` (`-unlimited` for no limit); the
//! time unit is the step and `source.notes` holds `dish`, `seed`, `orders`, `agents`.

pub mod concrete;
mod harness;
pub mod lists;

pub use harness::ParaCookHarness;

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use serde::Deserialize;
use serde_json::{Map, Number, Value};

use super::{agent_counts, agents_suffix, ImportOptions, Knob};
use makespan_model::instance::{Activity, Instance, LoadError, Precedence, Source, TimeUnit};
use makespan_model::schedule::ScheduledActivity;
use makespan_model::setting::Setting;

/// `source.benchmark` of every ParaCook instance.
pub const BENCHMARK: &str = "paracook";

/// The cook counts the benchmark evaluates when the caller asks for none.
const DEFAULT_AGENTS: [Option<u32>; 3] = [Some(1), Some(2), Some(3)];

/// One entry of the task list, as written. Numbers stay untyped until checked so that a
/// wrong value is reported with the subtask it belongs to.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Subtask {
    name: String,
    time: Number,
    dependencies: Map<String, Value>,
}

/// What the benchmark's folder layout says about a file, when it follows that layout.
#[derive(Debug, PartialEq, Eq)]
struct FileKey {
    dish: String,
    seed: u64,
    orders: u32,
}

/// Reads a ParaCook task list: one instance per requested agent count (default 1, 2, 3).
pub fn import(path: &Path, text: &str, opts: &ImportOptions) -> Result<Vec<Instance>, LoadError> {
    let subtasks: Vec<Subtask> =
        serde_json::from_str(text).map_err(|e| LoadError::json_in(path, text, &e))?;
    if subtasks.is_empty() {
        return Err(LoadError::format(
            path,
            "top level",
            "the task list is empty; a ParaCook file lists at least one subtask",
        ));
    }
    let (activities, precedences) = translate(path, &subtasks)?;
    let key = file_key(path);
    let stem = match &key {
        Some(k) => format!("{}-s{}-o{}", k.dish, k.seed, k.orders),
        None => path
            .file_stem()
            .map_or_else(|| "tasks".to_string(), |s| s.to_string_lossy().into_owned()),
    };
    Ok(agent_counts(opts, &DEFAULT_AGENTS)
        .into_iter()
        .map(|agents| {
            let mut notes = BTreeMap::new();
            if let Some(k) = &key {
                notes.insert("dish".to_string(), Value::from(k.dish.clone()));
                notes.insert("seed".to_string(), Value::from(k.seed));
                notes.insert("orders".to_string(), Value::from(k.orders));
            }
            notes.insert(
                "agents".to_string(),
                agents.map_or(Value::Null, Value::from),
            );
            Instance {
                time_unit: TimeUnit::Step,
                activities: activities.clone(),
                precedences: precedences.clone(),
                source: Some(Source {
                    benchmark: BENCHMARK.to_string(),
                    file: Some(path.display().to_string()),
                    notes,
                }),
                ..Instance::new(
                    format!("{BENCHMARK}-{stem}{}", agents_suffix(agents)),
                    agents,
                )
            }
        })
        .collect())
}

/// Subtasks to activities and dependencies to precedences, checking names and numbers.
fn translate(
    path: &Path,
    subtasks: &[Subtask],
) -> Result<(Vec<Activity>, Vec<Precedence>), LoadError> {
    let place = |i: usize, s: &Subtask| format!("entry {} (\"{}\")", i + 1, s.name);
    let mut first_entry: HashMap<&str, usize> = HashMap::new();
    for (i, s) in subtasks.iter().enumerate() {
        if let Some(j) = first_entry.insert(s.name.as_str(), i) {
            return Err(LoadError::format(
                path,
                place(i, s),
                format!(
                    "the name is already used by entry {}; give every subtask its own name",
                    j + 1
                ),
            ));
        }
    }
    let mut activities = Vec::with_capacity(subtasks.len());
    let mut precedences = Vec::new();
    for (i, s) in subtasks.iter().enumerate() {
        let time = whole_time(s.time.as_i64(), &s.time.to_string()).map_err(|msg| {
            LoadError::format(path, format!("{}.time", place(i, s)), format!("time {msg}"))
        })?;
        let mut activity = Activity::new(s.name.clone(), time);
        activity.label = Some(s.name.clone());
        activities.push(activity);
        for (pred, lag) in &s.dependencies {
            let at = || format!("{}.dependencies.\"{pred}\"", place(i, s));
            if !first_entry.contains_key(pred.as_str()) {
                return Err(LoadError::format(
                    path,
                    at(),
                    format!(
                        "subtask \"{}\" depends on \"{pred}\", which is not a subtask of this file; \
                         fix the name or add the subtask",
                        s.name
                    ),
                ));
            }
            let lag = whole_time(lag.as_i64(), &lag.to_string())
                .map_err(|msg| LoadError::format(path, at(), format!("lag {msg}")))?;
            precedences.push(Precedence::finish_to_start(
                pred.clone(),
                s.name.clone(),
                lag,
            ));
        }
    }
    Ok((activities, precedences))
}

/// A time or lag must be a whole number ≥ 0; `shown` is the value as written.
fn whole_time(value: Option<i64>, shown: &str) -> Result<i64, String> {
    match value {
        Some(v) if v >= 0 => Ok(v),
        Some(_) => Err(format!("is {shown}; it must be ≥ 0")),
        None => Err(format!(
            "is {shown}; it must be a whole number of time units ≥ 0"
        )),
    }
}

/// `(dish, seed, orders)` from a path ending in `<dish>/seed_<s>/orders_num_<k>.json`.
fn file_key(path: &Path) -> Option<FileKey> {
    let orders = path
        .file_stem()?
        .to_str()?
        .strip_prefix("orders_num_")?
        .parse()
        .ok()?;
    let seed_dir = path.parent()?;
    let seed = seed_dir
        .file_name()?
        .to_str()?
        .strip_prefix("seed_")?
        .parse()
        .ok()?;
    let dish = seed_dir.parent()?.file_name()?.to_str()?.to_string();
    Some(FileKey { dish, seed, orders })
}

/// ParaCook's answer form: one list of subtask names per agent, each in start order,
/// as JSON with one agent per line. There are as many lists as agents (idle ones empty), or
/// more if the schedule uses agents beyond the count, so the verifier can say so.
///
/// Activities without an agent (a schedule for unlimited cooks) go to the first list that
/// is free for their whole run, so the lists always decode to the same start times.
pub fn answer_lists(instance: &Instance, schedule: &[ScheduledActivity]) -> String {
    let mut placed: Vec<&ScheduledActivity> = schedule.iter().collect();
    placed
        .sort_by(|a, b| (a.start(), a.end(), &a.activity).cmp(&(b.start(), b.end(), &b.activity)));
    let count = schedule
        .iter()
        .filter_map(|s| s.agent)
        .max()
        .map_or(0, |a| a as usize + 1);
    let count = count.max(instance.agents.unwrap_or(0) as usize);
    // Per agent: (start, end, name) of what it runs.
    let mut lists: Vec<Vec<(i64, i64, &str)>> = vec![Vec::new(); count];
    let (assigned, free): (Vec<_>, Vec<_>) = placed.into_iter().partition(|s| s.agent.is_some());
    for s in assigned.into_iter().chain(free) {
        let (start, end) = (s.start().unwrap_or(0), s.end().unwrap_or(0));
        let agent = s.agent.map(|a| a as usize).unwrap_or_else(|| {
            let fits =
                |l: &Vec<(i64, i64, &str)>| l.iter().all(|&(a, b, _)| b <= start || end <= a);
            lists.iter().position(fits).unwrap_or(lists.len())
        });
        if agent >= lists.len() {
            lists.resize(agent + 1, Vec::new());
        }
        lists[agent].push((start, end, s.activity.as_str()));
    }
    let rows: Vec<String> = lists
        .iter_mut()
        .map(|list| {
            list.sort();
            let names: Vec<&str> = list.iter().map(|&(_, _, name)| name).collect();
            format!("  {}", serde_json::Value::from(names))
        })
        .collect();
    if rows.is_empty() {
        "[]\n".to_string()
    } else {
        format!("[\n{}\n]\n", rows.join(",\n"))
    }
}

/// ParaCook's own import option: which of its two modes a checkout gives.
const KNOBS: &[Knob] = &[Knob {
    name: "mode",
    help: "ParaCook mode of a checkout: abstract (the task files, default) or concrete (the kitchen maps)",
    value: Some("MODE"),
    check: |v| match v {
        "abstract" | "concrete" => Ok(()),
        _ => Err(format!("\"{v}\" is not a ParaCook mode; use abstract or concrete")),
    },
}];

/// Whether the import options ask for the concrete mode.
fn concrete_mode(opts: &ImportOptions) -> bool {
    opts.values("mode").iter().any(|v| v == "concrete")
}

/// ParaCook: abstract task files, per-agent list answers. Its answer
/// reader is the last one tried: per-agent lists of activity ids answer any instance.
pub struct ParaCook;

impl crate::Benchmark for ParaCook {
    fn name(&self) -> &'static str {
        BENCHMARK
    }

    /// An abstract task file: a JSON list of `{name, time, dependencies}` objects. It is the
    /// last benchmark asked, so any other JSON list is refused here, a list of lists (the
    /// most likely mistake: a ParaCook *answer*) with its own hint.
    fn detect(&self, probe: &crate::Probe<'_>) -> Option<Result<&'static str, LoadError>> {
        let entries = probe.list()?;
        Some(match entries.iter().position(|e| !e.is_object()) {
            None => Ok("task file"),
            Some(i) => {
                let hint = if entries[i].is_array() {
                    "; a list of lists is a ParaCook answer (a plan): verify it against its instance"
                } else {
                    ""
                };
                Err(LoadError::format(
                    probe.path,
                    format!("entry {}", i + 1),
                    format!(
                        "a JSON list of something other than objects is not a ParaCook task file{hint} ({})",
                        crate::detect::accepted()
                    ),
                ))
            }
        })
    }

    fn files(&self) -> Option<&'static str> {
        Some("a ParaCook abstract task file (JSON list of {\"name\", \"time\", \"dependencies\"})")
    }

    fn import(
        &self,
        _: &'static str,
        path: &Path,
        bytes: &[u8],
        opts: &ImportOptions,
    ) -> Result<Vec<Instance>, LoadError> {
        import(path, crate::utf8(path, bytes)?, opts)
    }

    fn harness(&self) -> Option<&'static dyn crate::harness::Harness> {
        Some(&ParaCookHarness)
    }

    fn knobs(&self) -> &'static [Knob] {
        KNOBS
    }

    fn checkout(&self) -> Option<&dyn crate::Checkout> {
        Some(self)
    }

    fn simulated(&self) -> Option<&'static dyn crate::Simulated> {
        Some(&concrete::replay::ConcreteWorld)
    }

    fn answers(&self) -> Option<&dyn crate::Answers> {
        Some(self)
    }
}

impl crate::Checkout for ParaCook {
    /// A checkout (or its `data/cook` folder): the kitchen maps and their orders.
    fn recognises(&self, dir: &Path) -> bool {
        concrete::checkout::cook_folder(dir).is_some()
    }

    /// The concrete kitchens with `--mode concrete`; else the abstract task files beside
    /// them (`data/abstract`), as a walk of that folder gives them.
    fn import(&self, dir: &Path, opts: &ImportOptions) -> Result<Vec<Instance>, LoadError> {
        if concrete_mode(opts) {
            let agents: Vec<Option<u32>> = opts.agents.clone();
            return concrete::import_checkout(dir, &agents);
        }
        let folder = ["data/abstract", "../abstract", "abstract"]
            .iter()
            .map(|f| dir.join(f))
            .find(|f| f.is_dir())
            .ok_or_else(|| {
                LoadError::usage(
                    dir,
                    format!(
                        "this ParaCook folder holds the concrete kitchens only: add {} \
                         (or name the data/abstract folder for the abstract task files)",
                        Setting::Mode.given("concrete")
                    ),
                )
            })?;
        let mut instances = Vec::new();
        for path in crate::walk::input_files(&folder)? {
            let bytes = makespan_model::input::read_bytes(&path)?;
            instances.extend(import(&path, crate::utf8(&path, &bytes)?, opts)?);
        }
        Ok(instances)
    }
}

impl crate::Answers for ParaCook {
    fn write(
        &self,
        instance: &Instance,
        schedule: &[ScheduledActivity],
    ) -> Option<crate::NativeAnswer> {
        // A kitchen's plan: the harness's answer, one action list per cook.
        if let Some(kitchen) = concrete::kitchen_of(instance) {
            let plan = concrete::replay::plan_of_schedule(&kitchen.ok()?, schedule);
            return Some(crate::NativeAnswer {
                extension: "json",
                text: serde_json::to_string_pretty(&plan.to_json()).ok()? + "\n",
            });
        }
        Some(crate::NativeAnswer {
            extension: "json",
            text: answer_lists(instance, schedule),
        })
    }

    fn verify(
        &self,
        answer: &crate::Answer<'_>,
    ) -> Option<Result<crate::VerifiedAnswer, LoadError>> {
        let instance = answer.instance?;
        if let Some(kitchen) = concrete::kitchen_of(instance) {
            return Some(
                kitchen
                    .map_err(|e| LoadError::usage(answer.path, e))
                    .map(|k| {
                        concrete::answer::verify_answer(instance, &k, answer.path, answer.text)
                    }),
            );
        }
        if answer.text.trim_start().starts_with('{') {
            return None;
        }
        let strict = lists::read_agent_lists(answer.path, answer.text);
        let note = lists::reading_difference(&strict, answer.text);
        let mut check = match strict {
            Ok(lists) => {
                let (schedule, report) = lists::check_agent_lists(instance, &lists);
                crate::VerifiedAnswer::plain(schedule, report)
            }
            Err(e) => crate::answers::malformed_answer(instance, &e),
        };
        if let Some(note) = note {
            check.text = format!("note: {note}\n");
        }
        Some(Ok(check))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BURGER: &str = r#"[
        {"name": "subtask1", "time": 4, "dependencies": {"subtask2": 24}},
        {"name": "subtask2", "time": 3, "dependencies": {}},
        {"name": "subtask3", "time": 5, "dependencies": {"subtask1": 0, "subtask2": 10}}
    ]"#;

    fn import_text(path: &str, text: &str) -> Result<Vec<Instance>, LoadError> {
        import(Path::new(path), text, &ImportOptions::default())
    }

    #[test]
    fn one_instance_per_default_cook_count_named_after_the_folders() {
        let insts = import_text("data/burger/seed_84/orders_num_2.json", BURGER).unwrap();
        let names: Vec<&str> = insts.iter().map(|i| i.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "paracook-burger-s84-o2-m1",
                "paracook-burger-s84-o2-m2",
                "paracook-burger-s84-o2-m3"
            ]
        );
        assert_eq!(insts[1].agents, Some(2));
        assert_eq!(insts[0].time_unit, TimeUnit::Step);
        let notes = &insts[2].source.as_ref().unwrap().notes;
        assert_eq!(notes["dish"], "burger");
        assert_eq!(notes["seed"], 84);
        assert_eq!(notes["orders"], 2);
        assert_eq!(notes["agents"], 3);
    }

    #[test]
    fn other_paths_are_named_after_the_file_stem() {
        let opts = ImportOptions {
            agents: vec![None, Some(4)],
            ..ImportOptions::default()
        };
        let insts = import(Path::new("my tasks.json"), BURGER, &opts).unwrap();
        assert_eq!(insts[0].name, "paracook-my tasks-unlimited");
        assert_eq!(insts[0].agents, None);
        assert_eq!(insts[1].name, "paracook-my tasks-m4");
        assert!(!insts[1].source.as_ref().unwrap().notes.contains_key("dish"));
    }

    #[test]
    fn dependencies_become_lagged_precedences_even_on_later_subtasks() {
        let inst = &import_text("t.json", BURGER).unwrap()[0];
        assert_eq!(inst.activities[0].duration, 4);
        assert_eq!(inst.activities[0].label.as_deref(), Some("subtask1"));
        assert_eq!(
            inst.precedences,
            vec![
                Precedence::finish_to_start("subtask2", "subtask1", 24),
                Precedence::finish_to_start("subtask1", "subtask3", 0),
                Precedence::finish_to_start("subtask2", "subtask3", 10),
            ]
        );
    }

    #[test]
    fn unknown_dependency_names_the_subtask_and_the_missing_name() {
        let text = BURGER.replace("\"subtask2\": 10", "\"subtask9\": 10");
        let err = import_text("t.json", &text).unwrap_err().to_string();
        assert!(err.starts_with("t.json: entry 3 (\"subtask3\")"), "{err}");
        assert!(err.contains("depends on \"subtask9\""), "{err}");
    }

    #[test]
    fn negative_time_is_rejected_with_its_place() {
        let text = BURGER.replace("\"time\": 3", "\"time\": -3");
        let err = import_text("t.json", &text).unwrap_err().to_string();
        assert!(
            err.contains("entry 2 (\"subtask2\").time: time is -3; it must be ≥ 0"),
            "{err}"
        );
    }

    #[test]
    fn negative_or_fractional_lag_is_rejected() {
        let err = import_text("t.json", &BURGER.replace("24", "-24"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(".dependencies.\"subtask2\": lag is -24"),
            "{err}"
        );
        let err = import_text("t.json", &BURGER.replace("24", "2.5"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("lag is 2.5; it must be a whole number"),
            "{err}"
        );
    }

    #[test]
    fn fractional_time_is_rejected() {
        let err = import_text("t.json", &BURGER.replace("\"time\": 4", "\"time\": 4.5"));
        assert!(err.unwrap_err().to_string().contains("time is 4.5"));
    }

    #[test]
    fn duplicate_names_are_rejected() {
        let text = BURGER.replace("\"name\": \"subtask2\"", "\"name\": \"subtask1\"");
        let err = import_text("t.json", &text).unwrap_err().to_string();
        assert!(
            err.contains("entry 2 (\"subtask1\"): the name is already used by entry 1"),
            "{err}"
        );
    }

    #[test]
    fn unknown_fields_are_rejected() {
        let text = BURGER.replace("\"time\": 5", "\"time\": 5, \"station\": \"board\"");
        let err = import_text("t.json", &text).unwrap_err().to_string();
        assert!(err.contains("unknown field `station`"), "{err}");
    }

    #[test]
    fn truncated_file_names_the_file_and_line() {
        let err = import_text("cut.json", &BURGER[..90])
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("cut.json: line 3"), "{err}");
        assert!(err.contains("truncated"), "{err}");
    }

    #[test]
    fn empty_list_is_rejected() {
        assert!(import_text("t.json", "[]")
            .unwrap_err()
            .to_string()
            .contains("empty"));
    }

    #[test]
    fn a_cycle_is_imported_for_the_solver_to_report() {
        let text = BURGER.replace(
            "\"dependencies\": {}",
            "\"dependencies\": {\"subtask3\": 0}",
        );
        assert_eq!(import_text("t.json", &text).unwrap().len(), 3);
    }

    #[test]
    fn answer_lists_per_agent_in_start_order_with_idle_agents_empty() {
        let inst = &import_text("t.json", BURGER).unwrap()[2];
        let schedule = [
            ScheduledActivity::at("subtask3", Some(1), 40, 5),
            ScheduledActivity::at("subtask2", Some(1), 0, 3),
            ScheduledActivity::at("subtask1", Some(0), 27, 4),
        ];
        let text = answer_lists(inst, &schedule);
        assert_eq!(
            text,
            "[\n  [\"subtask1\"],\n  [\"subtask2\",\"subtask3\"],\n  []\n]\n"
        );
        let lists: Vec<Vec<String>> = serde_json::from_str(&text).unwrap();
        assert_eq!(lists.len(), 3);
    }

    #[test]
    fn unassigned_activities_share_lists_only_when_they_do_not_overlap() {
        let inst = &import_text("t.json", BURGER).unwrap()[0];
        let schedule = [
            ScheduledActivity::at("subtask1", None, 0, 4),
            ScheduledActivity::at("subtask2", None, 2, 3),
            ScheduledActivity::at("subtask3", None, 4, 5),
        ];
        let lists: Vec<Vec<String>> = serde_json::from_str(&answer_lists(inst, &schedule)).unwrap();
        assert_eq!(lists, vec![vec!["subtask1", "subtask3"], vec!["subtask2"]]);
    }
}
