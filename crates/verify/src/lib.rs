//! The independent plan verifier: every rule of the instance model checked against a
//! schedule, every violation reported as a value naming the rule, the activities, the time
//! and a fix. It shares no code with the solver, so a solver bug cannot hide behind it.
//!
//! Inputs: a unified plan or solution file ([`plan`]); a benchmark's native answer is
//! turned into a schedule by that benchmark's reader (`makespan_benchmarks`). All end in
//! [`verify`]. This crate depends on the instance model only, never on the solver, so the
//! checker builds without HiGHS.
//!
//! # Decisions where the model leaves room
//! - **Which entry counts.** Only the first entry of an activity is checked by the timing
//!   rules; extra entries are reported once as [`Rule::DuplicateActivity`]. An entry with
//!   no pieces or a piece ending before it starts is reported as [`Rule::BadPiece`] and
//!   takes part in no other rule, so one typo does not cascade.
//! - **Pieces** are half-open `[start, end)`. A zero-duration activity has one piece
//!   `[s, s]`; a positive one has no empty pieces. A non-preemptible activity split into
//!   touching pieces is still [`Rule::NotPreemptible`].
//! - **Agent use.** `whole` keeps the agent busy over every piece, `busy_for: k` over the
//!   first `k` units of processing, `none` never; a zero-duration activity is a milestone
//!   and needs no agent. `start` needs the agent at its start instant only: it may not start strictly inside
//!   a busy interval of a non-preemptible activity (`whole` or `busy_for`) on the same agent;
//!   inside a preemptible one it is allowed, the agent pausing for zero time (a cook
//!   steps away from an interruptible step to start another), and the resumption counts as a piece start for max lags.
//! - **Unassigned agents.** With one agent, an entry without an agent is agent 0. With
//!   `m ≥ 2` agents, a plan may leave every agent out: then agents are checked as a pool
//!   ([`Rule::TooManyAgents`] when more than `m` are busy at an instant; exact, since
//!   identical agents can be assigned by interval colouring). A plan that names agents for
//!   some activities but not others gets [`Rule::AgentMissing`] for the unnamed ones (fitting
//!   them into the named agents' gaps is a search, not a check), and so do unnamed activities
//!   at stations when the instance has setup times. With unlimited agents indices are
//!   optional and an unnamed activity has an agent of its own.
//! - **Max lags** bind the start of every piece of the successor (a window applies to every
//!   action of an interrupted step, not only its first); min lags bind its first piece; a finish-to-start lag is
//!   measured from the end of the predecessor's last piece.
//! - **Resources** are held over every piece; identical intervals count twice.
//! - **States** are set at the setter's start and persist; a requirement at `t` sees sets by
//!   other activities at `t` or before; different values set at one instant conflict.
//! - **Metrics.** Makespan is the latest end of any placed activity. Agent idle time, for
//!   `m` limited agents, is `m × makespan − busy time`: for a valid plan, the sum over all
//!   agents of (makespan − that agent's busy time).

#![warn(missing_docs)]

mod metrics;
pub mod placed;
pub mod plan;
mod recheck;
mod report;
mod rules;
#[cfg(test)]
mod testkit;

pub use recheck::{recheck, recheck_with};
pub use report::{compare, Comparison, Report, Rule, Violation};

use makespan_model::instance::Instance;
use makespan_model::schedule::ScheduledActivity;

use placed::Placements;
use rules::{agents, coverage, holds, pieces, precedence, resources, setups, states, windows};

/// Checks a schedule against every rule of the instance and measures it. Never panics on
/// any input: unknown ids, extreme times and malformed pieces become violations.
pub fn verify(instance: &Instance, schedule: &[ScheduledActivity]) -> Report {
    let placements = Placements::new(instance, schedule);
    let mut violations = Vec::new();
    let out = &mut violations;
    coverage::unknown_activities(instance, schedule, out);
    coverage::missing_activities(instance, schedule, out);
    coverage::duplicate_activities(instance, schedule, out);
    pieces::bad_pieces(instance, schedule, out);
    pieces::not_preemptible(&placements, out);
    windows::release(&placements, out);
    windows::deadline(&placements, out);
    precedence::min_lags(&placements, out);
    precedence::max_lags(&placements, out);
    agents::out_of_range(&placements, out);
    agents::missing(&placements, out);
    agents::double_booked(&placements, out);
    agents::pool_capacity(&placements, out);
    setups::setups(&placements, out);
    resources::over_capacity(&placements, out);
    holds::over_capacity(&placements, out);
    states::states(&placements, out);
    let m = metrics::measure(&placements);
    Report {
        instance: instance.name.clone(),
        valid: violations.is_empty(),
        violations,
        makespan: m.makespan,
        busy_time: m.busy_time,
        agent_idle_time: m.agent_idle_time,
        peak_agents: m.peak_agents,
    }
}
