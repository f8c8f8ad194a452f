//! Kitchen jobs in ParaCook's shape: `n` recipes, each a few prep steps (an agent busy
//! throughout), one cooking step on a shared appliance that runs on its own after the
//! agent starts it, and plating; `m` identical cooks. Durations in minutes.

use std::collections::BTreeMap;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use makespan_model::instance::{
    Activity, AgentUse, Instance, Precedence, Resource, ResourceUse, Source, TimeUnit,
};

/// `source.benchmark` of generated kitchen instances.
pub const BENCHMARK: &str = "kitchen";

/// Appliances a recipe cooks on; each kitchen has one of each.
const APPLIANCES: [&str; 3] = ["stove", "oven", "fryer"];

/// What to generate.
#[derive(Debug, Clone, Copy)]
pub struct Params {
    /// Seed of the random draws; the same seed and parameters give the same instance.
    pub seed: u64,
    /// Number of recipes (jobs) `n`.
    pub recipes: usize,
    /// Number of identical cooks `m`.
    pub agents: u32,
}

/// A seeded kitchen instance.
pub fn generate(p: &Params) -> Instance {
    let mut rng = SmallRng::seed_from_u64(p.seed);
    let mut activities = Vec::new();
    let mut precedences = Vec::new();
    for r in 1..=p.recipes {
        let preps = rng.random_range(1..=3);
        let cook = format!("r{r}-cook");
        for k in 1..=preps {
            let id = format!("r{r}-prep{k}");
            activities.push(Activity::new(id.clone(), rng.random_range(2..=6)));
            precedences.push(Precedence::finish_to_start(id, cook.clone(), 0));
        }
        let appliance = APPLIANCES[rng.random_range(0..APPLIANCES.len())];
        let mut c = Activity::new(cook.clone(), rng.random_range(5..=15));
        c.agent = AgentUse::BusyFor(1);
        c.uses.push(ResourceUse {
            resource: appliance.into(),
            amount: 1,
        });
        activities.push(c);
        let plate = format!("r{r}-plate");
        activities.push(Activity::new(plate.clone(), rng.random_range(1..=2)));
        precedences.push(Precedence::finish_to_start(cook, plate, 0));
    }
    let resources = APPLIANCES
        .iter()
        .map(|a| Resource {
            id: (*a).into(),
            capacity: 1,
            states: vec![],
        })
        .collect();
    let mut notes = BTreeMap::new();
    notes.insert("seed".into(), p.seed.into());
    Instance {
        time_unit: TimeUnit::Minute,
        resources,
        activities,
        precedences,
        source: Some(Source {
            benchmark: BENCHMARK.into(),
            file: None,
            notes,
        }),
        ..Instance::new(
            format!("kitchen-s{}-n{}-m{}", p.seed, p.recipes, p.agents),
            Some(p.agents),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kitchens_are_valid_and_reproducible() {
        let p = Params {
            seed: 3,
            recipes: 4,
            agents: 2,
        };
        let inst = generate(&p);
        inst.validate().unwrap();
        assert_eq!(inst, generate(&p));
        assert_eq!(
            inst.activities
                .iter()
                .filter(|a| a.id.ends_with("-cook"))
                .count(),
            4
        );
    }
}
