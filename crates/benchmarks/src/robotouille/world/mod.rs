//! Robotouille as it is evaluated: the release backend's rules as a simulator over seeded
//! or default kitchens, the verifier of action strings step by step, and the search for
//! shortest plans.
//!
//! A world instance is an [`Instance`] whose note `world` ([`crate::WORLD_NOTE`]) holds
//! `{"set", "task", "seed", "effective_seed", "noisy", "file", "environment"}`: the
//! environment JSON exactly as upstream's generator produces it for that seed (or the
//! file's own layout when `seed` is null). Everything the simulator needs is there, so a
//! solution that embeds its instance replays without the checkout. Its one activity is a
//! relaxation (the admissible lower bound of the start state as a single step of work), so
//! the scheduling engine's optimum on it is a bound, never the world's optimum.
//!
//! Where the rules come from: `domain/robotouille.json` of upstream's `release` branch as
//! `backend/` applies it ([`rules`]), the builder's naming and start predicates
//! ([`kitchen`]) and its goal ([`goal`]). They are written here, not read from a
//! checkout; [`release_domain`] checks that a checkout's domain file is the release one.

pub mod goal;
pub mod kitchen;
pub mod replay;
pub mod rules;
pub mod search;
pub mod symmetry;
pub mod verify;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use serde_json::{json, Value};

use std::path::Path;

use makespan_model::instance::{Activity, Instance, LoadError, Source, TimeUnit};
use makespan_model::schedule::ScheduledActivity;
use makespan_model::solution::Status;
use makespan_verify::Report;

pub use kitchen::Kitchen;
pub use replay::{replay_texts, StepOutcome, WorldReplay};
pub use rules::{Act, State};
pub use search::{solve_kitchen, solve_kitchen_blind, KitchenWorld};

use super::BENCHMARK;
use crate::{Limits, Simulated, WorldSolution, WORLD_NOTE};

/// Robotouille's simulator, as the facade solves and replays world instances with it.
pub struct RobotouilleWorld;

impl Simulated for RobotouilleWorld {
    /// A* over the kitchen's states; the plan is the simulator's action strings, one step
    /// each (`[t, t + 1)`, the robot as the agent), replayed before it is returned.
    fn solve(&self, instance: &Instance, limits: &Limits) -> Result<WorldSolution, LoadError> {
        let here = Path::new(&instance.name);
        let kitchen = kitchen_of(instance)
            .unwrap_or_else(|| Err("not a world instance (no source.notes.world)".into()))
            .map_err(|e| LoadError::usage(here, e))?;
        let found = solve_kitchen(&kitchen, limits).map_err(|e| LoadError::usage(here, e))?;
        let plan: Vec<ScheduledActivity> = found
            .plan
            .iter()
            .enumerate()
            .map(|(t, act)| {
                ScheduledActivity::at(act.text(&kitchen), act.robot().map(u32::from), t as i64, 1)
            })
            .collect();
        let report = self.replay(instance, &plan);
        if found.status != Status::Infeasible && found.status != Status::Error && !report.valid {
            return Err(LoadError::usage(
                here,
                format!(
                    "the search's plan does not replay: {}",
                    report.render_text()
                ),
            ));
        }
        let reason = match found.status {
            Status::Optimal => None,
            Status::Feasible => Some(format!(
                "the search stopped at a limit ({} states expanded) with a plan of {} step(s) and a bound of {}",
                found.states,
                plan.len(),
                found.bound
            )),
            Status::Infeasible => Some("no sequence of actions reaches the goal".into()),
            _ => Some(format!(
                "the search stopped at a limit ({} states expanded) before reaching the goal; the optimum is at least {}",
                found.states, found.bound
            )),
        };
        Ok(WorldSolution {
            status: found.status,
            plan,
            lower_bound: Some(found.bound),
            method: "world:astar".into(),
            reason,
            states: found.states,
        })
    }

    fn replay(&self, instance: &Instance, plan: &[ScheduledActivity]) -> Report {
        let kitchen = match kitchen_of(instance) {
            Some(Ok(k)) => k,
            Some(Err(e)) => {
                return Report::malformed_answer(
                    &instance.name,
                    e,
                    "import the kitchen again".into(),
                )
            }
            None => {
                return Report::malformed_answer(
                    &instance.name,
                    "not a world instance (no source.notes.world)".into(),
                    "verify the plan against the world instance it was made for".into(),
                )
            }
        };
        let (texts, starts) = verify::plan_texts(plan);
        let replay = replay_texts(&kitchen, &texts);
        verify::report_of(&instance.name, &replay, &starts)
    }
}

/// The three sets of Robotouille's environments.
pub const SETS: [&str; 3] = ["synchronous", "asynchronous", "multi_agent"];

