//! Importing the real benchmark data (`makespan_testkit::data`: beside the repository, as
//! in CI): the known counts, the pickle and JSON readers agreeing, and the upstream errors
//! found by computation matching the known ones.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::Path;

use makespan::benchmarks::{export_native, import, input_files, ImportOptions};
use makespan::instance::Instance;
use makespan::schedule::ScheduledActivity;

fn import_default(path: &Path) -> Vec<Instance> {
    import(path, &ImportOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn note<'a>(inst: &'a Instance, key: &str) -> Option<&'a serde_json::Value> {
    inst.source.as_ref()?.notes.get(key)
}

fn paracook_instances() -> Option<Vec<Instance>> {
    let files = input_files(&makespan_testkit::data("paracook/abstract")?).unwrap();
    assert_eq!(files.len(), 72);
    Some(files.iter().flat_map(|f| import_default(f)).collect())
}

#[test]
fn paracook_files_give_216_instances_with_distinct_names() {
    let Some(insts) = paracook_instances() else {
        return;
    };
    assert_eq!(insts.len(), 216);
    let names: HashSet<&str> = insts.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names.len(), 216);
    assert!(names.contains("paracook-burger-s42-o1-m1"));
    assert!(names.contains("paracook-sushi-s126-o4-m3"));
    for m in 1..=3 {
        assert_eq!(insts.iter().filter(|i| i.agents == Some(m)).count(), 72);
    }
}

#[test]
fn paracook_has_1317_subtasks_and_keeps_the_54_backward_edges() {
    let Some(insts) = paracook_instances() else {
        return;
    };
    let one_cook: Vec<&Instance> = insts.iter().filter(|i| i.agents == Some(1)).collect();
    let subtasks: usize = one_cook.iter().map(|i| i.activities.len()).sum();
    assert_eq!(subtasks, 1_317);
    let mut backward = 0;
    for inst in &one_cook {
        let position: HashMap<&str, usize> = inst
            .activities
            .iter()
            .enumerate()
            .map(|(k, a)| (a.id.as_str(), k))
            .collect();
        for p in &inst.precedences {
            if position[p.before.as_str()] > position[p.after.as_str()] {
                backward += 1;
                assert_eq!(p.min_lag, 0, "{}: {} -> {}", inst.name, p.before, p.after);
            }
        }
    }
    assert_eq!(backward, 54);
}

#[test]
fn paracook_lags_are_the_generator_constants() {
    let Some(insts) = paracook_instances() else {
        return;
    };
    let lags: BTreeSet<i64> = insts
        .iter()
        .flat_map(|i| i.precedences.iter().map(|p| p.min_lag))
        .collect();
    assert_eq!(lags, BTreeSet::from([0, 10, 16, 24]));
}

/// The original scorer's decoder: every subtask starts at the earliest time its
/// list predecessor and its dependencies allow; `None` on a deadlock.
fn decode_paracook(inst: &Instance, lists: &[Vec<String>]) -> Option<i64> {
    let duration: HashMap<&str, i64> = inst
        .activities
        .iter()
        .map(|a| (a.id.as_str(), a.duration))
        .collect();
    let mut finish: HashMap<&str, i64> = HashMap::new();
    let (mut next, mut time) = (vec![0; lists.len()], vec![0i64; lists.len()]);
    let mut progress = true;
    while progress {
        progress = false;
        for (a, list) in lists.iter().enumerate() {
            let Some(name) = list.get(next[a]) else {
                continue;
            };
            let deps: Vec<_> = inst
                .precedences
                .iter()
                .filter(|p| &p.after == name)
                .collect();
            if deps.iter().all(|p| finish.contains_key(p.before.as_str())) {
                let ready = deps
                    .iter()
                    .map(|p| finish[p.before.as_str()] + p.min_lag)
                    .max()
                    .unwrap_or(0);
                time[a] = time[a].max(ready) + duration[name.as_str()];
                finish.insert(name.as_str(), time[a]);
                next[a] += 1;
                progress = true;
            }
        }
    }
    (finish.len() == inst.activities.len()).then(|| time.into_iter().max().unwrap_or(0))
}

