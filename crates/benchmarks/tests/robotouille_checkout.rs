//! A Robotouille checkout read whole: every set, task and seed as a world instance, the
//! options that select them, and the errors for a broken checkout.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use makespan_benchmarks::robotouille::checkout::{WorldNote, SETS};
use makespan_benchmarks::{import, ImportOptions};
use makespan_model::instance::{AgentUse, Instance};

fn upstream() -> Option<PathBuf> {
    makespan_testkit::data("robotouille/upstream")
}

fn note(instance: &Instance) -> WorldNote {
    WorldNote::of(instance).expect("a world note").unwrap()
}

#[test]
fn a_checkout_gives_every_set_task_and_seed_with_the_default_layout() {
    let Some(root) = upstream() else {
        return;
    };
    let instances = import(&root, &ImportOptions::default()).unwrap();
    let mut per_set: BTreeMap<String, usize> = BTreeMap::new();
    let mut retried = 0;
    for i in &instances {
        let n = note(i);
        *per_set.entry(n.set.clone()).or_default() += 1;
        let layout = n.seed.map_or("default".to_string(), |s| format!("seed{s}"));
        let number = n.task.split('_').next().unwrap();
        assert_eq!(
            i.name,
            format!("robotouille-{}-{number}-{layout}", n.set),
            "{}",
            n.task
        );
        match (n.seed, n.effective_seed) {
            (None, None) => assert!(n.retried_seeds.is_empty()),
            (Some(s), Some(e)) => {
                assert_eq!(e, s + n.retried_seeds.len() as i64, "{}", i.name);
                retried += usize::from(e != s);
            }
            other => panic!("{}: {other:?}", i.name),
        }
        // Seeded kitchens keep one robot, whatever the set.
        let robots = n.environment["players"].as_array().unwrap().len();
        if n.seed.is_some() {
            assert_eq!(robots, 1, "{}", i.name);
        }
        assert!(Path::new(&n.domain).is_file());
        assert_eq!(i.agents, Some(1));
        assert_eq!(
            n.reference_optimal_steps.is_some(),
            n.set != "multi_agent",
            "{}",
            i.name
        );
    }
    println!(
        "{} instances: {per_set:?}; {retried} seeded ones come from seed+k",
        instances.len()
    );
    assert_eq!(per_set.len(), 3);
    for set in SETS {
        assert_eq!(per_set[set], 10 * 11, "{set}");
    }
    assert!(retried > 0);
    // The environments folder is the same checkout.
    let opts = ImportOptions::default().with("sets", &["multi"]).unwrap();
    let from_environments = import(&root.join("environments"), &opts).unwrap();
    assert_eq!(from_environments.len(), 110);
    assert_eq!(
        from_environments[0].name,
        "robotouille-multi_agent-1-default"
    );
}

#[test]
fn options_select_sets_tasks_and_seeds() {
    let Some(root) = upstream() else {
        return;
    };
    let opts = ImportOptions::default()
        .with("sets", &["asynchronous"])
        .unwrap()
        .with("tasks", &["3", "3.1"])
        .unwrap()
        .with("seeds", &["default", "42", "42"])
        .unwrap();
    let names: Vec<String> = import(&root, &opts)
        .unwrap()
        .into_iter()
        .map(|i| i.name)
        .collect();
    assert_eq!(
        names,
        [
            "robotouille-asynchronous-3-default",
            "robotouille-asynchronous-3-seed42",
            "robotouille-asynchronous-3.1-default",
            "robotouille-asynchronous-3.1-seed42",
        ]
    );
    let by_name = ImportOptions::default()
        .with("tasks", &["synchronous/1_lettuce_sandwich"])
        .unwrap()
        .with("seeds", &["7"])
        .unwrap();
    let one = import(&root, &by_name).unwrap();
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].name, "robotouille-synchronous-1-seed7");
    let unknown = ImportOptions::default().with("tasks", &["11"]).unwrap();
    let err = import(&root, &unknown).unwrap_err().to_string();
    assert!(err.contains("no Robotouille task \"11\""), "{err}");
    for (knob, value, says) in [
        ("sets", "kitchen", "not a Robotouille set"),
        ("seeds", "x", "not a seed"),
    ] {
        let err = ImportOptions::default().with(knob, &[value]).unwrap_err();
        assert!(err.0.contains(says), "{err}");
    }
}