/// The world instance of one environment (the seeds' checkout reader calls this for
/// every (set, task, seed)). `environment` is the environment JSON as upstream's generator
/// produces it for `seed` (`None`: the file's default layout); `effective_seed` is the seed
/// the generator succeeded with (upstream retries seed+1 after an exception); `file` is the
/// environment file's path relative to the checkout. Errors name the JSON path.
pub fn world_instance(
    environment: &Value,
    set: &str,
    task: u32,
    seed: Option<u64>,
    effective_seed: Option<u64>,
    noisy: bool,
    file: &str,
) -> Result<Instance, String> {
    if !SETS.contains(&set) {
        return Err(format!(
            "set \"{set}\": not a Robotouille set (synchronous, asynchronous, multi_agent)"
        ));
    }
    let kitchen = Kitchen::from_environment(environment).map_err(|e| format!("environment.{e}"))?;
    let name = match seed {
        Some(s) => format!("{BENCHMARK}-{set}-{task}-s{s}"),
        None => format!("{BENCHMARK}-{set}-{task}-default"),
    };
    let mut instance = Instance::new(name, Some(kitchen.robots.len() as u32));
    instance.time_unit = TimeUnit::Step;
    let bound = search::KitchenWorld::new(&kitchen).initial_bound().max(1);
    let mut relaxation = Activity::new("kitchen", bound);
    relaxation.label = Some(format!(
        "a relaxation: at least {bound} step(s) of work (the search's lower bound at the start)"
    ));
    instance.activities.push(relaxation);
    let mut notes = BTreeMap::new();
    notes.insert(
        WORLD_NOTE.to_string(),
        json!({
            "set": set,
            "task": task,
            "seed": seed,
            "effective_seed": effective_seed,
            "noisy": noisy,
            "file": file,
            "environment": environment,
        }),
    );
    notes.insert("goal".into(), json!(kitchen.goal_description));
    if let Some(steps) = upstream_optimal_steps(set, task) {
        notes.insert("upstream_optimal_steps".into(), json!(steps));
    }
    instance.source = Some(Source {
        benchmark: BENCHMARK.to_string(),
        file: Some(file.to_string()),
        notes,
    });
    Ok(instance)
}

/// The kitchen of a world instance (`None`: not a world instance).
pub fn kitchen_of(instance: &Instance) -> Option<Result<Kitchen, String>> {
    let world = instance.source.as_ref()?.notes.get(WORLD_NOTE)?;
    let env = match world.get("environment") {
        Some(env) => env,
        None => return Some(Err(format!("{WORLD_NOTE}.environment: missing"))),
    };
    Some(
        Kitchen::from_environment(env)
            .map_err(|e| format!("source.notes.{WORLD_NOTE}.environment.{e}")),
    )
}

/// The set and task of a world instance.
pub fn set_and_task(instance: &Instance) -> Option<(String, u32)> {
    let world = instance.source.as_ref()?.notes.get(WORLD_NOTE)?;
    Some((
        world.get("set")?.as_str()?.to_string(),
        u32::try_from(world.get("task")?.as_u64()?).ok()?,
    ))
}

/// Upstream's hard-coded "optimal" step count of a task (`optimal_steps` in the experiment
/// configs, for the default layout; the harness's budget is 1.5 times it, for every
/// seed). The multi-agent set has no experiment config.
pub fn upstream_optimal_steps(set: &str, task: u32) -> Option<i64> {
    const SYNCHRONOUS: [i64; 10] = [10, 14, 24, 10, 15, 23, 36, 44, 63, 57];
    const ASYNCHRONOUS: [i64; 10] = [21, 27, 37, 42, 46, 19, 42, 46, 68, 82];
    let table = match set {
        "synchronous" => &SYNCHRONOUS,
        "asynchronous" => &ASYNCHRONOUS,
        _ => return None,
    };
    table.get(task as usize).copied()
}

/// The most actions the harness executes: its loop runs while `steps < 1.5 × optimal_steps`,
/// so ⌈1.5 × optimal_steps⌉.
pub fn upstream_budget(optimal_steps: i64) -> i64 {
    (3 * optimal_steps + 1) / 2
}

/// The fingerprint of `domain/robotouille.json` at upstream's `release` commit c8236a2e (its
/// JSON as parsed, in the file's key order): a checkout whose domain differs in any action,
/// predicate or effect is not the one these rules were written from.
const RELEASE_DOMAIN_FINGERPRINT: u64 = 0x0c32_0530_f5ca_2d6d;

/// Checks that `domain` (the JSON of a checkout's `domain/robotouille.json`) is the release
/// domain these rules reproduce.
pub fn release_domain(domain: &Value) -> Result<(), String> {
    let got = fingerprint(domain);
    if got == RELEASE_DOMAIN_FINGERPRINT {
        Ok(())
    } else {
        Err(format!(
            "the domain is not Robotouille's release domain (fingerprint {got:016x}): makespan's simulator reproduces the rules of upstream's `release` branch (c8236a2e); check out that commit"
        ))
    }
}

/// FNV-1a over the domain's canonical JSON text (keys sorted by serde_json's map).
fn fingerprint(domain: &Value) -> u64 {
    let text = domain.to_string();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}
