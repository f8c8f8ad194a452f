//! Robotouille behind the [`Benchmark`] trait: `task_graphs.json`, action strings replayed on
//! the task graph, native action plans written from schedules, and a user's checkout read
//! whole (every set, task and seed as a world instance).

use std::path::Path;

use makespan_model::instance::{Instance, LoadError};
use makespan_model::schedule::ScheduledActivity;
use makespan_model::solution::Status;
use makespan_verify::compare;

use super::actions::{read_actions, verify_actions};
use super::{select, task_graph};
use crate::{Answer, Benchmark, NativeJson, VerifiedAnswer};
use crate::{ImportOptions, NativeAnswer, Probe};

/// Robotouille: the asynchronous tasks' graphs, simulator action-string answers.
pub struct Robotouille;

impl Benchmark for Robotouille {
    fn name(&self) -> &'static str {
        super::BENCHMARK
    }

    /// `task_graphs.json`: a JSON object with `tasks` and `semantics` (and not TimeArena's
    /// `dependencygraph_disagreements`).
    fn detect(&self, probe: &Probe<'_>) -> Option<Result<&'static str, LoadError>> {
        (probe.has_keys(&["tasks", "semantics"])
            && !probe.has_keys(&["dependencygraph_disagreements"]))
        .then_some(Ok("task_graphs.json"))
    }

    fn files(&self) -> Option<&'static str> {
        Some("Robotouille task_graphs.json (JSON object with \"tasks\" and \"semantics\")")
    }

    fn fixed_agents(&self) -> Option<crate::FixedAgents> {
        Some(crate::FixedAgents {
            count: None,
            why: "Robotouille's robots are the ones its environment files place in the kitchen",
        })
    }

    fn import(
        &self,
        _: &'static str,
        path: &Path,
        bytes: &[u8],
        _: &ImportOptions,
    ) -> Result<Vec<Instance>, LoadError> {
        super::import(path, crate::utf8(path, bytes)?)
    }

    fn answers(&self) -> Option<&dyn crate::Answers> {
        Some(self)
    }

    fn lookup(&self) -> Option<&dyn crate::Lookup> {
        Some(self)
    }

    fn simulated(&self) -> Option<&'static dyn crate::Simulated> {
        Some(&super::world::RobotouilleWorld)
    }

    fn harness(&self) -> Option<&'static dyn crate::harness::Harness> {
        Some(&super::harness::RobotouilleHarness)
    }

    fn knobs(&self) -> &'static [crate::Knob] {
        super::checkout::KNOBS
    }

    fn checkout(&self) -> Option<&dyn crate::Checkout> {
        Some(self)
    }
}

impl crate::Checkout for Robotouille {
    /// A checkout's root, its `environments` folder or its examples folder: the three sets'
    /// environment folders.
    fn recognises(&self, dir: &Path) -> bool {
        super::checkout::examples_folder(dir).is_some()
    }

    fn import(&self, dir: &Path, opts: &ImportOptions) -> Result<Vec<Instance>, LoadError> {
        super::checkout::Checkout::open(dir)?.instances(opts)
    }
}

impl crate::Lookup for Robotouille {
    fn data_file(&self) -> &'static str {
        "robotouille/task_graphs.json"
    }

    /// A task by number or name gives its first variant, which carries the task graph that
    /// action plans are checked on; a full instance name picks that variant.
    fn find(&self, path: &Path, name: &str, opts: &ImportOptions) -> Result<Instance, LoadError> {
        let instances = crate::import(path, opts)?;
        match select(&instances, name).first() {
            Some(found) => Ok((*found).clone()),
            None => Err(LoadError::format(
                path,
                format!("task \"{name}\""),
                "no Robotouille task of that number or name; use e.g. robotouille:7 or robotouille:7_tomato_soup_and_lettuce_chicken_sandwich",
            )),
        }
    }
}

impl crate::Answers for Robotouille {
    fn write(&self, instance: &Instance, schedule: &[ScheduledActivity]) -> Option<NativeAnswer> {
        if super::world::kitchen_of(instance).is_some() {
            // A world's plan is already the simulator's action strings, one per step.
            let (texts, _) = super::world::verify::plan_texts(schedule);
            return Some(NativeAnswer {
                extension: "txt",
                text: texts.join("\n") + "\n",
            });
        }
        Some(NativeAnswer {
            extension: "txt",
            text: super::answer_actions(instance, schedule)?,
        })
    }