/// A semi-active list schedule: activities in topological order, each on the agent free
/// first, as early as its dependencies allow.
fn list_schedule(inst: &Instance) -> Vec<ScheduledActivity> {
    let m = inst.agents.unwrap() as usize;
    let (mut free, mut end) = (vec![0i64; m], HashMap::new());
    let mut schedule = Vec::new();
    while schedule.len() < inst.activities.len() {
        for a in &inst.activities {
            let deps: Vec<_> = inst
                .precedences
                .iter()
                .filter(|p| p.after == a.id)
                .collect();
            if end.contains_key(a.id.as_str())
                || !deps.iter().all(|p| end.contains_key(p.before.as_str()))
            {
                continue;
            }
            let ready = deps
                .iter()
                .map(|p| end[p.before.as_str()] + p.min_lag)
                .max()
                .unwrap_or(0);
            let agent = (0..m).min_by_key(|&k| free[k]).unwrap();
            let start = ready.max(free[agent]);
            free[agent] = start + a.duration;
            end.insert(a.id.as_str(), start + a.duration);
            schedule.push(ScheduledActivity::at(
                a.id.clone(),
                Some(agent as u32),
                start,
                a.duration,
            ));
        }
    }
    schedule
}

#[test]
fn paracook_native_answer_decodes_to_the_schedule_makespan() {
    let Some(insts) = paracook_instances() else {
        return;
    };
    for inst in &insts {
        let schedule = list_schedule(inst);
        let answer = export_native(inst, &schedule).expect("ParaCook has a native answer");
        assert_eq!(answer.extension, "json");
        let lists: Vec<Vec<String>> = serde_json::from_str(&answer.text).unwrap();
        assert_eq!(lists.len(), inst.agents.unwrap() as usize, "{}", inst.name);
        let makespan = makespan::schedule::makespan(&schedule);
        assert_eq!(
            decode_paracook(inst, &lists),
            Some(makespan),
            "{}",
            inst.name
        );
    }
}

fn asynchow_json() -> Option<Vec<Instance>> {
    Some(import_default(
        &makespan_testkit::data("asynchow")?.join("instances.json"),
    ))
}

#[test]
fn asynchow_json_gives_1998_instances_and_68_lo_variants() {
    let Some(insts) = asynchow_json() else { return };
    let (lo, hi): (Vec<&Instance>, Vec<&Instance>) =
        insts.iter().partition(|i| i.name.ends_with("-lo"));
    assert_eq!(hi.len(), 1_998);
    assert_eq!(lo.len(), 68);
    let mut per_split: BTreeMap<&str, usize> = BTreeMap::new();
    for inst in &lo {
        *per_split
            .entry(note(inst, "split").unwrap().as_str().unwrap())
            .or_default() += 1;
        assert_eq!(note(inst, "duration_end").unwrap(), "lo");
    }
    assert_eq!(
        per_split,
        BTreeMap::from([("async", 52), ("para", 13), ("seq", 3)])
    );
    assert!(hi
        .iter()
        .all(|i| i.agents.is_none() && note(i, "duration_end").unwrap() == "hi"));
    let names: HashSet<&str> = insts.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names.len(), insts.len());
    assert!(names.contains("asynchow-async-0163"));
}

#[test]
fn asynchow_limited_variants_are_added_on_request() {
    let Some(dir) = makespan_testkit::data("asynchow") else {
        return;
    };
    let opts = ImportOptions {
        agents: vec![Some(2), Some(3)],
        ..ImportOptions::default()
    };
    let insts = import(&dir.join("instances.json"), &opts).unwrap();
    assert_eq!(insts.len(), 3 * (1_998 + 68));
    assert!(insts
        .iter()
        .any(|i| i.name == "asynchow-async-0000-m3" && i.agents == Some(3)));
}

#[test]
fn asynchow_pickles_equal_the_json_instances() {
    let Some(json) = asynchow_json() else { return };
    let dir = makespan_testkit::data("asynchow").unwrap();
    let without_file = |i: &Instance| {
        let mut i = i.clone();
        i.source.as_mut().unwrap().file = None;
        i
    };
    let by_name: HashMap<&str, &Instance> = json.iter().map(|i| (i.name.as_str(), i)).collect();
    let mut seen = 0;
    for split in ["async", "para", "seq"] {
        for inst in import_default(&dir.join(format!("{split}_benchmark.pkl"))) {
            let twin = by_name
                .get(inst.name.as_str())
                .unwrap_or_else(|| panic!("{} not in the JSON", inst.name));
            assert_eq!(without_file(&inst), without_file(twin), "{}", inst.name);
            seen += 1;
        }
    }
    assert_eq!(seen, json.len());
}

