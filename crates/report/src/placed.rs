//! The schedule as the explanation and the pictures see it: the verifier's own placements
//! (one per known activity, its agent normalised, what it asks of that agent), so that
//! "could have started earlier" is judged by the same rules the verifier checks.

pub(crate) use makespan_verify::placed::{Placed, Placements as Plan};
