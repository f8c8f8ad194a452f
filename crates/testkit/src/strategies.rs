//! Proptest strategies of random instances, shared by the property tests of the root
//! package and of the solver. They differ in what they exercise, so each is named by what it
//! builds; the pieces they share (forward precedences, unary resources) are written once.

use makespan_model::instance::{
    Activity, AgentUse, Instance, Precedence, Resource, ResourceUse, INSTANCE_FORMAT,
};
use proptest::prelude::*;

/// Finish-to-start precedences `a{i}` → `a{j}` for the pairs i < j of `n` activities in
/// order (0→1, 0→2, …, 1→2, …), one `(on, lag)` per pair: the pair is linked where `on`.
pub fn forward_precedences(n: usize, edges: impl Iterator<Item = (bool, i64)>) -> Vec<Precedence> {
    let pairs = (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j)));
    pairs
        .zip(edges)
        .filter(|&(_, (on, _))| on)
        .map(|((i, j), (_, lag))| {
            Precedence::finish_to_start(format!("a{i}"), format!("a{j}"), lag)
        })
        .collect()
}

/// A resource of capacity `capacity` with no states.
pub fn resource(id: &str, capacity: u32) -> Resource {
    Resource {
        id: id.into(),
        capacity,
        states: vec![],
    }
}

/// Activity `a{i}` of duration `p`: `kind` 0 holds the agent for its first unit only (when
/// `p ≥ 1`), 1 not at all, anything else for the whole duration; with `tool` it also uses the
/// unary resource `tool`.
pub fn activity(i: usize, p: i64, kind: u8, tool: bool) -> Activity {
    let mut a = Activity::new(format!("a{i}"), p);
    a.agent = match kind {
        0 if p >= 1 => AgentUse::BusyFor(1),
        1 => AgentUse::None,
        _ => AgentUse::Whole,
    };
    if tool {
        a.uses.push(ResourceUse {
            resource: "tool".into(),
            amount: 1,
        });
    }
    a
}

/// A random instance: activities with durations 0..=4, a random DAG of finish-to-start
/// precedences with lags 0..=3, 1–3 agents, an optional unary resource, some activities
/// that hold the agent for their first unit only or not at all.
pub fn agent_instances() -> impl Strategy<Value = Instance> {
    (2usize..=5, 1u32..=3).prop_flat_map(|(n, agents)| {
        (
            proptest::collection::vec((0i64..=4, 0u8..=9, any::<bool>()), n),
            proptest::collection::vec((any::<bool>(), 0i64..=3), n * (n - 1) / 2),
            Just(agents),
        )
            .prop_map(move |(acts, edges, agents)| {
                let activities = acts
                    .iter()
                    .enumerate()
                    .map(|(i, &(p, kind, tool))| activity(i, p, kind, tool))
                    .collect();
                let precedences = forward_precedences(n, edges.into_iter());
                Instance {
                    resources: vec![resource("tool", 1)],
                    activities,
                    precedences,
                    ..Instance::new("random", Some(agents))
                }
            })
    })
}

/// The sizes [`rcpsp_instances_shaped`] draws from: activity count, each resource's
/// capacity, durations, the largest demand (capped at the capacity), one precedence in
/// `precedence_odds` pairs (from lower to higher index) and lags up to `max_lag`.
#[derive(Debug, Clone)]
pub struct RcpspShape {
    pub activities: std::ops::RangeInclusive<usize>,
    pub capacity: std::ops::RangeInclusive<i64>,
    pub duration: std::ops::RangeInclusive<i64>,
    pub max_demand: i64,
    pub precedence_odds: u8,
    pub max_lag: i64,
    pub name: &'static str,
}

/// 3–6 activities of 1–4 units, two resources of capacity 2–3 with demands up to the
/// capacity, random finish-to-start precedences (lags 0–2) from lower to higher index.
pub fn rcpsp_instances() -> impl Strategy<Value = Instance> {
    rcpsp_instances_shaped(RcpspShape {
        activities: 3..=6,
        capacity: 2..=3,
        duration: 1..=4,
        max_demand: 3,
        precedence_odds: 4,
        max_lag: 2,
        name: "random-rcpsp",
    })
}

