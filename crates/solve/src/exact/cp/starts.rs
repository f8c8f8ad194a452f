//! What the propagators over tasks' start variables share: waking on any bound change of a
//! start, and reading every start's window.

use pumpkin_solver::core::propagation::{DomainEvents, EventsToRegister, LocalId, ReadDomains};
use pumpkin_solver::core::variables::IntegerVariable;

/// Every start wakes the propagator when one of its bounds moves; its position is its id.
pub(super) fn bound_events<'a, Var: IntegerVariable + 'a>(
    starts: impl Iterator<Item = &'a Var>,
) -> EventsToRegister {
    starts
        .enumerate()
        .fold(EventsToRegister::builder(), |events, (k, start)| {
            events.add(start, DomainEvents::BOUNDS, LocalId::from(k as u32))
        })
        .build()
}

/// Each start's earliest and latest value now.
pub(super) fn start_windows<'a, Var: IntegerVariable + 'a>(
    context: &impl ReadDomains,
    starts: impl Iterator<Item = &'a Var> + Clone,
) -> (Vec<i32>, Vec<i32>) {
    (
        starts.clone().map(|s| context.lower_bound(s)).collect(),
        starts.map(|s| context.upper_bound(s)).collect(),
    )
}
