//! The search on worlds whose optimum is known another way: random weighted graphs, solved
//! by Dijkstra. Every plan the search returns replays in its world, an `Optimal` plan is as
//! short as Dijkstra's path, and a capped search's bound never exceeds the optimum.

use std::collections::{BTreeMap, BinaryHeap};

use makespan_world::{beam, search, search_accepting, search_below, Limits, Outcome, Plan, World};
use proptest::prelude::*;

/// A directed graph; states are vertices, actions are arcs, the goal is the last vertex.
/// The lower bound is the true distance scaled down by `scale` percent (admissible).
#[derive(Debug)]
struct Graph {
    arcs: BTreeMap<usize, Vec<(usize, i64)>>,
    goal: usize,
    scale: i64,
    distance: Vec<Option<i64>>,
}

impl Graph {
    fn new(n: usize, arcs: Vec<(usize, usize, i64)>, scale: i64) -> Graph {
        let mut by_from: BTreeMap<usize, Vec<(usize, i64)>> = BTreeMap::new();
        for (a, b, w) in arcs {
            by_from.entry(a % n).or_default().push((b % n, w));
        }
        let mut graph = Graph {
            arcs: by_from,
            goal: n - 1,
            scale,
            distance: Vec::new(),
        };
        graph.distance = graph.distances_to_goal(n);
        graph
    }

    /// Dijkstra backwards from the goal.
    fn distances_to_goal(&self, n: usize) -> Vec<Option<i64>> {
        let mut reverse: Vec<Vec<(usize, i64)>> = vec![Vec::new(); n];
        for (&a, out) in &self.arcs {
            for &(b, w) in out {
                reverse[b].push((a, w));
            }
        }
        let mut distance = vec![None; n];
        let mut queue = BinaryHeap::new();
        queue.push(std::cmp::Reverse((0, self.goal)));
        while let Some(std::cmp::Reverse((d, v))) = queue.pop() {
            if distance[v].is_some() {
                continue;
            }
            distance[v] = Some(d);
            for &(u, w) in &reverse[v] {
                if distance[u].is_none() {
                    queue.push(std::cmp::Reverse((d + w, u)));
                }
            }
        }
        distance
    }
}

impl World for Graph {
    type State = usize;
    /// An arc: from, to and its time (parallel arcs differ in time).
    type Action = (usize, usize, i64);

    fn initial(&self) -> usize {
        0
    }

    fn is_goal(&self, state: &usize) -> bool {
        *state == self.goal
    }

    fn successors(&self, state: &usize, out: &mut Vec<((usize, usize, i64), i64, usize)>) {
        for &(to, w) in self.arcs.get(state).into_iter().flatten() {
            out.push(((*state, to, w), w, to));
        }
    }

    fn lower_bound(&self, state: &usize) -> i64 {
        self.distance[*state].map_or(0, |d| d * self.scale / 100)
    }
}

/// Replays `plan` in `graph`: each action an arc from where the plan is, at its cost.
fn replays(graph: &Graph, plan: &Plan<(usize, usize, i64)>) -> bool {
    let mut at = graph.initial();
    let mut now = 0;
    for step in &plan.steps {
        let (from, to, w) = step.action;
        let exists = graph
            .arcs
            .get(&from)
            .into_iter()
            .flatten()
            .any(|&a| a == (to, w));
        if !(exists && from == at && step.start == now && step.end == now + w) {
            return false;
        }
        at = to;
        now = step.end;
    }
    graph.is_goal(&at) && now == plan.cost
}

fn graphs() -> impl Strategy<Value = Graph> {
    (2usize..12)
        .prop_flat_map(|n| {
            (
                Just(n),
                prop::collection::vec((0..n, 0..n, 0i64..10), 0..40),
                0i64..=100,
            )
        })
        .prop_map(|(n, arcs, scale)| Graph::new(n, arcs, scale))
}

proptest! {
    #[test]
    fn the_search_finds_the_shortest_plan_or_proves_there_is_none(graph in graphs()) {
        match (search(&graph, &Limits::default()), graph.distance[0]) {
            (Outcome::Optimal(plan), Some(d)) => {
                prop_assert_eq!(plan.cost, d);
                prop_assert!(replays(&graph, &plan));
            }
            (Outcome::Infeasible, None) => {}
            (outcome, d) => prop_assert!(false, "{outcome:?} for distance {d:?}"),
        }
    }

    #[test]
    fn a_capped_search_bounds_the_optimum_from_below(graph in graphs(), cap in 1usize..6) {
        let limits = Limits { max_states: cap, ..Limits::default() };
        let optimum = graph.distance[0];
        match search(&graph, &limits) {
            Outcome::Optimal(plan) => {
                prop_assert_eq!(Some(plan.cost), optimum);
                prop_assert!(replays(&graph, &plan));
            }
            Outcome::Feasible { plan, bound } => {
                prop_assert!(replays(&graph, &plan));
                prop_assert!(bound < plan.cost);
                prop_assert!(optimum.is_some_and(|d| bound <= d && d <= plan.cost));
            }
            Outcome::Unknown { bound } => {
                prop_assert!(optimum.is_none_or(|d| bound <= d));
            }
            Outcome::Infeasible => prop_assert_eq!(optimum, None),
        }
    }
}