/// Upstream's generation: the seeded kitchen of async 0 under seed 42 has the cheese on the
/// only stove, and its relaxation asks for the cook and cut steps the goal forces.
#[test]
fn a_seeded_instance_carries_its_kitchen_and_a_relaxation() {
    let Some(root) = upstream() else {
        return;
    };
    let opts = ImportOptions::default()
        .with("sets", &["asynchronous"])
        .unwrap()
        .with("tasks", &["0", "3"])
        .unwrap()
        .with("seeds", &["42"])
        .unwrap();
    let instances = import(&root, &opts).unwrap();
    let zero = &instances[0];
    let n = note(zero);
    let stations: Vec<&str> = n.environment["stations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    let stoves: Vec<_> = n.environment["stations"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["name"] == "stove")
        .collect();
    assert_eq!(stoves.len(), 1, "{stations:?}");
    let on_stove = n.environment["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["x"] == stoves[0]["x"] && i["y"] == stoves[0]["y"])
        .unwrap();
    assert_eq!(on_stove["name"], "cheese");
    let ids: Vec<&str> = zero.activities.iter().map(|a| a.id.as_str()).collect();
    assert!(ids.contains(&"cook:chicken#3"), "{ids:?}");
    assert!(ids.contains(&"cooked:chicken#3"), "{ids:?}");
    let goal = zero.activities.iter().find(|a| a.id == "goal").unwrap();
    assert_eq!((goal.duration, goal.agent), (0, AgentUse::None));
    // Task 3 fries a potato: three cuts, then the fry.
    let three = &instances[1];
    let ids: Vec<&str> = three.activities.iter().map(|a| a.id.as_str()).collect();
    let fry = ids.iter().find(|i| i.starts_with("fry:")).unwrap();
    let potato = fry.trim_start_matches("fry:");
    assert!(three
        .precedences
        .iter()
        .any(|p| p.before == format!("cut:{potato}:3") && p.after == *fry));
}

/// A copy of the parts of a checkout the reader reads, to break one file at a time.
fn copy_checkout(root: &Path, to: &Path) {
    for dir in ["conf/evaluation", "domain"] {
        std::fs::create_dir_all(to.join(dir)).unwrap();
    }
    for file in [
        "conf/evaluation/base_evaluation.yaml",
        "domain/robotouille.json",
    ] {
        std::fs::copy(root.join(file), to.join(file)).unwrap();
    }
    let experiments = to.join("conf/experiments/IO/asynchronous");
    std::fs::create_dir_all(&experiments).unwrap();
    std::fs::copy(
        root.join("conf/experiments/IO/asynchronous/io.yaml"),
        experiments.join("io.yaml"),
    )
    .unwrap();
    let examples = "environments/env_generator/examples";
    for set in SETS {
        let from = root.join(examples).join(set);
        std::fs::create_dir_all(to.join(examples).join(set)).unwrap();
        for entry in std::fs::read_dir(&from).unwrap() {
            let entry = entry.unwrap();
            std::fs::copy(
                entry.path(),
                to.join(examples).join(set).join(entry.file_name()),
            )
            .unwrap();
        }
    }
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{}: {from}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn a_broken_file_is_named_with_the_place_in_it() {
    let Some(root) = upstream() else {
        return;
    };
    let cases: [(&str, &str, &str, &str); 5] = [
        (
            "environments/env_generator/examples/asynchronous/0_cheese_chicken_sandwich.json",
            "\"name\": \"stove\"",
            "\"name\": \"oven\"",
            "stations[1].name",
        ),
        (
            "conf/evaluation/base_evaluation.yaml",
            "testing_seeds: [42,",
            "testing_seeds: [forty-two,",
            "testing_seeds[0]",
        ),
        (
            "conf/experiments/IO/asynchronous/io.yaml",
            "    21,\n",
            "",
            "evaluation.optimal_steps",
        ),
        (
            "conf/experiments/IO/asynchronous/io.yaml",
            "\"asynchronous/0_cheese_chicken_sandwich\"",
            "\"asynchronous/0_cheese_sandwich\"",
            "evaluation.environment_names[0]",
        ),
        (
            "domain/robotouille.json",
            "\"action_defs\"",
            "\"actions\"",
            "action_defs",
        ),
    ];
    for (file, from, to, at) in cases {
        let dir = tempfile::tempdir().unwrap();
        copy_checkout(&root, dir.path());
        edit(&dir.path().join(file), from, to);
        let err = import(dir.path(), &ImportOptions::default())
            .unwrap_err()
            .to_string();
        let name = Path::new(file).file_name().unwrap().to_string_lossy();
        assert!(
            err.contains(name.as_ref()) && err.contains(at),
            "{file}: {err}"
        );
    }
}
