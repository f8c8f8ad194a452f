//! Beam search over the agents' decisions: each round keeps the `width` most promising
//! states (elapsed time plus the bound's estimate of the rest, ties to the more served), so
//! it reaches a plan in a number of rounds that grows with the plan's length, not with the
//! size of the kitchen's state space. It proves nothing; the plan it returns is an
//! incumbent for the exact search and a reference where that search cannot finish.

use rustc_hash::FxHashMap as HashMap;
use std::time::Instant;

use makespan_world::World;

use super::model::{Decision, State};
use super::world::KitchenWorld;

/// The best plan the beam found: its decisions and the time of its last serve.
pub fn beam(
    world: &KitchenWorld<'_>,
    width: usize,
    weight: i64,
    deadline: Option<Instant>,
    cutoff: i64,
) -> Option<(Vec<Decision>, i64)> {
    // Arena of (parent, decision) so that plans are rebuilt only for the winner.
    let mut arena: Vec<(usize, Option<Decision>)> = vec![(usize::MAX, None)];
    let mut layer: Vec<(State, i64, usize)> = vec![(world.initial(), 0, 0)];
    let mut best: Option<(i64, usize)> = None;
    let mut children = Vec::new();
    // Every state met, with the least elapsed time it was met at: a state met again no
    // sooner (picking up and putting back costs nothing) is not searched again.
    let mut seen: HashMap<State, i64> = HashMap::default();
    let agents = world.lay.agents.len().max(1) as i64;
    while !layer.is_empty() {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let mut next: HashMap<State, (i64, i64, usize)> = HashMap::default();
        for (state, g, node) in &layer {
            children.clear();
            world.successors(state, &mut children);
            for (d, cost, child) in children.drain(..) {
                let g2 = g + cost;
                let bound = best.map_or(cutoff, |(c, _)| c.min(cutoff));
                if world.is_goal(&child) {
                    if g2 < bound {
                        arena.push((*node, Some(d)));
                        best = Some((g2, arena.len() - 1));
                    }
                    continue;
                }
                let (lb, effort) = world.est.estimate(world.lay, &child);
                let f = g2 + lb.value;
                if f >= bound {
                    continue;
                }
                let rank = g2 + lb.value.max(weight * effort / (4 * agents));
                if seen.get(&child).is_some_and(|&known| known <= g2)
                    || next.get(&child).is_some_and(|&(known, _, _)| known <= g2)
                {
                    continue;
                }
                arena.push((*node, Some(d)));
                next.insert(child, (g2, rank, arena.len() - 1));
            }
        }
        let mut ranked: Vec<(State, i64, i64, usize)> = next
            .into_iter()
            .map(|(s, (g, f, n))| (s, g, f, n))
            .collect();
        ranked.sort_by_key(|(s, g, rank, _)| {
            (*rank, std::cmp::Reverse(s.served), std::cmp::Reverse(*g))
        });
        ranked.truncate(width);
        for (s, g, _, _) in &ranked {
            seen.insert(s.clone(), *g);
        }
        layer = ranked.into_iter().map(|(s, g, _, n)| (s, g, n)).collect();
    }
    let (cost, mut at) = best?;
    let mut decisions = Vec::new();
    while let (parent, Some(d)) = arena[at] {
        decisions.push(d);
        at = parent;
    }
    decisions.reverse();
    Some((decisions, cost))
}