/// Random RCPSP instances on two resources r0 and r1, sized by `shape`.
pub fn rcpsp_instances_shaped(shape: RcpspShape) -> impl Strategy<Value = Instance> {
    (
        shape.activities.clone(),
        shape.capacity.clone(),
        shape.capacity.clone(),
    )
        .prop_flat_map(move |(n, c0, c1)| {
            let name = shape.name;
            (
                proptest::collection::vec(
                    (
                        shape.duration.clone(),
                        0..=c0.min(shape.max_demand),
                        0..=c1.min(shape.max_demand),
                    ),
                    n,
                ),
                proptest::collection::vec(
                    (0u8..shape.precedence_odds, 0i64..=shape.max_lag),
                    n * (n - 1) / 2,
                ),
            )
                .prop_map(move |(acts, edges)| {
                    let activities = acts
                        .iter()
                        .enumerate()
                        .map(|(i, &(p, r0, r1))| {
                            let mut a = Activity::new(format!("a{i}"), p);
                            for (r, amount) in [("r0", r0), ("r1", r1)] {
                                if amount > 0 {
                                    a.uses.push(ResourceUse {
                                        resource: r.into(),
                                        amount: amount as u32,
                                    });
                                }
                            }
                            a
                        })
                        .collect();
                    let edges = edges.into_iter().map(|(kind, lag)| (kind == 0, lag));
                    let precedences = forward_precedences(n, edges);
                    Instance {
                        resources: vec![resource("r0", c0 as u32), resource("r1", c1 as u32)],
                        activities,
                        precedences,
                        ..Instance::new(name, None)
                    }
                })
        })
}

/// Random small instances for mutation testing of the verifier: 1–3 agents, 2–8 activities
/// (some preemptible, some on a unary pot), precedences (some start-to-start) only from
/// lower to higher index, so index order is a topological order.
pub fn mutation_instances() -> impl Strategy<Value = Instance> {
    (1u32..=3, 2usize..=8)
        .prop_flat_map(|(m, n)| {
            (
                Just(m),
                prop::collection::vec((1i64..=6, any::<bool>(), any::<bool>()), n),
                prop::collection::vec((0..n, 0..n, 0i64..=3, prop::bool::weighted(0.3)), 0..=n * 2),
            )
        })
        .prop_map(|(m, specs, edges)| {
            let activities: Vec<Activity> = specs
                .iter()
                .enumerate()
                .map(|(i, &(d, preemptible, uses_pot))| {
                    let mut a = Activity::new(format!("j{i}"), d);
                    a.preemptible = preemptible;
                    if uses_pot {
                        a.uses.push(ResourceUse {
                            resource: "pot".into(),
                            amount: 1,
                        });
                    }
                    a
                })
                .collect();
            let mut precedences: Vec<Precedence> = Vec::new();
            for (x, y, lag, start_to_start) in edges {
                let (b, a) = (x.min(y), x.max(y));
                if b == a
                    || precedences
                        .iter()
                        .any(|p| p.before == activities[b].id && p.after == activities[a].id)
                {
                    continue;
                }
                let mut p = Precedence::finish_to_start(
                    activities[b].id.clone(),
                    activities[a].id.clone(),
                    lag,
                );
                if start_to_start {
                    p.relation = makespan_model::instance::Relation::StartToStart;
                }
                precedences.push(p);
            }
            Instance {
                format: INSTANCE_FORMAT.into(),
                name: "random".into(),
                time_unit: Default::default(),
                agents: Some(m),
                resources: vec![resource("pot", 1)],
                activities,
                precedences,
                setups: vec![],
                holds: vec![],
                objective: Default::default(),
                source: None,
            }
        })
}

/// `(duration, kind, appliance)`: kind 0 continuous, 1 interruptible, 2 autonomous;
/// appliance 0 none, 1 stove, 2 microwave (never on interruptible steps, as in the data).
pub type Step = (i64, u8, u8);

/// Random recipe-shaped instances for one cook: continuous, interruptible and autonomous
/// steps on a stove or microwave, windows (max lags), and an oven preheat and bake that set
/// and require a temperature (see [`oven_recipe`]).
pub fn oven_recipe_instances() -> impl Strategy<Value = Instance> {
    (
        proptest::collection::vec((1i64..=4, 0u8..3, 0u8..3), 4..=8),
        proptest::collection::vec(
            (0usize..8, 0usize..8, proptest::option::of(0i64..=3)),
            0..=8,
        ),
        any::<bool>(),
    )
        .prop_map(|(steps, links, oven)| oven_recipe(&steps, &links, oven))
}

