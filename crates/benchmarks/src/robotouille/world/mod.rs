//! Robotouille as it is evaluated: the release backend's rules as a simulator over seeded
//! or default kitchens, the verifier of action strings step by step, and the search for
//! shortest plans.
//!
//! A world instance is an [`Instance`] whose note `world` ([`crate::WORLD_NOTE`]) is the
//! checkout reader's [`super::checkout::WorldNote`]: the set, task and seed, and the
//! environment JSON exactly as upstream's generator produces it for that seed (or the
//! file's own layout for the default one). Everything the simulator needs is there, so a
//! solution that embeds its instance replays without the checkout. Its activities are a
//! relaxation ([`super::relaxation`]), so the scheduling engine's optimum on them is a
//! bound, never the world's optimum.
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

use serde_json::Value;

use std::path::Path;

use makespan_model::instance::{Instance, LoadError};
use makespan_model::schedule::ScheduledActivity;
use makespan_model::solution::Status;
use makespan_verify::Report;

pub use kitchen::Kitchen;
pub use replay::{replay_texts, StepOutcome, WorldReplay};
pub use rules::{Act, State};
pub use search::{solve_kitchen, solve_kitchen_blind, KitchenWorld};

use crate::{Budget, BudgetVerdict, Limits, Simulated, WorldSolution, WORLD_NOTE};

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

    /// The hard-coded count of the instance's task (the same for every seed) and the budget
    /// ⌈1.5 × count⌉ the harness gives; the multi-agent set has none.
    fn budget(
        &self,
        instance: &Instance,
        lower_bound: Option<i64>,
        makespan: Option<i64>,
    ) -> Option<Budget> {
        let note = super::checkout::WorldNote::of(instance)?.ok()?;
        let stated = note.reference_optimal_steps?;
        Some(Budget {
            stated,
            allowed: upstream_budget(stated),
            verdict: BudgetVerdict::of(stated, lower_bound, makespan),
        })
    }
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
