//! `makespan verify` for Recipe2Plan `Step(...)` answers: parse, verify, and print the
//! benchmark's metrics against its heuristic plan (`plan.json` beside `cooking.json`) and
//! against the optimum (`--solution`, else `solutions/recipe2plan/<instance>.json` when it
//! exists).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};

use makespan::formats::recipe2plan::{self, PlanAction};
use makespan::instance::Instance;
use makespan::solution::Solution;
use makespan::verify::step_plans::{parse_steps, schedule_actions, verify_steps};

/// Verifies `text` as a Step answer when the instance is a Recipe2Plan one and the text is
/// not JSON; `None` leaves the plan to the other readers.
pub fn run_if_steps(
    plan: &Path,
    text: &str,
    instance: Option<&Instance>,
    solution: Option<&Path>,
    json: bool,
) -> Result<Option<ExitCode>> {
    let Some(instance) = instance else {
        return Ok(None);
    };
    let Some((key, level)) = recipe2plan::key_and_level(instance) else {
        return Ok(None);
    };
    if text.trim_start().starts_with('{') {
        return Ok(None);
    }
    let parsed = parse_steps(text);
    let heuristic = heuristic_plan(instance, &key, level);
    let default_solution = PathBuf::from(format!("solutions/recipe2plan/{}.json", instance.name));
    let solution_path = solution
        .map(Path::to_path_buf)
        .or_else(|| default_solution.exists().then_some(default_solution));
    let optimum = match &solution_path {
        Some(path) => Some(optimum_actions(path)?),
        None => None,
    };
    let checked = verify_steps(instance, &parsed, heuristic.as_deref(), optimum.as_deref());
    if json {
        println!("{}", serde_json::to_string_pretty(&checked)?);
    } else {
        print!("{}", checked.report.render_text());
        let m = &checked.metrics;
        let pct = |v: Option<f64>| v.map_or("-".to_string(), |x| format!("{:.2} %", 100.0 * x));
        println!(
            "{}: {} action(s), {} malformed; multitasking efficiency {}, relative efficiency {} (vs the benchmark heuristic), {} (vs the optimum); progress {:.1} %; success {}",
            plan.display(),
            parsed.actions.len(),
            parsed.malformed.len(),
            pct(m.multitasking_efficiency),
            pct(m.relative_efficiency_heuristic),
            pct(m.relative_efficiency_optimum),
            100.0 * m.progress,
            m.success
        );
    }
    Ok(Some(if checked.report.valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }))
}

/// The benchmark's heuristic plan of this instance, from `plan.json` beside the instance file.
fn heuristic_plan(
    instance: &Instance,
    key: &str,
    level: recipe2plan::Level,
) -> Option<Vec<PlanAction>> {
    let file = instance.source.as_ref()?.file.as_ref()?;
    let path = Path::new(file).with_file_name("plan.json");
    let plans = recipe2plan::read_baseline(&path).ok()?;
    plans.get(&(key.to_string(), level))?.clone()
}

fn optimum_actions(path: &Path) -> Result<Vec<PlanAction>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("{}: cannot read the solution", path.display()))?;
    let solution: Solution = serde_json::from_str(&text)
        .with_context(|| format!("{}: not a makespan-solution/1 file", path.display()))?;
    Ok(schedule_actions(&solution.schedule))
}
