//! A* over a [`World`]: states expanded in order of elapsed time plus the world's lower
//! bound, duplicates merged by state, so the first goal taken from the queue is a shortest
//! plan when the bound is admissible.
//!
//! Why A* first: the worlds to come (seeded kitchens, cooks on maps) are small enough per
//! instance that a memory cap is the real limit, and A*'s queue gives a proven lower bound
//! at every moment (the smallest elapsed-plus-bound in it), so a capped search still says how
//! far its best plan can be from the optimum. A goal reached but not yet taken from the
//! queue is kept as the incumbent.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use indexmap::map::Entry;
use indexmap::IndexMap;
use rustc_hash::FxBuildHasher;

use crate::world::{Plan, World};

/// Says whether a search must stop now: set from elsewhere (an interrupt, a race won by
/// another method), a closure so that any cancel token can be asked.
pub type Cancelled = Arc<dyn Fn() -> bool + Send + Sync>;

/// When a search stops early.
#[derive(Clone)]
pub struct Limits {
    /// Most distinct states kept; past it the search ends with what it has.
    pub max_states: usize,
    /// Wall-clock time; past it the search ends with what it has.
    pub time: Option<Duration>,
    /// A lower bound on the optimum proven elsewhere (a relaxation solved by the scheduling
    /// engine): a plan that meets it is optimal at once.
    pub known_bound: i64,
    /// Stops the search with what it has, as a time limit would, once it says so.
    pub cancel: Option<Cancelled>,
}

impl std::fmt::Debug for Limits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Limits")
            .field("max_states", &self.max_states)
            .field("time", &self.time)
            .field("known_bound", &self.known_bound)
            .field("cancel", &self.cancel.is_some())
            .finish()
    }
}

impl Limits {
    /// Whether the search must stop now: out of time or cancelled.
    pub(crate) fn stop_now(&self, started: Instant) -> bool {
        self.time.is_some_and(|t| started.elapsed() >= t)
            || self.cancel.as_ref().is_some_and(|cancelled| cancelled())
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_states: 5_000_000,
            time: None,
            known_bound: 0,
            cancel: None,
        }
    }
}

/// What a search established.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome<A> {
    /// A plan, proven shortest.
    Optimal(Plan<A>),
    /// A plan, and a lower bound on the optimum below its cost: a limit stopped the search.
    Feasible {
        /// The best plan found.
        plan: Plan<A>,
        /// The optimum is at least this.
        bound: i64,
    },
    /// No goal can be reached from the initial state (the search was exhaustive).
    Infeasible,
    /// A limit stopped the search before any goal was reached.
    Unknown {
        /// The optimum, if any, is at least this.
        bound: i64,
    },
}

/// How the search reached a state (parent and action) and how long that took. The state
/// itself is the key of the search's one map, so each state is stored once: the map's
/// position of a state is its node's number, and the queue holds only numbers.
struct Node<A> {
    parent: Option<(usize, A, i64)>,
    elapsed: i64,
}

/// Every state met, in the order first met, with its node.
type Nodes<S, A> = IndexMap<S, Node<A>, FxBuildHasher>;

/// Searches `world` for a shortest plan within `limits`.
pub fn search<W: World>(world: &W, limits: &Limits) -> Outcome<W::Action> {
    search_below(world, limits, i64::MAX)
}

/// Searches `world` for a plan shorter than `upper` (the cost of a plan known already,
/// from a quick search), within `limits`: states whose elapsed time plus bound reach
/// `upper` are never kept, since no plan through them can beat the known one. That is what
/// makes a good incumbent pay: the queue holds only states that may still improve on it.
///
/// [`Outcome::Infeasible`] then says that no plan shorter than `upper` exists (the known
/// one is optimal), and [`Outcome::Unknown`] that none was found before a limit.
pub fn search_below<W: World>(world: &W, limits: &Limits, upper: i64) -> Outcome<W::Action> {
    search_accepting(world, limits, upper, |_| true)
}