#[test]
fn compound_duration_bug_is_found_in_exactly_the_known_steps() {
    let Some(insts) = asynchow_json() else { return };
    let misread: BTreeMap<&str, Vec<&str>> = insts
        .iter()
        .filter_map(|i| {
            let steps = note(i, "upstream_misread_steps")?.as_array()?;
            Some((
                note(i, "id")?.as_str()?,
                steps.iter().filter_map(|s| s.as_str()).collect(),
            ))
        })
        .collect();
    let expected = BTreeMap::from([
        ("async-0163", vec!["6"]),
        ("async-0164", vec!["7"]),
        ("async-0356", vec!["6"]),
        ("async-0589", vec!["4", "5"]),
        ("async-0594", vec!["6"]),
        ("seq-0099", vec!["4"]),
        ("seq-0161", vec!["7"]),
    ]);
    assert_eq!(misread, expected);
}

#[test]
fn gold_errors_are_the_known_ones_and_no_others() {
    let Some(insts) = asynchow_json() else { return };
    let flagged = |needle: &str| -> BTreeSet<&str> {
        insts
            .iter()
            .filter(|i| {
                note(i, "gold_error")
                    .and_then(|e| e.as_str())
                    .is_some_and(|e| e.contains(needle))
            })
            .flat_map(|i| note(i, "id").and_then(|id| id.as_str()))
            .collect()
    };
    let compound = BTreeSet::from([
        "async-0163",
        "async-0356",
        "async-0589",
        "async-0594",
        "seq-0099",
        "seq-0161",
    ]);
    assert_eq!(flagged("compound-duration bug"), compound);
    assert_eq!(
        flagged("lower-bound quirk"),
        BTreeSet::from(["async-0829", "async-1113"])
    );
    assert_eq!(flagged("unexplained"), BTreeSet::new());
    assert_eq!(flagged("the gold").len(), 8);
    let mislabelled: BTreeSet<&str> = insts
        .iter()
        .filter(|i| note(i, "plan_type_error").is_some())
        .flat_map(|i| note(i, "id").and_then(|id| id.as_str()))
        .collect();
    assert_eq!(
        mislabelled,
        BTreeSet::from(["seq-0045", "seq-0087", "seq-0137"])
    );
}

#[test]
fn gold_notes_are_the_benchmark_gold() {
    let Some(insts) = asynchow_json() else { return };
    let inst = insts
        .iter()
        .find(|i| i.name == "asynchow-async-0163")
        .unwrap();
    assert_eq!(note(inst, "gold_seconds_lo").unwrap(), 6_300);
    assert_eq!(note(inst, "gold_seconds_hi").unwrap(), 6_300);
    assert_eq!(inst.activities[5].duration, 9_000);
}

/// Longest path through an instance's precedences, node-weighted by duration.
fn critical_path(inst: &Instance) -> i64 {
    let index: HashMap<&str, usize> = inst
        .activities
        .iter()
        .enumerate()
        .map(|(k, a)| (a.id.as_str(), k))
        .collect();
    let mut indegree = vec![0; inst.activities.len()];
    for p in &inst.precedences {
        indegree[index[p.after.as_str()]] += 1;
    }
    let mut ready: Vec<usize> = (0..indegree.len()).filter(|&k| indegree[k] == 0).collect();
    let mut start = vec![0i64; indegree.len()];
    let mut longest = 0;
    while let Some(k) = ready.pop() {
        let end = start[k] + inst.activities[k].duration;
        longest = longest.max(end);
        for p in inst
            .precedences
            .iter()
            .filter(|p| p.before == inst.activities[k].id)
        {
            let next = index[p.after.as_str()];
            start[next] = start[next].max(end + p.min_lag);
            indegree[next] -= 1;
            if indegree[next] == 0 {
                ready.push(next);
            }
        }
    }
    assert!(
        indegree.iter().all(|&d| d == 0),
        "{} has a cycle",
        inst.name
    );
    longest
}

#[test]
fn imported_durations_give_the_corrected_critical_path() {
    let Some(dir) = makespan_testkit::data("asynchow") else {
        return;
    };
    let insts = import_default(&dir.join("instances.json"));
    let raw: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("instances.json")).unwrap()).unwrap();
    let expected: HashMap<&str, (i64, i64)> = raw["instances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            let cp = |end: &str| i[format!("corrected_cp_seconds_{end}")].as_i64().unwrap();
            (i["id"].as_str().unwrap(), (cp("lo"), cp("hi")))
        })
        .collect();
    for inst in &insts {
        let (lo, hi) = expected[note(inst, "id").unwrap().as_str().unwrap()];
        let want = if inst.name.ends_with("-lo") { lo } else { hi };
        assert_eq!(critical_path(inst), want, "{}", inst.name);
    }
}
