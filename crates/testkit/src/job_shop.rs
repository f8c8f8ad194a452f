//! Instances for tests that need the exact methods to work hard: random job shops (each job
//! a chain of operations, each operation on one unary machine, no agents), reproducible
//! from a seed without any data file.

use makespan_model::instance::{Activity, AgentUse, Instance, Precedence, Resource, ResourceUse};

/// A job shop of `jobs` × `machines` operations with durations 1..=10 drawn from a
/// linear congruential generator seeded with `seed`; machine orders are random permutations.
pub fn job_shop(name: &str, jobs: usize, machines: usize, seed: u64) -> Instance {
    let mut state = seed;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        state >> 33
    };
    let mut activities = Vec::new();
    let mut precedences = Vec::new();
    for j in 0..jobs {
        let mut order: Vec<usize> = (0..machines).collect();
        for k in (1..machines).rev() {
            let r = (next() % (k as u64 + 1)) as usize;
            order.swap(k, r);
        }
        for (o, m) in order.into_iter().enumerate() {
            let mut a = Activity::new(format!("j{j}o{o}"), 1 + (next() % 10) as i64);
            a.agent = AgentUse::None;
            a.uses.push(ResourceUse {
                resource: format!("m{m}"),
                amount: 1,
            });
            activities.push(a);
            if o > 0 {
                precedences.push(Precedence::finish_to_start(
                    format!("j{j}o{}", o - 1),
                    format!("j{j}o{o}"),
                    0,
                ));
            }
        }
    }
    Instance {
        resources: (0..machines)
            .map(|m| Resource {
                id: format!("m{m}"),
                capacity: 1,
                states: vec![],
            })
            .collect(),
        activities,
        precedences,
        ..Instance::new(name, None)
    }
}

/// An 8 × 8 job shop that bounds, propagation and the heuristic (71) leave open by one unit:
/// the MILP needs branch-and-bound nodes to find the optimum 70.
pub fn needs_branching() -> Instance {
    job_shop("js-8x8", 8, 8, 1)
}

/// A 15 × 15 job shop that nothing proves within seconds (the constraint model proves the
/// 12 × 12 one in about 0.4 s; this one stays open after 30 s).
pub fn hard() -> Instance {
    job_shop("js-15x15", 15, 15, 1)
}