    /// Action strings (one per line, or a JSON list of them) for a Robotouille instance,
    /// replayed on its task graph; the reference is any solution of the same task (an action
    /// plan belongs to the task, not to one of the importer's variants).
    fn verify(&self, answer: &Answer<'_>) -> Option<Result<VerifiedAnswer, LoadError>> {
        let instance = answer.instance?;
        let benchmark = instance.source.as_ref().map(|s| s.benchmark.as_str());
        if benchmark != Some(super::BENCHMARK) || answer.text.trim_start().starts_with('{') {
            return None;
        }
        if super::world::kitchen_of(instance).is_some() {
            return Some(super::world::verify::verify_answer(answer, instance));
        }
        Some(check_actions(answer, instance))
    }
}

fn check_actions(answer: &Answer<'_>, instance: &Instance) -> Result<VerifiedAnswer, LoadError> {
    let task = task_graph(instance).map_err(|e| LoadError::usage(answer.path, e))?;
    let parsed = read_actions(answer.path, answer.text)?;
    let checked = verify_actions(&task, &parsed);
    let reference = match answer.reference {
        Some(path) => Some(reference(path, &task.task)?),
        None => None,
    };
    let comparison = reference
        .as_ref()
        .map(|(optimum, _, _)| compare(&checked.report, *optimum));
    let goal = match checked.goal_step {
        Some(g) if (g as usize) < checked.steps => format!(
            "goal reached at step {g} (the {} line(s) after it do not count)",
            checked.steps - g as usize
        ),
        Some(g) => format!("goal reached at step {g}"),
        None => "goal not reached".to_string(),
    };
    let mut text = format!(
        "{}: {} step(s), {goal}; {} move(s), {} wait(s) before the goal\n",
        answer.path.display(),
        checked.steps,
        checked.moves,
        checked.waits
    );
    if let (Some(c), Some((_, status, name))) = (&comparison, &reference) {
        let what = if *status == Status::Optimal {
            "optimum"
        } else {
            "best known length"
        };
        text += &match c.ratio {
            Some(ratio) => format!(
                "ratio to the {what} {} ({name}): {ratio:.4} ({} step(s) lost)\n",
                c.optimum,
                c.lost_time.unwrap_or(0)
            ),
            None => format!(
                "no ratio to the {what} {} ({name}): the plan is invalid\n",
                c.optimum
            ),
        };
    }
    let json = serde_json::json!({ "robotouille": &checked, "comparison": comparison });
    Ok(VerifiedAnswer {
        schedule: step_schedule(instance, &checked.done),
        report: checked.report,
        text,
        json: NativeJson::Whole(json),
        compared: true,
        run: None,
    })
}

/// The recipe steps done, as a schedule of the instance: the step at 1-based step `s` starts
/// at `s − 1` (as `answer_actions` writes them) and lasts its duration in the instance.
fn step_schedule(instance: &Instance, done: &[(String, i64)]) -> Vec<ScheduledActivity> {
    let agent = (instance.agents == Some(1)).then_some(0);
    done.iter()
        .filter_map(|(id, step)| {
            let a = instance.activities.iter().find(|a| &a.id == id)?;
            Some(ScheduledActivity::at(
                id.clone(),
                agent,
                step - 1,
                a.duration,
            ))
        })
        .collect()
}

/// The makespan, status and instance name of a solution of the same task.
fn reference(path: &Path, task: &str) -> Result<(i64, Status, String), LoadError> {
    let solution = crate::reference_solution(path)?;
    let theirs = task_graph(&solution.instance.instance)
        .map_err(|e| LoadError::usage(path, e))?
        .task;
    if theirs != task {
        return Err(LoadError::usage(
            path,
            format!(
                "the solution is for instance \"{}\", not for Robotouille task {task}",
                solution.instance.name
            ),
        ));
    }
    match solution.makespan {
        Some(m) => Ok((m, solution.status, solution.instance.name)),
        None => Err(LoadError::usage(
            path,
            format!("the solution has no makespan (status {})", solution.status),
        )),
    }
}
