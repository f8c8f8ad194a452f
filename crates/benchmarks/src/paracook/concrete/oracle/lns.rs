//! Large-neighbourhood search on a plan: keep the first decisions of the best plan so far,
//! and let a beam search plan the rest again from the state they reach, under the plan's
//! time. The beam then searches only what is left, so each round is quick and the rounds
//! build on one another; where a plan for one order at a time is the incumbent, it overlaps
//! the next order's work with the current one's, which a beam over the whole kitchen too
//! narrow to keep such states misses. It proves nothing; what it returns is an incumbent like
//! any other.

use std::time::Instant;

use super::beam::beam;
use super::layout::Layout;
use super::model::{Decision, State};
use super::world::KitchenWorld;

/// Where the plan is cut, as shares of its decisions: the earlier the cut, the more is
/// planned again.
const CUTS: [f64; 5] = [0.15, 0.3, 0.45, 0.6, 0.75];

/// The beams' widths, in turn: a narrow one for as long as its rounds shorten the plan
/// (many quick rounds do more than a few wide ones), then wider ones, each while its rounds
/// shorten it.
const WIDTHS: [usize; 3] = [500, 1000, 2000];
/// The beams' weight (see [`beam`]).
const WEIGHT: i64 = 3;

/// The states a plan passes through, each with the time it is reached at, and the plan's
/// time; `None` when the model cannot replay it or it leaves orders open.
fn states(lay: &Layout, plan: &[Decision]) -> Option<(Vec<(State, i64)>, i64)> {
    let mut at = State::initial(lay);
    let mut time = i64::from(at.settle(lay, None).ok()?);
    let mut passed = vec![(at.clone(), time)];
    for &d in plan {
        at.apply(lay, d, None).ok()?;
        time += i64::from(at.settle(lay, None).ok()?);
        passed.push((at.clone(), time));
    }
    at.done(lay).then_some((passed, time))
}

/// A shorter plan than `plan` (decisions of one cook's or a team's model of `lay`), with its
/// time, found before `deadline`; `None` when none is.
pub fn improve(lay: &Layout, plan: &[Decision], deadline: Instant) -> Option<(Vec<Decision>, i64)> {
    let (mut passed, mut best) = states(lay, plan)?;
    let first = best;
    let mut plan = plan.to_vec();
    let mut widths = WIDTHS.iter();
    let mut width = widths.next().copied();
    while let Some(w) = width {
        if Instant::now() >= deadline {
            break;
        }
        let mut improved = false;
        for (i, share) in CUTS.iter().enumerate() {
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            let cut = (plan.len() as f64 * share) as usize;
            let (state, elapsed) = passed[cut].clone();
            let world = KitchenWorld {
                restricted: true,
                start: Some(state),
                ..KitchenWorld::new(lay)
            };
            // The cuts left in this round share the time that is left evenly.
            let until = now + (deadline - now) / (CUTS.len() - i) as u32;
            let Some((rest, _)) = beam(&world, w, WEIGHT, Some(until), best - elapsed) else {
                continue;
            };
            let mut candidate = plan[..cut].to_vec();
            candidate.extend(rest);
            if let Some((through, time)) = states(lay, &candidate).filter(|(_, t)| *t < best) {
                (passed, best, plan) = (through, time, candidate);
                improved = true;
            }
        }
        if !improved {
            width = widths.next().copied();
        }
    }
    (best < first).then_some((plan, best))
}