proptest! {
    #[test]
    fn a_search_below_a_known_plan_finds_only_shorter_ones(graph in graphs(), extra in 0i64..4) {
        let Some(optimum) = graph.distance[0] else { return Ok(()) };
        // A known plan of the optimum's cost: nothing shorter exists.
        prop_assert!(matches!(search_below(&graph, &Limits::default(), optimum), Outcome::Infeasible));
        // A longer one: the optimum is found below it.
        match search_below(&graph, &Limits::default(), optimum + 1 + extra) {
            Outcome::Optimal(plan) => {
                prop_assert_eq!(plan.cost, optimum);
                prop_assert!(replays(&graph, &plan));
            }
            other => prop_assert!(false, "{other:?} below {}", optimum + 1 + extra),
        }
    }

    #[test]
    fn a_beam_plan_replays_and_is_never_shorter_than_the_optimum(
        graph in graphs(),
        width in 1usize..5,
        weight in 1i64..4,
    ) {
        if let Some(plan) = beam(&graph, width, weight, &Limits::default(), i64::MAX) {
            prop_assert!(replays(&graph, &plan));
            prop_assert!(graph.distance[0].is_some_and(|d| d <= plan.cost));
            // Asked for a shorter plan than its own, it finds none or a shorter one.
            if let Some(shorter) = beam(&graph, width, weight, &Limits::default(), plan.cost) {
                prop_assert!(shorter.cost < plan.cost && replays(&graph, &shorter));
            }
        }
        // Wide enough to keep every vertex, it finds a plan wherever one exists.
        prop_assert_eq!(
            beam(&graph, 64, weight, &Limits::default(), i64::MAX).is_some(),
            graph.distance[0].is_some()
        );
    }
}

/// The shortest path from the start to the goal that avoids the vertices in `banned`
/// (Dijkstra forwards), the optimum for a judge that refuses every plan through them.
fn shortest_avoiding(graph: &Graph, banned: &[usize]) -> Option<i64> {
    let mut settled = BTreeMap::new();
    let mut queue = BinaryHeap::new();
    queue.push(std::cmp::Reverse((0i64, graph.initial())));
    while let Some(std::cmp::Reverse((d, v))) = queue.pop() {
        if banned.contains(&v) || settled.contains_key(&v) {
            continue;
        }
        settled.insert(v, d);
        if graph.is_goal(&v) {
            return Some(d);
        }
        for &(to, w) in graph.arcs.get(&v).into_iter().flatten() {
            queue.push(std::cmp::Reverse((d + w, to)));
        }
    }
    None
}

proptest! {
    #[test]
    fn a_judged_search_keeps_only_accepted_plans_and_bounds_the_judges_optimum(
        graph in graphs(),
        banned in prop::collection::vec(1usize..12, 0..4),
        cap in 1usize..40,
    ) {
        // The judge refuses every plan through a banned vertex (the goal and the start
        // stay allowed, so the refusal is about the path, not the state).
        let banned: Vec<usize> = banned.into_iter().filter(|&v| v != graph.goal).collect();
        let passes = |plan: &Plan<(usize, usize, i64)>| {
            plan.steps.iter().all(|s| !banned.contains(&s.action.1))
        };
        let optimum = shortest_avoiding(&graph, &banned);
        let limits = Limits { max_states: cap, ..Limits::default() };
        match search_accepting(&graph, &limits, i64::MAX, passes) {
            Outcome::Optimal(plan) => {
                prop_assert!(passes(&plan) && replays(&graph, &plan));
                prop_assert_eq!(Some(plan.cost), optimum);
            }
            Outcome::Feasible { plan, bound } => {
                prop_assert!(passes(&plan) && replays(&graph, &plan));
                prop_assert!(bound < plan.cost);
                prop_assert!(optimum.is_some_and(|d| bound <= d && d <= plan.cost));
            }
            Outcome::Unknown { bound } => prop_assert!(optimum.is_none_or(|d| bound <= d)),
            Outcome::Infeasible => prop_assert_eq!(optimum, None),
        }
    }
}

#[test]
fn a_bound_proven_elsewhere_ends_the_search_at_the_first_plan_that_meets_it() {
    // Two routes to the goal (vertex 3): 0→1→3 costs 4, 0→2→3 costs 4 too.
    let graph = Graph::new(4, vec![(0, 1, 2), (1, 3, 2), (0, 2, 1), (2, 3, 3)], 0);
    let limits = Limits {
        known_bound: 4,
        ..Limits::default()
    };
    let Outcome::Optimal(plan) = search(&graph, &limits) else {
        panic!("a plan meets the bound");
    };
    assert_eq!(plan.cost, 4);
    assert!(replays(&graph, &plan));
}

#[test]
fn a_cancelled_search_stops_with_its_bound_instead_of_running_on() {
    // An endless chain: no goal is ever reached, so only the cancel flag can end the search.
    struct Endless;
    impl World for Endless {
        type State = u64;
        type Action = ();
        fn initial(&self) -> u64 {
            0
        }
        fn is_goal(&self, _: &u64) -> bool {
            false
        }
        fn successors(&self, s: &u64, out: &mut Vec<((), i64, u64)>) {
            out.push(((), 1, s + 1));
        }
        fn lower_bound(&self, _: &u64) -> i64 {
            0
        }
    }
    let limits = Limits {
        max_states: usize::MAX,
        cancel: Some(std::sync::Arc::new(|| true)),
        ..Limits::default()
    };
    assert!(matches!(
        search(&Endless, &limits),
        Outcome::Unknown { bound: 0 }
    ));
}
