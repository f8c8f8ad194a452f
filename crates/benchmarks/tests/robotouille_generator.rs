//! Robotouille's seeded kitchens against upstream's own generator: every environment file of
//! the three sets × every evaluation seed × plain and noisy generation, run by `python3` on
//! the checkout in `../shared` (`upstream_generator.py` beside this file) and compared byte
//! for byte (keys sorted), with the seed that succeeded and the seeds that raised.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Map, Value};

use makespan_benchmarks::robotouille::checkout::{Checkout, SETS};
use makespan_benchmarks::robotouille::seeds::{load_environment, seeded};

/// Keys sorted at every level, compact: the bytes the Python driver prints.
fn canonical(value: &Value) -> String {
    fn sorted(value: &Value) -> Value {
        match value {
            Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                let mut out = Map::new();
                for k in keys {
                    out.insert(k.clone(), sorted(&map[k]));
                }
                Value::Object(out)
            }
            Value::Array(list) => Value::Array(list.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    serde_json::to_string(&sorted(value)).unwrap()
}

/// Every environment file of the three sets, relative to the examples folder.
fn environment_files(examples: &Path) -> Vec<String> {
    let mut files = Vec::new();
    for set in SETS {
        let mut names: Vec<String> = std::fs::read_dir(examples.join(set))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".json"))
            .collect();
        names.sort();
        files.extend(names.into_iter().map(|n| format!("{set}/{n}")));
    }
    files
}

#[test]
fn every_file_seed_and_mode_gives_upstreams_kitchen_and_effective_seed() {
    let Some(root) = makespan_testkit::data("robotouille/upstream") else {
        return;
    };
    let examples = root.join("environments/env_generator/examples");
    let seeds = Checkout::open(&root).unwrap().seeds;
    let files = environment_files(&examples);
    let mut jobs: Vec<(String, i64, bool)> = Vec::new();
    for file in &files {
        for &seed in &seeds {
            for noisy in [false, true] {
                jobs.push((file.clone(), seed, noisy));
            }
        }
    }
    let driver = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/upstream_generator.py");
    let child = Command::new("python3")
        .arg(&driver)
        .arg(&root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) => {
            makespan_testkit::skip(&format!(
                "no python3 ({e}): {} comparisons not run",
                jobs.len()
            ));
            return;
        }
    };
    let input: String = jobs
        .iter()
        .map(|(f, s, n)| format!("{f} {s} {}\n", if *n { "noisy" } else { "plain" }))
        .collect();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "the upstream generator failed");
    let printed = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = printed.lines().collect();
    assert_eq!(lines.len(), jobs.len());

    let mut identical = 0;
    let mut retried = 0;
    let mut differ = Vec::new();
    for ((file, seed, noisy), line) in jobs.iter().zip(&lines) {
        let theirs: Value = serde_json::from_str(line).unwrap();
        let path = examples.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let environment = load_environment(&path, &text).unwrap();
        let ours = seeded(&path, &environment, *seed, *noisy).unwrap();
        let failures: Vec<i64> = ours.failures.iter().map(|f| f.0).collect();
        let same = canonical(&Value::Object(ours.environment)) == canonical(&theirs["environment"])
            && theirs["effective_seed"] == ours.effective_seed
            && theirs["failures"] == serde_json::json!(failures);
        if same {
            identical += 1;
            retried += usize::from(!failures.is_empty());
        } else {
            differ.push(format!("{file} seed {seed} noisy {noisy}"));
        }
    }
    println!(
        "{identical} of {} kitchens identical to upstream's ({} files × {} seeds × plain/noisy; {retried} after seed+k retries)",
        jobs.len(),
        files.len(),
        seeds.len()
    );
    assert!(differ.is_empty(), "differ from upstream: {differ:#?}");
    assert!(retried > 0, "no seed raised: the retry path went untested");
}
