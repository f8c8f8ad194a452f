//! `makespan verify` for Robotouille action plans (one simulator action string per line, or
//! a JSON list of them): replayed on the task graph of the instance named with
//! `--instance robotouille:<task>` (or any Robotouille instance of that task), every
//! violation printed with its step, then the plan's length and, with `--solution`, its
//! ratio to that solution's makespan.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{anyhow, bail, Context, Result};

use makespan::formats::robotouille::{self, task_graph};
use makespan::instance::Instance;
use makespan::solution::{Solution, Status};
use makespan::verify::compare;
use makespan::verify::robotouille_actions::{read_actions, verify_actions};

/// Verifies `text` as an action plan when the instance is a Robotouille one and the text is
/// not a JSON object (a unified plan); `None` leaves the plan to the other readers.
pub fn run_if_actions(
    plan: &Path,
    text: &str,
    instance: Option<&Instance>,
    solution: Option<&Path>,
    json: bool,
) -> Result<Option<ExitCode>> {
    let Some(instance) = instance else {
        return Ok(None);
    };
    let benchmark = instance.source.as_ref().map(|s| s.benchmark.as_str());
    if benchmark != Some(robotouille::BENCHMARK) || text.trim_start().starts_with('{') {
        return Ok(None);
    }
    let task = task_graph(instance).map_err(|e| anyhow!("{e}"))?;
    let parsed = read_actions(plan, text)?;
    let checked = verify_actions(&task, &parsed);
    let reference = match solution {
        Some(path) => Some(reference(path, &task.task)?),
        None => None,
    };
    let comparison = reference
        .as_ref()
        .map(|(optimum, _, _)| compare(&checked.report, *optimum));
    if json {
        let value = serde_json::json!({ "robotouille": checked, "comparison": comparison });
        println!("{}", serde_json::to_string_pretty(&value)?);
    } else {
        print!("{}", checked.report.render_text());
        let goal = match checked.goal_step {
            Some(g) if (g as usize) < checked.steps => format!(
                "goal reached at step {g} (the {} line(s) after it do not count)",
                checked.steps - g as usize
            ),
            Some(g) => format!("goal reached at step {g}"),
            None => "goal not reached".to_string(),
        };
        println!(
            "{}: {} step(s), {goal}; {} move(s), {} wait(s) before the goal",
            plan.display(),
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
            match c.ratio {
                Some(ratio) => println!(
                    "ratio to the {what} {} ({name}): {ratio:.4} ({} step(s) lost)",
                    c.optimum,
                    c.lost_time.unwrap_or(0)
                ),
                None => println!(
                    "no ratio to the {what} {} ({name}): the plan is invalid",
                    c.optimum
                ),
            }
        }
    }
    Ok(Some(if checked.report.valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }))
}

/// The makespan, status and instance name of a solution of the same task (any variant: an
/// action plan belongs to the task, not to one of the importer's variants).
fn reference(path: &Path, task: &str) -> Result<(i64, Status, String)> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("{}: cannot read the solution", path.display()))?;
    let solution: Solution = serde_json::from_str(&text)
        .with_context(|| format!("{}: not a makespan-solution/1 file", path.display()))?;
    let theirs = task_graph(&solution.instance.instance)
        .map_err(|e| anyhow!("{}: {e}", path.display()))?
        .task;
    if theirs != task {
        bail!(
            "{}: the solution is for instance \"{}\", not for Robotouille task {task}",
            path.display(),
            solution.instance.name
        );
    }
    match solution.makespan {
        Some(m) => Ok((m, solution.status, solution.instance.name)),
        None => bail!(
            "{}: the solution has no makespan (status {})",
            path.display(),
            solution.status
        ),
    }
}
