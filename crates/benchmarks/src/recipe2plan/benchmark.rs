//! Recipe2Plan behind the [`Benchmark`] trait: `cooking.json`, `Step(…)` answers checked with
//! the benchmark's metrics, `plan.json` as the baseline file, levels as `compare` groups.

use std::path::Path;

use makespan_model::instance::{Instance, LoadError};
use makespan_model::schedule::ScheduledActivity;

use super::steps::{final_answer, parse_steps, schedule_actions, verify_steps};
use super::{key_and_level, plan_schedule, read_baseline, BaselinePlans, Level, PlanAction};
use crate::{Answer, BaselineFile, Benchmark, NativeJson, VerifiedAnswer};
use crate::{ImportOptions, NativeAnswer, Probe};

/// Recipe2Plan: two recipes for one cook, `Step(step, recipe, duration, start)` answers.
pub struct Recipe2Plan;

impl Benchmark for Recipe2Plan {
    fn name(&self) -> &'static str {
        super::BENCHMARK
    }

    /// `cooking.json`: a non-empty JSON list of lists of `{recipe, steps}` objects.
    fn detect(&self, probe: &Probe<'_>) -> Option<Result<&'static str, LoadError>> {
        let is_recipe_pair = |e: &serde_json::Value| {
            e.as_array().is_some_and(|recipes| {
                !recipes.is_empty() && recipes.iter().all(|r| r.get("recipe").is_some())
            })
        };
        let entries = probe.list()?;
        (!entries.is_empty() && entries.iter().all(is_recipe_pair)).then_some(Ok("cooking.json"))
    }

    fn files(&self) -> Option<&'static str> {
        Some("Recipe2Plan cooking.json (JSON list of lists of {\"recipe\", \"steps\"})")
    }

    fn fixed_agents(&self) -> Option<crate::FixedAgents> {
        Some(crate::FixedAgents {
            count: Some(1),
            why: "Recipe2Plan has one cook: the environment runs the steps that occupy the cook one at a time, and only the steps that run without the cook overlap them",
        })
    }

    fn import(
        &self,
        _: &'static str,
        path: &Path,
        bytes: &[u8],
        opts: &ImportOptions,
    ) -> Result<Vec<Instance>, LoadError> {
        super::import(path, crate::utf8(path, bytes)?, opts)
    }

    fn knobs(&self) -> &'static [crate::Knob] {
        super::KNOBS
    }

    fn harness(&self) -> Option<&'static dyn crate::harness::Harness> {
        Some(&super::Recipe2PlanHarness)
    }

    fn baseline_file(&self) -> Option<BaselineFile> {
        Some(BaselineFile {
            description: "Recipe2Plan's plan.json",
            open: |path| Ok(Box::new(read_baseline(path)?)),
        })
    }

    fn answers(&self) -> Option<&dyn crate::Answers> {
        Some(self)
    }

    fn lookup(&self) -> Option<&dyn crate::Lookup> {
        Some(self)
    }

    fn grouping(&self) -> Option<fn(&Instance) -> Option<String>> {
        Some(group)
    }
}

impl crate::Lookup for Recipe2Plan {
    fn data_file(&self) -> &'static str {
        "recipe2plan/cooking.json"
    }

    fn checkout_files(&self) -> &'static [&'static str] {
        &["data/cooking.json"]
    }

    /// The instance named `name` or `<benchmark>-<name>`, or the one variant of it the
    /// options leave.
    fn find(
        &self,
        path: &Path,
        name: &str,
        opts: &crate::ImportOptions,
    ) -> Result<Instance, LoadError> {
        crate::lookup::find_by_name(super::BENCHMARK, path, name, opts)
    }
}

impl crate::Answers for Recipe2Plan {
    fn write(&self, instance: &Instance, schedule: &[ScheduledActivity]) -> Option<NativeAnswer> {
        Some(NativeAnswer {
            extension: "txt",
            text: super::answer_steps(instance, schedule),
        })
    }

    /// `Step(…)` lines (any text that is not a JSON object) for a Recipe2Plan instance, with
    /// the benchmark's metrics against its heuristic plan (`plan.json` beside `cooking.json`)
    /// and against the optimum (the reference solution, when the caller gives one).
    fn verify(&self, answer: &Answer<'_>) -> Option<Result<VerifiedAnswer, LoadError>> {
        let instance = answer.instance?;
        let (key, level) = key_and_level(instance)?;
        if answer.text.trim_start().starts_with('{') {
            return None;
        }
        Some(check_steps(answer, instance, &key, level))
    }
}

fn group(instance: &Instance) -> Option<String> {
    key_and_level(instance).map(|(_, level)| level.name().to_string())
}

fn check_steps(
    answer: &Answer<'_>,
    instance: &Instance,
    key: &str,
    level: Level,
) -> Result<VerifiedAnswer, LoadError> {
    let parsed = parse_steps(final_answer(answer.text));
    let heuristic = heuristic_plan(instance, key, level);
    // The optimum comes from the caller's reference only: never from a path relative to
    // the working directory, so one call answers alike from every folder.
    let optimum = match answer.reference {
        Some(path) => Some(schedule_actions(&crate::reference_solution(path)?.schedule)),
        None => None,
    };
    let checked = verify_steps(instance, &parsed, heuristic.as_deref(), optimum.as_deref());
    let m = &checked.metrics;
    let pct = |v: Option<f64>| v.map_or("-".to_string(), |x| format!("{:.2} %", 100.0 * x));
    // The plan's length as the benchmark writes times (HH:MM:SS): its cooks read minutes,
    // and the report's makespan is in seconds.
    let length = checked
        .report
        .makespan
        .map_or(String::new(), |m| format!(", {} long", super::clock(m)));
    let text = format!(
        "{}: {} action(s){length}, {} malformed; multitasking efficiency {}, relative efficiency {} (vs the benchmark heuristic), {} (vs the optimum); progress {:.1} %; success {}\n",
        answer.path.display(),
        parsed.actions.len(),
        parsed.malformed.len(),
        pct(m.multitasking_efficiency),
        pct(m.relative_efficiency_heuristic),
        pct(m.relative_efficiency_optimum),
        100.0 * m.progress,
        m.success
    );
    let mut text = text;
    for note in &checked.notes {
        text += &format!("note: {note}\n");
    }
    Ok(VerifiedAnswer {
        report: checked.report.clone(),
        schedule: checked.schedule.clone(),
        text,
        json: NativeJson::Whole(serde_json::to_value(&checked).expect("a report serialises")),
        compared: true,
        run: None,
    })
}

/// The benchmark's heuristic plan of this instance, from `plan.json` beside the instance file.
pub(crate) fn heuristic_plan(
    instance: &Instance,
    key: &str,
    level: Level,
) -> Option<Vec<PlanAction>> {
    let file = instance.source.as_ref()?.file.as_ref()?;
    let path = Path::new(file).with_file_name("plan.json");
    let plans = read_baseline(&path).ok()?;
    plans.get(&(key.to_string(), level))?.clone()
}

impl crate::BaselinePlans for BaselinePlans {
    fn schedule(&self, instance: &Instance) -> Result<Vec<ScheduledActivity>, crate::BadValue> {
        let (key, level) = key_and_level(instance).ok_or("not a Recipe2Plan instance")?;
        let plan = self
            .get(&(key, level))
            .ok_or("no plan of this instance in the baseline file")?
            .as_ref()
            .ok_or("the baseline file has no plan (null) at this level")?;
        Ok(plan_schedule(plan))
    }
}
