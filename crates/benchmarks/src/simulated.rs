//! Simulated worlds: benchmarks whose rules are a simulator rather than an activity graph
//! (Robotouille's seeded kitchens, ParaCook's cooks on maps).
//!
//! Such an instance is still an [`Instance`], so that files, names, solution files, `verify`,
//! `explain` and `gantt` treat it like any other, with two differences the facade dispatches
//! on ([`simulated_of`]):
//! - its note [`WORLD_NOTE`] holds everything the benchmark's simulator needs (the seeded
//!   layout, the goal, the game's constants), so a solution file that embeds the instance can
//!   be replayed without the checkout it came from;
//! - its activities are a **relaxation** of the world (choices fixed, travel as lags): the
//!   scheduling engine's optimum on them is a lower bound for the world, passed to the search
//!   as [`Limits::known_bound`], never the world's optimum itself.
//!
//! A world's plan is a schedule whose entries are the plan's actions, in order: `activity` is
//! the action as the benchmark's simulator writes it (e.g. `pick(lettuce1, robot1)`), `agent`
//! the robot or cook, one piece `[start, end)`. Such a schedule is checked by replaying it in
//! the simulator ([`Simulated::replay`]), never against the relaxation's activities.

use makespan_model::instance::{Instance, LoadError};
use makespan_model::schedule::ScheduledActivity;
use makespan_model::solution::{Solution, Status};
use makespan_verify::Report;
pub use makespan_world::Limits;

use crate::registry::benchmark_of;

/// The note of a world instance that holds its simulator's data.
pub const WORLD_NOTE: &str = "world";

/// A benchmark's simulator, as the facade uses it.
pub trait Simulated: Sync {
    /// Searches the instance's world for a shortest plan within `limits`. Every plan returned
    /// has been replayed by the simulator ([`Simulated::replay`]) and reaches the goal.
    fn solve(&self, instance: &Instance, limits: &Limits) -> Result<WorldSolution, LoadError>;

    /// Replays a plan (see the module docs for its form) and reports every step the
    /// simulator refuses ([`makespan_verify::Rule::PreconditionFailed`], the precondition
    /// named in the game's words), whether the goal is reached
    /// ([`makespan_verify::Rule::GoalNotReached`]), and the plan's makespan.
    fn replay(&self, instance: &Instance, plan: &[ScheduledActivity]) -> Report;

    /// A plan drawn as activities of `graph` for pictures and explanations, when the
    /// simulator can say more than the plan's numbered steps: the steps on the world's own
    /// time axis, the resources they occupy as resources of `graph`, and what the world does
    /// by itself (a pot cooking, an order served) as activities without an agent. Ids start
    /// with `prefix` (a plan and its reference share `graph`). `None`: the steps are drawn
    /// as they are.
    fn draw(
        &self,
        _instance: &Instance,
        _plan: &[ScheduledActivity],
        _prefix: &str,
        _graph: &mut Instance,
    ) -> Option<Vec<ScheduledActivity>> {
        None
    }

    /// The plan's time under each of the simulator's rule sets, by name, for a world whose
    /// simulator has several (the benchmark's game as it runs and the rules its prompt
    /// states); empty for one rule set. A rule set under which the plan fails has no time.
    fn times(
        &self,
        _instance: &Instance,
        _plan: &[ScheduledActivity],
    ) -> std::collections::BTreeMap<String, Option<f64>> {
        std::collections::BTreeMap::new()
    }

    /// The step count the benchmark itself states as the instance's optimum, the budget its
    /// harness derives from it, and whether that budget is the one the true optimum would
    /// give, as far as `lower_bound` and `makespan` (a solution's) pin the optimum down.
    /// `None` where the benchmark states no count for the instance.
    fn budget(
        &self,
        _instance: &Instance,
        _lower_bound: Option<i64>,
        _makespan: Option<i64>,
    ) -> Option<Budget> {
        None
    }
}

/// A benchmark's own "optimal" step count for an instance and the budget its harness gives a
/// run from it, judged against the instance's optimum ([`Simulated::budget`]).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Budget {
    /// The count the benchmark states (hard-coded in its configuration).
    pub stated: i64,
    /// The most actions its harness lets a run take, from that count.
    pub allowed: i64,
    /// How that budget compares with the one the true optimum would give.
    pub verdict: BudgetVerdict,
}

/// A budget against the one the true optimum would give by the same rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BudgetVerdict {
    /// The stated count is the optimum (proven).
    Fair,
    /// The stated count is below every possible optimum (below the proven bound): runs get
    /// fewer steps than the rule means to give them.
    Below,
    /// The stated count is above a plan's length, so above the optimum: runs get more steps.
    Above,
    /// The optimum is not pinned down enough to say (no proven optimum, and the count lies
    /// between the bound and the best plan).
    Unknown,
}

impl BudgetVerdict {
    /// The verdict on a stated count `stated` when the optimum is at least `lower_bound` and
    /// at most `makespan`; the budget rule being strictly increasing, the budget is fair
    /// exactly when the stated count is the optimum.
    pub fn of(stated: i64, lower_bound: Option<i64>, makespan: Option<i64>) -> BudgetVerdict {
        let low = lower_bound.unwrap_or(0);
        match makespan {
            _ if stated < low => BudgetVerdict::Below,
            Some(m) if stated > m => BudgetVerdict::Above,
            Some(m) if m == low && stated == m => BudgetVerdict::Fair,
            _ => BudgetVerdict::Unknown,
        }
    }
}

/// What a search over a world established.
#[derive(Debug, Clone)]
pub struct WorldSolution {
    /// `Optimal` only when the search was exhaustive under an admissible bound or a proven
    /// bound meets the plan; `Feasible` with a plan and a lower bound below it; `Infeasible`
    /// when no plan exists; `Error` when a limit stopped the search before any plan was
    /// found (the bound still holds).
    pub status: Status,
    /// The best plan found (empty when none was).
    pub plan: Vec<ScheduledActivity>,
    /// The best proven lower bound on the optimum.
    pub lower_bound: Option<i64>,
    /// The method that found the plan (e.g. `world:astar`).
    pub method: String,
    /// Why the plan is not proven optimal, or why there is none.
    pub reason: Option<String>,
    /// States the search kept, for progress and speed reports.
    pub states: u64,
}

/// The simulator of an instance that is a simulated world (it has the [`WORLD_NOTE`] note
/// and its benchmark has a simulator), or `None` for an activity graph.
pub fn simulated_of(instance: &Instance) -> Option<&'static dyn Simulated> {
    let source = instance.source.as_ref()?;
    if !source.notes.contains_key(WORLD_NOTE) {
        return None;
    }
    benchmark_of(instance)?.simulated()
}

/// Verifies a schedule of any instance: a simulated world's plan is replayed by its
/// simulator, any other schedule is checked against the activity graph's rules.
pub fn verify_schedule(instance: &Instance, schedule: &[ScheduledActivity]) -> Report {
    match simulated_of(instance) {
        Some(simulator) => simulator.replay(instance, schedule),
        None => makespan_verify::verify(instance, schedule),
    }
}

/// [`makespan_verify::recheck`] for any solution file, a simulated world's included (its plan
/// replayed by the simulator): what a file can prove about itself before it is trusted.
pub fn recheck(solution: &Solution) -> Result<(), String> {
    makespan_verify::recheck_with(solution, verify_schedule)
}
