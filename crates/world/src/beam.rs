//! Beam search: a quick plan with no proof, to serve as the incumbent of an exact search
//! ([`crate::search_below`]) and as the answer where that search cannot finish.
//!
//! Why a beam: A* with a weak bound can spend all its time and memory before it reaches any
//! goal on a large world, and then has no plan at all to report. A beam keeps only the
//! `width` most promising states of each round, so it reaches a goal in a number of rounds
//! that grows with the plan's length, not with the size of the state space. Rounds expand
//! every kept state once; states are ranked by elapsed time plus `weight` × the world's
//! bound (ties to the smaller bound, nearer a goal), and a state kept in an earlier round
//! no later than now is not kept again (one generated but cut from its round may be met
//! again: remembering those too seals off the ways through them, and a narrow beam then
//! runs dry before any goal).

use std::time::Instant;

use rustc_hash::FxHashMap;

use crate::astar::Limits;
use crate::world::{Plan, World};

/// An action the beam took: the entry it was taken from, the action and its cost (none for
/// the initial state).
type Entry<A> = (usize, Option<(A, i64)>);

/// The best plan a beam of `width` states per round finds within `limits` (its time and
/// cancel; `max_states` caps the states remembered), if any. States are ranked by elapsed
/// plus `weight` × the bound; plans no shorter than `upper` are not looked for.
pub fn beam<W: World>(
    world: &W,
    width: usize,
    weight: i64,
    limits: &Limits,
    upper: i64,
) -> Option<Plan<W::Action>> {
    let started = Instant::now();
    // Every action taken: plans are rebuilt for the best goal only.
    let mut arena: Vec<Entry<W::Action>> = vec![(usize::MAX, None)];
    let initial = world.initial();
    let mut best: Option<(i64, usize)> = None;
    if world.is_goal(&initial) {
        return Some(Plan::sequential(Vec::new()));
    }
    // The states kept in a round (expanded in the next), with their elapsed time: a state
    // met again no sooner is not kept again. States generated but cut from a round are not
    // remembered, so a later round may still reach them by another way.
    let mut seen: FxHashMap<W::State, i64> = FxHashMap::default();
    seen.insert(initial.clone(), 0);
    // (state, elapsed, arena entry)
    let mut layer: Vec<(W::State, i64, usize)> = vec![(initial, 0, 0)];
    let mut children = Vec::new();
    while !layer.is_empty() {
        if limits.stop_now(started) || seen.len() >= limits.max_states {
            break;
        }
        let cutoff = best.map_or(upper, |(c, _)| c.min(upper));
        // (rank, bound, elapsed, state, arena entry), each state once (the soonest reached).
        let mut next: Vec<(i64, i64, i64, W::State, usize)> = Vec::new();
        let mut in_next: FxHashMap<W::State, usize> = FxHashMap::default();
        for (state, g, entry) in &layer {
            children.clear();
            world.successors(state, &mut children);
            for (action, cost, child) in children.drain(..) {
                let reached = g + cost.max(0);
                if seen.get(&child).is_some_and(|&known| known <= reached) {
                    continue;
                }
                let twin = in_next.get(&child).copied();
                if twin.is_some_and(|t| next[t].2 <= reached) {
                    continue;
                }
                let h = world.lower_bound(&child).max(0);
                if reached + h >= cutoff {
                    continue;
                }
                arena.push((*entry, Some((action, cost))));
                let at = arena.len() - 1;
                if world.is_goal(&child) {
                    if best.is_none_or(|(c, _)| reached < c) {
                        best = Some((reached, at));
                    }
                    continue;
                }
                let ranked = (reached + weight * h, h, reached, child, at);
                match twin {
                    Some(t) => next[t] = ranked,
                    None => {
                        in_next.insert(ranked.3.clone(), next.len());
                        next.push(ranked);
                    }
                }
            }
        }
        let cutoff = best.map_or(upper, |(c, _)| c.min(upper));
        next.retain(|(_, h, g, ..)| g + h < cutoff);
        if next.len() > width {
            next.select_nth_unstable_by_key(width, |(rank, h, ..)| (*rank, *h));
            next.truncate(width);
        }
        for (_, _, g, state, _) in &next {
            seen.insert(state.clone(), *g);
        }
        layer = next
            .into_iter()
            .map(|(_, _, g, state, at)| (state, g, at))
            .collect();
    }
    let (_, goal) = best?;
    let mut actions = Vec::new();
    let mut at = goal;
    while let (parent, Some((action, cost))) = &arena[at] {
        actions.push((action.clone(), *cost));
        at = *parent;
    }
    actions.reverse();
    Some(Plan::sequential(actions))
}