/// Like [`oven_recipe_instances`], with autonomous steps of 2–9 units next to short ones and
/// wider windows: the ages of waits started at different instants spread over many values,
/// which is where the search's dominance drops states.
pub fn long_wait_recipe_instances() -> impl Strategy<Value = Instance> {
    let step = (0u8..3, 0u8..3).prop_flat_map(|(kind, appliance)| {
        let durations = if kind == 2 { 2i64..=9 } else { 1i64..=3 };
        durations.prop_map(move |d| (d, kind, appliance))
    });
    (
        proptest::collection::vec(step, 4..=7),
        proptest::collection::vec(
            (0usize..7, 0usize..7, proptest::option::of(0i64..=4)),
            0..=7,
        ),
        any::<bool>(),
    )
        .prop_map(|(steps, links, oven)| oven_recipe(&steps, &links, oven))
}

/// The instance of `steps`, `links` `(before, after, window)` (kept where before < after,
/// once per pair) and, with `oven`, a preheat-and-bake pair on a stateful oven.
pub fn oven_recipe(steps: &[Step], links: &[(usize, usize, Option<i64>)], oven: bool) -> Instance {
    let mut activities: Vec<Activity> = steps
        .iter()
        .enumerate()
        .map(|(i, &(d, kind, appliance))| {
            let mut a = Activity::new(format!("s{i}"), d);
            match kind {
                1 => a.preemptible = d >= 2,
                2 => a.agent = AgentUse::StartInstant,
                _ => {}
            }
            if !a.preemptible && appliance > 0 {
                a.uses.push(ResourceUse {
                    resource: ["stove", "microwave"][usize::from(appliance) - 1].into(),
                    amount: 1,
                });
            }
            a
        })
        .collect();
    let n = activities.len();
    let mut seen = std::collections::HashSet::new();
    let mut precedences: Vec<Precedence> = links
        .iter()
        .filter(|&&(i, j, _)| i < j && j < n && seen.insert((i, j)))
        .map(|&(i, j, window)| Precedence {
            max_lag: window,
            ..Precedence::finish_to_start(format!("s{i}"), format!("s{j}"), 0)
        })
        .collect();
    let mut resources = vec![resource("stove", 1), resource("microwave", 1)];
    if oven {
        // An autonomous preheat to 350, and a bake that needs 350 after it.
        let mut preheat = Activity::new("preheat", 2);
        preheat.agent = AgentUse::StartInstant;
        preheat.sets.insert("oven.temperature".into(), 350.into());
        let mut bake = Activity::new("bake", 3);
        bake.agent = AgentUse::StartInstant;
        bake.requires.insert("oven.temperature".into(), 350.into());
        for a in [&mut preheat, &mut bake] {
            a.uses.push(ResourceUse {
                resource: "oven".into(),
                amount: 1,
            });
        }
        activities.extend([preheat, bake]);
        precedences.push(Precedence::finish_to_start("preheat", "bake", 0));
        resources.push(Resource {
            id: "oven".into(),
            capacity: 1,
            states: vec!["temperature".into()],
        });
    }
    Instance {
        activities,
        precedences,
        resources,
        ..Instance::new("random-recipe", Some(1))
    }
}

/// Three one-piece steps (1–2 units, continuous or autonomous) and one interruptible
/// continuous step (2–3 units), with random prerequisites between them, each with an
/// optional window of 0–2 units.
pub fn tiny_recipes() -> impl Strategy<Value = Instance> {
    (
        proptest::collection::vec((1i64..=2, any::<bool>()), 3),
        2i64..=3,
        0usize..4,
        proptest::collection::vec((0u8..3, proptest::option::of(0i64..=2)), 3),
    )
        .prop_map(|(steps, p, slot, links)| {
            let mut activities: Vec<Activity> = steps
                .iter()
                .enumerate()
                .map(|(i, &(d, autonomous))| {
                    let mut a = Activity::new(format!("s{i}"), d);
                    if autonomous {
                        a.agent = AgentUse::StartInstant;
                    }
                    a
                })
                .collect();
            let mut split = Activity::new("mix", p);
            split.preemptible = true;
            activities.insert(slot, split);
            // Link i joins step i to step i + 1 (kind 0), to step i + 2 (kind 1), or nothing.
            let precedences = links
                .iter()
                .enumerate()
                .filter_map(|(i, &(kind, window))| {
                    let j = i + 1 + kind as usize;
                    (kind < 2 && j < 4).then(|| Precedence {
                        max_lag: window,
                        ..Precedence::finish_to_start(
                            activities[i].id.clone(),
                            activities[j].id.clone(),
                            0,
                        )
                    })
                })
                .collect();
            Instance {
                activities,
                precedences,
                ..Instance::new("tiny-recipe", Some(1))
            }
        })
}
