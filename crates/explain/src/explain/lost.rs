//! Lost time against a reference, split along the critical chain (definition in the crate
//! docs). With the chain's activities `c₁ … cₙ`, their starts `sᵢ` in the plan and `s'ᵢ` in the
//! reference (`s₀ = s'₀ = 0`), `makespan − reference` telescopes exactly into
//! `Σᵢ [(sᵢ − sᵢ₋₁) − (s'ᵢ − s'ᵢ₋₁)] + [(makespan − sₙ) − (reference − s'ₙ)]`. Each step's term is
//! its unforced wait plus the rest of its advance over the reference's: for a link the plan
//! chose (agent, setup, resource, state), an ordering choice with that cost; for a link the
//! instance imposes, and the tail after the chain's last start, the remainder (`rest`, ≤ 0
//! for a valid reference: the instance's rules bind the reference too).

use serde::Serialize;

use super::chain::ChainStep;
use super::{ExplainError, Reason, Reference};
use makespan_verify::placed::Placements;

/// The time lost against a reference, in parts that sum exactly to `lost`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LostTime {
    /// The reference's makespan.
    pub reference: i64,
    /// Whether the reference is a proven optimum.
    pub optimal: bool,
    /// `makespan − reference`.
    pub lost: i64,
    /// The unforced waits on the critical chain, summed.
    pub waits: i64,
    /// The ordering choices on the chain, each with its cost (may be negative: the reference
    /// was slower there).
    pub ordering: Vec<OrderingChoice>,
    /// The links the instance imposes and the chain's tail, against the reference's times.
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
    /// The plan's advance from `before`'s start to `after`'s start (less the unforced wait)
    /// minus the reference's between the same starts.
    pub cost: i64,
}

pub(super) fn lost_time(
    plan: &Placements,
    chain: &[ChainStep],
    reference: Reference<'_>,
) -> Result<LostTime, ExplainError> {
    let theirs = Placements::new(plan.instance, reference.schedule);
    let makespan = plan.makespan();
    let (mut prev, mut prev_ref) = (0, 0);
    let (mut waits, mut rest, mut ordering) = (0, 0, Vec::new());
    for step in chain {
        let s_ref = theirs
            .get(&step.activity)
            .map(|p| p.start())
            .ok_or_else(|| ExplainError::ReferenceLacks(step.activity.clone()))?;
        let term = (step.start - prev) - (s_ref - prev_ref);
        waits += step.wait();
        let excess = term - step.wait();
        match &step.after {
            Some(before) if step.reason.is_ordering_choice() => ordering.push(OrderingChoice {
                before: before.clone(),
                after: step.activity.clone(),
                reason: step.reason.clone(),
                cost: excess,
            }),
            _ => rest += excess,
        }
        (prev, prev_ref) = (step.start, s_ref);
    }
    rest += (makespan - prev) - (reference.makespan - prev_ref);
    Ok(LostTime {
        reference: reference.makespan,
        optimal: reference.optimal,
        lost: makespan - reference.makespan,
        waits,
        ordering,
        rest,
    })
}
