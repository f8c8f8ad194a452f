//! Robotouille behind the [`Benchmark`] trait: `task_graphs.json`, action strings replayed on
//! the task graph, native action plans written from schedules, and a user's checkout read
//! whole (every set, task and seed as a world instance).

use std::path::Path;

use makespan_model::instance::{Instance, LoadError};
use makespan_model::schedule::ScheduledActivity;
use makespan_model::solution::{Solution, Status};
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
    let comparison = reference.as_ref().map(|r| compare(&checked.report, r.best));
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
    if let (Some(c), Some(r)) = (&comparison, &reference) {
        let against = r.describe();
        text += &match c.ratio {
            Some(ratio) => format!(
                "ratio to the {against}: {ratio:.4} ({} step(s) lost)\n",
                c.lost_time.unwrap_or(0)
            ),
            None => format!("no ratio to the {against}: the plan is invalid\n"),
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

/// What an action plan of a task is compared with: the least makespan over the solutions of
/// the task's variants (the importer's choices of where the pot stands and whether it is
/// parked are ways of doing one task, so the task's optimum is the least of theirs).
struct TaskReference {
    /// The least makespan found.
    best: i64,
    /// It is the task's optimum: every variant is solved, the best one optimally, and no other
    /// variant's lower bound is below it.
    proven: bool,
    /// The variant that has it.
    name: String,
    /// Variants with a solution (the one given and those found beside it).
    solved: usize,
    /// Variants of the task.
    variants: usize,
}

impl TaskReference {
    /// `(optimum 44 (robotouille-7_…+add-sink1+serve-last, the least over the task's 4
    /// variants)`: what the ratio is taken against.
    fn describe(&self) -> String {
        let what = if self.proven {
            "optimum"
        } else {
            "best known length"
        };
        let over = match (self.variants, self.solved) {
            (1, _) => String::new(),
            (n, k) if k == n => format!(", the least over the task's {n} variants"),
            (n, k) => format!(
                ", the least over {k} of the task's {n} variants (solve the others into the same folder for the task's optimum)"
            ),
        };
        format!("{what} {} ({}{over})", self.best, self.name)
    }
}

/// The task's reference from the solution file `path` and the solutions of the task's other
/// variants in the same folder (as `solve --out` writes them); each is re-checked first.
fn reference(path: &Path, task: &str) -> Result<TaskReference, LoadError> {
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
    if solution.makespan.is_none() {
        return Err(LoadError::usage(
            path,
            format!("the solution has no makespan (status {})", solution.status),
        ));
    }
    let variants =
        super::variant_names(&solution.instance.instance).map_err(|e| LoadError::usage(path, e))?;
    let mut solutions = vec![solution];
    for sibling in siblings(path) {
        let Ok(other) = Solution::read(&sibling) else {
            continue;
        };
        let same_task = variants.contains(&other.instance.name)
            && task_graph(&other.instance.instance).is_ok_and(|t| t.task == task)
            && !solutions
                .iter()
                .any(|s| s.instance.name == other.instance.name);
        if same_task {
            if let Ok(checked) = crate::reference_solution(&sibling) {
                solutions.push(checked);
            }
        }
    }
    // The given solution has a makespan, so there is a least one.
    let mut best_solution = &solutions[0];
    for s in &solutions {
        if s.makespan
            .is_some_and(|m| best_solution.makespan.is_none_or(|b| m < b))
        {
            best_solution = s;
        }
    }
    let best = best_solution.makespan.unwrap_or_default();
    let bound = |s: &Solution| {
        if s.status == Status::Infeasible {
            i64::MAX
        } else {
            s.lower_bound.unwrap_or(0)
        }
    };
    let proven = solutions.len() == variants.len()
        && best_solution.status == Status::Optimal
        && solutions
            .iter()
            .all(|s| bound(s) >= best || s.status == Status::Optimal);
    Ok(TaskReference {
        best,
        proven,
        name: best_solution.instance.name.clone(),
        solved: solutions.len(),
        variants: variants.len(),
    })
}

/// The other solution files in the folder of `path` (not native answers).
fn siblings(path: &Path) -> Vec<std::path::PathBuf> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
            name.is_some_and(|n| n.ends_with(".json") && !n.contains(".answer."))
                && p.as_path() != path
        })
        .collect();
    files.sort();
    files
}
