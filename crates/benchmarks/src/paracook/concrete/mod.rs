//! ParaCook's concrete mode, the benchmark's headline: cooks walk a 10 × 8 kitchen map, carry
//! one item each, chop on boards, cook in pans and pots on stoves, plate, serve orders first
//! in first out and wash the plates that come back.
//!
//! An instance is a simulated world: its [`Kitchen`] (map, orders, recipes, constants) sits
//! in the instance's world note, and a plan is replayed by [`sim`], an event-exact port of the
//! game, in the game's own rules ([`sim::Mode::Replica`]) or the rules its prompt states
//! ([`sim::Mode::Intended`]).

pub mod answer;
pub mod bounds;
pub mod checkout;
pub mod drawing;
pub mod harness;
pub mod kitchen;
pub mod oracle;
pub mod replay;
pub mod score;
pub mod sim;

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

pub use kitchen::Kitchen;
use makespan_model::instance::{Activity, Instance, LoadError, Source, TimeUnit};

use super::BENCHMARK;
use crate::simulated::WORLD_NOTE;

/// The note naming the instance's harness key (`<category>/seed_<s>/agent_num_<m>/orders_num_<k>`).
pub const KEY_NOTE: &str = "key";

/// The instance name of a kitchen: `paracook-concrete-<category>-s<seed>-o<k>-m<m>`.
pub fn instance_name(kitchen: &Kitchen) -> String {
    format!(
        "{BENCHMARK}-concrete-{}-s{}-o{}-m{}",
        kitchen.category,
        kitchen.seed,
        kitchen.orders_num,
        kitchen.agents()
    )
}

/// The instance of a kitchen. Its activities are a relaxation that bounds every plan from
/// below: one serve, which the game refuses at time 0.
pub fn instance(kitchen: &Kitchen, file: Option<&Path>) -> Instance {
    let mut notes = BTreeMap::new();
    notes.insert("mode".to_string(), Value::from("concrete"));
    notes.insert(KEY_NOTE.to_string(), Value::from(kitchen.key.clone()));
    notes.insert("dish".to_string(), Value::from(kitchen.category.clone()));
    notes.insert("seed".to_string(), Value::from(kitchen.seed));
    notes.insert("orders".to_string(), Value::from(kitchen.orders_num));
    notes.insert("agents".to_string(), Value::from(kitchen.agents()));
    if let Some(same) = &kitchen.same_map_as {
        notes.insert("same_map_as".to_string(), Value::from(same.clone()));
    }
    notes.insert(
        WORLD_NOTE.to_string(),
        serde_json::to_value(kitchen).expect("a kitchen always serialises"),
    );
    let mut serve = Activity::new("serve", 1);
    serve.label = Some("the first serve (the window refuses dishes at time 0)".to_string());
    Instance {
        time_unit: TimeUnit::Step,
        activities: vec![serve],
        source: Some(Source {
            benchmark: BENCHMARK.to_string(),
            file: file.map(|f| f.display().to_string()),
            notes,
        }),
        ..Instance::new(instance_name(kitchen), Some(kitchen.agents() as u32))
    }
}

/// The kitchen of a concrete instance, read back from its world note.
pub fn kitchen_of(instance: &Instance) -> Option<Result<Kitchen, String>> {
    let note = instance.source.as_ref()?.notes.get(WORLD_NOTE)?;
    Some(serde_json::from_value(note.clone()).map_err(|e| {
        format!(
            "instance {}: its world note is not a ParaCook kitchen ({e})",
            instance.name
        )
    }))
}

/// Every concrete instance of a checkout (or its `data/cook` folder) for the requested cook
/// counts (default: all the checkout has).
pub fn import_checkout(root: &Path, agents: &[Option<u32>]) -> Result<Vec<Instance>, LoadError> {
    let kitchens = checkout::read_checkout(root)?;
    let cook = checkout::cook_folder(root);
    Ok(kitchens
        .iter()
        .filter(|k| agents.is_empty() || agents.contains(&Some(k.agents() as u32)))
        .map(|k| instance(k, cook.as_deref()))
        .collect())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::path::PathBuf;

    /// The user's checkout in the shared folder, when this machine has it.
    pub(crate) fn upstream() -> Option<PathBuf> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/benchmarks/paracook/upstream");
        if dir.join("data/cook").is_dir() {
            Some(dir)
        } else {
            println!("skipped: no ParaCook checkout at {}", dir.display());
            None
        }
    }

    #[test]
    fn a_checkout_gives_every_category_seed_cook_count_and_order_count() {
        let Some(root) = upstream() else { return };
        let kitchens = checkout::read_checkout(&root).unwrap();
        assert_eq!(kitchens.len(), 6 * 3 * 3 * 4);
        let k = kitchens
            .iter()
            .find(|k| k.key == "pasta/seed_42/agent_num_2/orders_num_2")
            .unwrap();
        assert_eq!(k.agents(), 2);
        assert_eq!(k.orders.len(), 2);
        assert!(k.orders.iter().all(|o| k.recipe(o).is_some()));
        assert_eq!(k.constants, kitchen::Constants::default());
        assert_eq!((k.map.width, k.map.height), (10, 8));
        let stoves = k
            .map
            .tiles
            .iter()
            .filter(|t| t.kind == kitchen::StationKind::Stove);
        assert_eq!(stoves.count(), 4);
        // The data folder alone reads the same kitchens.
        let alone = checkout::read_checkout(&root.join("data/cook")).unwrap();
        assert_eq!(alone, kitchens);
    }

    #[test]
    fn the_instances_carry_their_kitchen_and_key() {
        let Some(root) = upstream() else { return };
        let insts = import_checkout(&root, &[Some(1)]).unwrap();
        assert_eq!(insts.len(), 6 * 3 * 4);
        let inst = &insts[0];
        assert_eq!(inst.name, "paracook-concrete-burger-s126-o1-m1");
        inst.validate().unwrap();
        let kitchen = kitchen_of(inst).unwrap().unwrap();
        assert_eq!(kitchen.key, "burger/seed_126/agent_num_1/orders_num_1");
        assert_eq!(
            inst.source.as_ref().unwrap().notes[KEY_NOTE],
            kitchen.key.as_str()
        );
    }

    #[test]
    fn walls_after_the_first_are_renamed_as_the_game_registers_them() {
        let Some(root) = upstream() else { return };
        let kitchens = checkout::read_checkout(&root).unwrap();
        let walls: Vec<&str> = kitchens[0]
            .map
            .tiles
            .iter()
            .filter(|t| t.kind == kitchen::StationKind::Wall)
            .map(|t| t.name.as_str())
            .collect();
        assert_eq!(walls, ["wall", "wall_1"]);
    }
}
