//! Lost time against a reference, split along the critical chain (definition in the crate
//! docs) into parts that are never negative and sum to the loss. With the chain's activities
//! `c₁ … cₙ`, the plan's lateness at each is `Dᵢ = sᵢ − s'ᵢ` (its start in the plan less its
//! start in the reference; `D₀ = 0` at time 0, `Dₙ₊₁ = makespan − reference` at the end). A
//! step is charged with the lateness it added that the plan never made up afterwards:
//! `Kᵢ − Kᵢ₋₁`, where `Kᵢ = max(0, min over j ≥ i of Dⱼ)` grows from 0 to the loss. The
//! charge goes first to the step's unforced wait, the remainder to its ordering choice (agent,
//! setup, resource, state) or, for a link the instance imposes and the tail after the chain's
//! last start, to `rest`. Signed terms (an ordering choice +77 beside a rest of −30 for a loss
//! of 47) cancelled and could not be read as shares of the loss; these can.

use serde::Serialize;

use super::chain::ChainStep;
use super::{ExplainError, Reason, Reference};
use makespan_verify::placed::Placements;

/// The time lost against a reference, in parts that are never negative and sum exactly to
/// `lost` (to 0 when the plan is shorter than the reference).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LostTime {
    /// The reference's makespan.
    pub reference: i64,
    /// Whether the reference is a proven optimum.
    pub optimal: bool,
    /// `makespan − reference` (negative when the plan is the shorter).
    pub lost: i64,
    /// The lasting loss charged to unforced waits on the critical chain.
    pub waits: i64,
    /// The ordering choices on the chain, each with the lasting loss charged to it.
    pub ordering: Vec<OrderingChoice>,
    /// The lasting loss charged to the links the instance imposes and to the chain's tail
    /// (0 against a valid reference, which obeys the same rules).
    pub rest: i64,
}

impl LostTime {
    /// The ordering choices' costs, summed.
    pub fn ordering_total(&self) -> i64 {
        self.ordering.iter().map(|o| o.cost).sum()
    }
}

/// A chain link the plan chose: `after` waits for `before` on an agent, a resource, a
/// station or a state the instance does not order them by.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OrderingChoice {
    /// The activity the plan put first.
    pub before: String,
    /// The one that waited for it.
    pub after: String,
    /// What links them.
    pub reason: Reason,
    /// The lateness against the reference this choice added (beyond the unforced wait before
    /// `after`) that the plan never made up afterwards; never negative.
    pub cost: i64,
}

pub(super) fn lost_time(
    plan: &Placements,
    chain: &[ChainStep],
    reference: Reference<'_>,
) -> Result<LostTime, ExplainError> {
    let theirs = Placements::new(plan.instance, reference.schedule);
    let lost = plan.makespan() - reference.makespan;
    // The plan's lateness against the reference at time 0, at each chain step, at the end.
    let mut lateness = vec![0];
    for step in chain {
        let s_ref = theirs
            .get(&step.activity)
            .map(|p| p.start())
            .ok_or_else(|| ExplainError::ReferenceLacks(step.activity.clone()))?;
        lateness.push(step.start - s_ref);
    }
    lateness.push(lost);
    // Lateness from step k on that is never made up: the least lateness from k to the end.
    let mut kept = lateness.clone();
    for k in (0..kept.len() - 1).rev() {
        kept[k] = kept[k].min(kept[k + 1]);
    }
    let kept: Vec<i64> = kept.into_iter().map(|d| d.max(0)).collect();
    let (mut waits, mut rest, mut ordering) = (0, 0, Vec::new());
    for (k, step) in chain.iter().enumerate() {
        // What step k added to the lateness that lasted; its unforced wait first.
        let charge = kept[k + 1] - kept[k];
        let wait = step.wait().clamp(0, charge);
        waits += wait;
        match &step.after {
            Some(before) if step.reason.is_ordering_choice() => ordering.push(OrderingChoice {
                before: before.clone(),
                after: step.activity.clone(),
                reason: step.reason.clone(),
                cost: charge - wait,
            }),
            _ => rest += charge - wait,
        }
    }
    rest += kept[kept.len() - 1] - kept[kept.len() - 2];
    Ok(LostTime {
        reference: reference.makespan,
        optimal: reference.optimal,
        lost,
        waits,
        ordering,
        rest,
    })
}