/// [`search_below`] where a goal counts only once `accept` takes the plan that reached it:
/// for a world that relaxes the real rules, whose plans a stricter judge (the game's own
/// replay) must pass. A refused goal is dropped and the search goes on to the next.
///
/// What is proven then: every plan of the world either passes a state still queued or ends
/// at a goal state that was reached and refused, so the bound is the least of the queue's
/// smallest elapsed-plus-bound and the cheapest refused goal's time. A plan the judge
/// accepts at that bound is optimal for the judge's rules too, since they are stricter.
pub fn search_accepting<W: World>(
    world: &W,
    limits: &Limits,
    upper: i64,
    mut accept: impl FnMut(&Plan<W::Action>) -> bool,
) -> Outcome<W::Action> {
    let started = Instant::now();
    let initial = world.initial();
    let mut nodes: Nodes<W::State, W::Action> = IndexMap::default();
    // (f, elapsed, node): the smallest f first; among equal f, the most elapsed (closest to a
    // goal) first, which finds plans sooner without changing what is proven.
    let mut queue: BinaryHeap<(Reverse<i64>, i64, Reverse<usize>)> = BinaryHeap::new();
    let f0 = world.lower_bound(&initial).max(limits.known_bound);
    if f0 >= upper {
        return Outcome::Infeasible;
    }
    nodes.insert(
        initial,
        Node {
            parent: None,
            elapsed: 0,
        },
    );
    queue.push((Reverse(f0), 0, Reverse(0)));
    let mut incumbent: Option<(i64, usize)> = None;
    // The cheapest goal `accept` refused: no bound may pass it.
    let mut refused = i64::MAX;
    let mut children = Vec::new();
    let mut steps = 0u64;
    while let Some(&(Reverse(queued), elapsed, Reverse(id))) = queue.peek() {
        // Every plan still to be found costs at least the smallest f queued, or ends at a
        // refused goal.
        let f = queued.min(refused);
        if let Some((cost, goal)) = incumbent {
            if cost <= f {
                return Outcome::Optimal(plan(&nodes, goal));
            }
        }
        let stop = nodes.len() >= limits.max_states
            || (steps.is_multiple_of(256) && limits.stop_now(started));
        if stop {
            return match incumbent {
                Some((_, goal)) => Outcome::Feasible {
                    plan: plan(&nodes, goal),
                    bound: f,
                },
                None => Outcome::Unknown { bound: f },
            };
        }
        queue.pop();
        steps += 1;
        let (state, node) = nodes.get_index(id).expect("queued nodes are kept");
        if elapsed > node.elapsed {
            continue; // reached again sooner since it was queued
        }
        if world.is_goal(state) {
            // A goal taken from the queue before any incumbent reaches it: the initial
            // state, or one refused when it was reached.
            let found = plan(&nodes, id);
            if accept(&found) {
                return if refused >= elapsed {
                    Outcome::Optimal(found)
                } else {
                    Outcome::Feasible {
                        plan: found,
                        bound: refused,
                    }
                };
            }
            refused = refused.min(elapsed);
            continue;
        }
        children.clear();
        world.successors(state, &mut children);
        for (action, cost, state) in children.drain(..) {
            let reached = elapsed + cost.max(0);
            // One look-up per child: the entry is kept only if the child is new or reached
            // sooner, and within the bound.
            let entry = nodes.entry(state);
            if let Entry::Occupied(known) = &entry {
                if known.get().elapsed <= reached {
                    continue;
                }
            }
            let h = world.lower_bound(entry.key()).max(0);
            let bound = reached + h;
            if bound >= upper {
                continue; // cannot beat the plan known already
            }
            // An admissible bound is 0 at a goal: only a state whose bound is 0 can be one
            // (testing the goal costs as much as the bound on some worlds).
            let goal = h == 0 && world.is_goal(entry.key());
            if goal && incumbent.is_some_and(|(c, _)| reached >= c) {
                continue; // nothing follows a goal, and this one beats no plan kept
            }
            let node = Node {
                parent: Some((id, action, cost)),
                elapsed: reached,
            };
            let (child, earlier) = match entry {
                Entry::Occupied(mut known) => {
                    let earlier = known.insert(node);
                    (known.index(), Some(earlier))
                }
                Entry::Vacant(new) => {
                    let index = new.index();
                    new.insert(node);
                    (index, None)
                }
            };
            if goal {
                if accept(&plan(&nodes, child)) {
                    incumbent = Some((reached, child));
                } else {
                    // Refused: the state keeps the path it had (an incumbent's among them).
                    refused = refused.min(reached);
                    match earlier {
                        Some(earlier) => nodes[child] = earlier,
                        None => {
                            nodes.pop();
                        }
                    }
                    continue;
                }
            }
            queue.push((Reverse(bound.max(f)), reached, Reverse(child)));
        }
    }
    match incumbent {
        // The queue ran dry after a goal was seen: nothing shorter exists but refused plans.
        Some((cost, goal)) if cost <= refused => Outcome::Optimal(plan(&nodes, goal)),
        Some((_, goal)) => Outcome::Feasible {
            plan: plan(&nodes, goal),
            bound: refused,
        },
        None if refused == i64::MAX => Outcome::Infeasible,
        None => Outcome::Unknown { bound: refused },
    }
}

/// The plan that reached node `goal`, from the initial state.
fn plan<S, A: Clone>(nodes: &Nodes<S, A>, goal: usize) -> Plan<A> {
    let mut actions = Vec::new();
    let mut at = goal;
    while let Some((parent, action, cost)) = &nodes[at].parent {
        actions.push((action.clone(), *cost));
        at = *parent;
    }
    actions.reverse();
    Plan::sequential(actions)
}
