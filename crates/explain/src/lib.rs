//! Why a plan lost time, as text and as a picture: the explanation of a schedule
//! ([`explain()`]) and its Gantt chart ([`gantt`], SVG and self-contained HTML). Depends on
//! the instance model and the verifier only (no benchmark, no solver, no HiGHS), and works
//! on any schedule of an instance, valid or not: the facade turns every plan form `verify`
//! reads into one.
//!
//! # Definitions
//!
//! **Could have started earlier with everything else unchanged.** Activity `a` starts at `s`.
//! Move all its pieces `δ` earlier, keep its agent, keep every other activity where it is.
//! The shift is *allowed* when it breaks no rule that the plan did not already break; `a`'s
//! **earliest start** is `s − w` for the largest `w ≥ 0` such that every shift `1 … w` is
//! allowed, and `w` is its **unforced wait**. Per rule, a shift `δ` is forbidden when:
//! - *time 0*: `s − δ < 0` (plans start at 0);
//! - *release (window)*: `s − δ` is before `a`'s release (a deadline never forbids moving
//!   earlier);
//! - *precedence / min lag*: `a` is the successor and its start falls before the
//!   predecessor's end (finish-to-start) or start (start-to-start) plus the minimum lag;
//! - *max lag (time window)*: `a` is the predecessor and some piece of the successor would
//!   start more than the maximum lag after `a`'s anchor;
//! - *agent*: on `a`'s named agent, a busy interval of `a` (every piece for `whole`, the first
//!   `k` units for `busy_for`) meets another's busy interval it did not meet; or `a`'s start
//!   instant (`start` agent use) falls strictly inside another's non-preemptible work; or
//!   `a`'s non-preemptible work comes to surround another's start instant. With a pool of
//!   unassigned agents: more than `m` busy at an instant, or no free agent for `a`'s instant;
//! - *setup*: the agent's previous busy interval (by start) ends less than the setup time
//!   between the two stations before `a`'s;
//! - *resource* (unary or cumulative, with holds): at some instant `a` newly covers, the
//!   others' load (activities' pieces, holds from `from`'s start to `until`'s end) plus `a`'s
//!   amount exceeds the capacity; a hold that `a` begins moves with it;
//! - *state*: a value `a` requires is no longer the latest set at the earlier instant; or a
//!   value `a` sets would be set at or before the start of another activity that requires or
//!   sets a different value (at or before: the verifier's "sets at `t` or before are seen").
//!
//! The rules that forbid shift `w + 1` are `a`'s **reasons** (the instance's rules listed
//! before the plan's choices). These are the verifier's rules read for one activity at a time;
//! the property tests check that shifting by `1 … w` verifies and `w + 1` does not.
//!
//! **Critical chain.** Start at the activity that ends last (latest start among ties). Its
//! reason names the activity behind it (the predecessor, the agent's or the resource's
//! holder, the previous activity at a station, the setter of a state); step back to that
//! activity, then the same from there, until a reason names no activity (time 0, a release).
//! Where several rules bind at once, the step takes a link forward in time (the activity
//! behind it starts no later than the earliest start) whose chain back to 0 has the least
//! unforced wait, ties going to the instance's own rules; only if none exists a link back in
//! time (a max lag, a negative lag). No activity is visited twice; an activity whose every
//! link leads to one already visited ends the chain, its link then counted from 0. Each [`ChainStep`] covers `[from, to)`: the link `[from,
//! ready)` (lag, setup, release; negative for a negative lag), the unforced wait `[ready,
//! start)`, the activity `[start, to)` where `to` is where the next step links to it (its end,
//! the end of its busy part, its start plus a start-to-start lag) clamped to `[start, end]`.
//! Steps follow each other without gaps from 0 to the makespan, so their lengths sum to it.
//!
//! **Lost time** against a reference schedule `R` (an optimum, or any solution):
//! `lost = makespan − R`, split along the chain into parts that are never negative and sum to
//! it. With the chain's activities `c₁ … cₙ`, the plan's lateness at each is `Dᵢ = sᵢ − s'ᵢ`
//! (its start in the plan less its start in the reference; `D₀ = 0`, and `Dₙ₊₁ = lost` at the
//! end). Step `i` is charged with the lateness it added that the plan never made up:
//! `Kᵢ − Kᵢ₋₁` with `Kᵢ = max(0, min over j ≥ i of Dⱼ)`, which grows from 0 to `lost`. The
//! charge goes first to the step's **unforced wait**; the remainder, when the step's link is an
//! **ordering choice** (agent, setup, resource, state: two activities the instance does not
//! order, put one after the other by the plan), to that choice; when the instance imposes the
//! link (precedence, window, release, time 0), and for the tail after the last start, to
//! `rest` (0 against a valid reference, which obeys the same rules). So `lost = waits on the
//! chain + Σ ordering costs + rest`, every part ≥ 0 (all 0 when the plan is the shorter).
//!
//! **Agents.** Per agent, from 0 to the makespan: busy, idle while nothing was ready, idle
//! while work was ready (an activity needing an agent not started yet whose release and
//! predecessors' lags had passed); see [`AgentTime`].

#![warn(missing_docs)]

mod explain;
pub mod gantt;

pub use explain::{
    explain, ActivityTiming, AgentTime, ChainStep, ExplainError, Explanation, LostTime,
    OrderingChoice, Reason, Reference, Wait,
};
