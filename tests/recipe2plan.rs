//! Recipe2Plan end to end: the committed optima (`references/recipe2plan.jsonl`) verify and beat the benchmark's heuristic,
//! the heuristic's own plans verify, native Step answers verify, and each rule class of the
//! Step verifier is caught by a plan that breaks exactly that rule.

use std::collections::BTreeSet;
use std::path::Path;

use makespan::benchmarks::recipe2plan;
use makespan::benchmarks::recipe2plan::steps::{parse_steps, verify_steps};
use makespan::benchmarks::{import, ImportOptions};
use makespan::instance::Instance;
use makespan::references::References;
use makespan::solution::{Solution, Status};
use makespan::verify::{verify, Rule};

/// The instances of the benchmark's `cooking.json`, or `None` (the test is skipped) where the
/// data is absent.
fn instances() -> Option<Vec<Instance>> {
    let cooking = makespan_testkit::data("recipe2plan/cooking.json")?;
    Some(import(&cooking, &ImportOptions::default()).unwrap())
}

/// The committed references (`references/recipe2plan.jsonl`).
fn references() -> References {
    References::read(Path::new("references/recipe2plan.jsonl")).unwrap()
}

/// The committed optimum of `instance`: the same problem (by hash), its schedule re-checked.
fn solution(references: &References, instance: &Instance) -> Solution {
    references.solution(&instance.name, instance).unwrap()
}

#[test]
fn cooking_json_gives_130_instances_of_one_cook() {
    let Some(all) = instances() else {
        return;
    };
    assert_eq!(all.len(), 130);
    let steps: usize = all.iter().map(|i| i.activities.len()).sum();
    assert_eq!(steps, 2 * 1_501);
    let medium_windows: usize = all
        .iter()
        .filter(|i| i.name.ends_with("-medium"))
        .map(|i| i.precedences.iter().filter(|p| p.max_lag.is_some()).count())
        .sum();
    assert_eq!(medium_windows, 360);
    assert!(all.iter().all(|i| i.agents == Some(1)));
}

#[test]
fn every_committed_optimum_verifies_and_is_at_most_the_heuristic_plan() {
    let Some(plans) = makespan_testkit::data("recipe2plan/plan.json") else {
        return;
    };
    let Some(instances) = instances() else {
        return;
    };
    let plans = recipe2plan::read_baseline(&plans).unwrap();
    let references = references();
    assert_eq!(references.len(), instances.len());
    let mut missing_plans = Vec::new();
    for instance in instances {
        let s = solution(&references, &instance);
        assert_eq!(s.status, Status::Optimal, "{}", instance.name);
        let report = verify(&instance, &s.schedule);
        assert!(report.valid, "{}", report.render_text());
        assert_eq!(report.makespan, s.makespan);
        let (key, level) = recipe2plan::key_and_level(&instance).unwrap();
        match &plans[&(key.clone(), level)] {
            None => missing_plans.push(format!("{key}-{}", level.name())),
            Some(plan) => {
                let heuristic = verify(&instance, &recipe2plan::plan_schedule(plan));
                assert!(heuristic.valid, "{}", heuristic.render_text());
                assert!(s.makespan <= heuristic.makespan, "{}", instance.name);
            }
        }
    }
    assert_eq!(missing_plans, ["Pizza_Chocolate-Egg-medium"]);
}

#[test]
fn native_answers_verify_with_full_success() {
    let Some(instances) = instances() else {
        return;
    };
    let references = references();
    for instance in instances {
        let reference = references.lookup(&instance.name).unwrap();
        let parsed = parse_steps(&reference.answer.as_ref().unwrap().text);
        assert!(parsed.malformed.is_empty());
        let checked = verify_steps(&instance, &parsed, None, None);
        assert!(checked.report.valid, "{}", checked.report.render_text());
        assert!(checked.metrics.success);
        assert_eq!(
            checked.report.makespan,
            solution(&references, &instance).makespan
        );
    }
}

/// Recipe A: preheat 350 (autonomous, oven), mix (interruptible), melt (autonomous,
/// microwave), pour (window of 2 min after melt), bake at 350 (autonomous, oven), preheat
/// 425 (autonomous, oven). Recipe B: chop, fry (stove), simmer (autonomous, stove, after chop).
const TINY: &str = r#"[[
 {"recipe": "A", "steps": [
  {"step": 0, "text": "", "time": "10 min", "parallel": 1, "interrupt": 0, "prequisites": [], "time_constraint": {}, "physical": {"oven": {"require": {}, "update": {"temperature": 350.0}}}},
  {"step": 1, "text": "", "time": "4 min", "parallel": 0, "interrupt": 1, "prequisites": [], "time_constraint": {}, "physical": {}},
  {"step": 2, "text": "", "time": "1 min", "parallel": 1, "interrupt": 0, "prequisites": [1], "time_constraint": {}, "physical": {"microwave": {"require": {}}}},
  {"step": 3, "text": "", "time": "2 min", "parallel": 0, "interrupt": 0, "prequisites": [2], "time_constraint": {"2": "2 min"}, "physical": {}},
  {"step": 4, "text": "", "time": "20 min", "parallel": 1, "interrupt": 0, "prequisites": [0, 3], "time_constraint": {}, "physical": {"oven": {"require": {"temperature": 350.0}}}},
  {"step": 5, "text": "", "time": "1 min", "parallel": 1, "interrupt": 0, "prequisites": [], "time_constraint": {}, "physical": {"oven": {"require": {}, "update": {"temperature": 425.0}}}}]},
 {"recipe": "B", "steps": [
  {"step": 0, "text": "", "time": "5 min", "parallel": 0, "interrupt": 0, "prequisites": [], "time_constraint": {}, "physical": {}},
  {"step": 1, "text": "", "time": "3 min", "parallel": 0, "interrupt": 0, "prequisites": [0], "time_constraint": {}, "physical": {"stove": {"require": {}}}},
  {"step": 2, "text": "", "time": "5 min", "parallel": 1, "interrupt": 0, "prequisites": [0], "time_constraint": {}, "physical": {"stove": {"require": {}}}}]}
]]"#;

const VALID: [&str; 9] = [
    "Step(0, A, 00:10:00, 00:00:00)",
    "Step(0, B, 00:05:00, 00:00:00)",
    "Step(1, B, 00:03:00, 00:05:00)",
    "Step(2, B, 00:05:00, 00:08:00)",
    "Step(1, A, 00:04:00, 00:08:00)",
    "Step(2, A, 00:01:00, 00:12:00)",
    "Step(3, A, 00:02:00, 00:13:00)",
    "Step(4, A, 00:20:00, 00:15:00)",
    "Step(5, A, 00:01:00, 00:35:00)",
];

fn tiny() -> Instance {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cooking.json");
    std::fs::write(&path, TINY).unwrap();
    let opts = ImportOptions::default().with("level", &["medium"]).unwrap();
    import(&path, &opts).unwrap().remove(0)
}

/// The rules a plan breaks: `VALID` with line `k` replaced by `with` (several lines, or
/// none to drop it).
fn broken(k: usize, with: &[&str]) -> BTreeSet<Rule> {
    let mut lines: Vec<&str> = VALID.to_vec();
    lines.splice(k..=k, with.iter().copied());
    let checked = verify_steps(&tiny(), &parse_steps(&lines.join("\n")), None, None);
    assert!(!checked.metrics.success);
    checked.report.violations.iter().map(|v| v.rule).collect()
}

#[test]
fn the_valid_tiny_plan_passes_with_its_metrics() {
    let checked = verify_steps(&tiny(), &parse_steps(&VALID.join("\n")), None, None);
    assert!(checked.report.valid, "{}", checked.report.render_text());
    assert_eq!(checked.report.makespan, Some(2160));
    assert!(checked.metrics.success);
    assert_eq!(checked.metrics.progress, 1.0);
    // W = 3060 s of actions, M = 2160 s, A = 2220 s autonomous.
    let eta = checked.metrics.multitasking_efficiency.unwrap();
    assert!((eta - (3060.0 - 2160.0) / 2220.0).abs() < 1e-12);
}

/// Recipe2Plan's times were shown in seconds only (`makespan 2160`) where its users read
/// minutes: `verify` and `explain` give the plan's length as the benchmark writes times.
#[test]
fn verify_and_explain_give_the_length_as_the_benchmark_writes_times() {
    let dir = tempfile::tempdir().unwrap();
    let cooking = dir.path().join("cooking.json");
    std::fs::write(&cooking, TINY).unwrap();
    let answer = dir.path().join("answer.txt");
    std::fs::write(&answer, VALID.join("\n")).unwrap();
    let instance = format!("{}#{}", cooking.display(), tiny().name);
    let args = |command: &'static str| {
        vec![
            command.to_string(),
            answer.display().to_string(),
            "--instance".into(),
            instance.clone(),
            "--level".into(),
            "medium".into(),
        ]
    };
    let run = |args: Vec<String>| {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        crate::common::text(&crate::common::makespan(&refs))
    };
    let verified = run(args("verify"));
    assert!(verified.contains("00:36:00 long"), "{verified}");
    let explained = run(args("explain"));
    assert!(
        explained.contains("makespan 2160 (seconds, 00:36:00)"),
        "{explained}"
    );
}

/// `solve`'s and `compare`'s tables showed Recipe2Plan's makespans in seconds (`2160`) where its
/// users read the clock the benchmark writes: the tables give `HH:MM:SS`, while `summary.csv`
/// (for programs) keeps the seconds.
#[test]
fn solve_and_compare_tables_give_times_as_the_benchmark_writes_them() {
    use crate::common::{makespan, text};
    let dir = tempfile::tempdir().unwrap();
    let cooking = dir.path().join("cooking.json");
    std::fs::write(&cooking, TINY).unwrap();
    let out = dir.path().join("solutions");
    let (cooking, out) = (cooking.to_str().unwrap(), out.to_str().unwrap());
    let solved = makespan(&["solve", cooking, "--level", "medium", "--out", out]);
    assert!(solved.status.success(), "{}", text(&solved));
    let name = tiny().name;
    let mut summary = csv::Reader::from_path(Path::new(out).join("summary.csv")).unwrap();
    let record = summary.records().next().unwrap().unwrap();
    assert_eq!(&record[0], name);
    let seconds: i64 = record[2].parse().unwrap();
    let clock = format!(
        "{:02}:{:02}:{:02}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    );
    assert!(seconds >= 60, "the makespan is minutes long: {seconds}");
    let shown = |output: &str| -> String {
        output
            .lines()
            .find(|l| l.starts_with(&name))
            .unwrap_or_else(|| panic!("no row for {name}: {output}"))
            .to_string()
    };
    let row = shown(&text(&solved));
    // Makespan and bound (proven: equal) as the clock, never as the seconds.
    assert_eq!(row.matches(&clock).count(), 2, "{row}");
    assert!(!row.contains(&format!(" {seconds} ")), "{row}");
    let compared = makespan(&["compare", out, "--baseline", out]);
    assert!(compared.status.success(), "{}", text(&compared));
    let row = shown(&text(&compared));
    assert_eq!(row.matches(&clock).count(), 2, "{row}");
}

/// `--agents` was silently ignored by the benchmarks whose agents are fixed: `--agents 2` on
/// Recipe2Plan still solved its one cook, under a run that asked for two. Each refuses a count
/// its instances do not have, with the reason, in a file, a lookup and Python alike; the count
/// they have is accepted, and benchmarks that build one instance per count still do.
#[test]
fn agent_counts_are_refused_by_benchmarks_whose_agents_are_fixed() {
    use crate::common::{makespan, text};
    let dir = tempfile::tempdir().unwrap();
    let cooking = dir.path().join("cooking.json");
    std::fs::write(&cooking, TINY).unwrap();
    let two = ImportOptions {
        agents: vec![Some(2)],
        ..ImportOptions::default()
    };
    let err = import(&cooking, &two).unwrap_err().to_string();
    assert!(
        err.contains("Recipe2Plan has one cook")
            && err.contains("agent counts do not apply: drop --agents, or give 1"),
        "{err}"
    );
    let one = ImportOptions {
        agents: vec![Some(1)],
        ..ImportOptions::default()
    };
    assert_eq!(import(&cooking, &one).unwrap().len(), 2);
    // The same through the CLI, as a file and as a lookup by name.
    let out = dir.path().join("out");
    let solved = makespan(&[
        "solve",
        cooking.to_str().unwrap(),
        "--agents",
        "3",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!solved.status.success(), "{}", text(&solved));
    assert!(
        text(&solved).contains("Recipe2Plan has one cook"),
        "{}",
        text(&solved)
    );
    // Walked in a folder (a clone), the file is still an instance file, not one to skip.
    let walked = makespan(&[
        "solve",
        dir.path().to_str().unwrap(),
        "--agents",
        "3",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(walked.status.code(), Some(2), "{}", text(&walked));
    assert!(
        text(&walked).contains("Recipe2Plan has one cook"),
        "{}",
        text(&walked)
    );
    let answer = dir.path().join("answer.txt");
    std::fs::write(&answer, VALID.join("\n")).unwrap();
    let verified = makespan(&[
        "verify",
        answer.to_str().unwrap(),
        "--instance",
        &format!("{}#{}", cooking.display(), tiny().name),
        "--agents",
        "2",
    ]);
    assert_eq!(verified.status.code(), Some(2), "{}", text(&verified));
    assert!(
        text(&verified).contains("drop --agents"),
        "{}",
        text(&verified)
    );
    if let Some(data) = makespan_testkit::data("recipe2plan/cooking.json") {
        let data = data.parent().unwrap().parent().unwrap().to_str().unwrap();
        let looked_up = makespan(&[
            "verify",
            answer.to_str().unwrap(),
            "--instance",
            "recipe2plan:Cobbler_Pancakes",
            "--level",
            "easy",
            "--data",
            data,
            "--agents",
            "2",
        ]);
        assert_eq!(looked_up.status.code(), Some(2), "{}", text(&looked_up));
        assert!(
            text(&looked_up).contains("Recipe2Plan has one cook"),
            "{}",
            text(&looked_up)
        );
    }
    // A classic format has no agents at all: no count applies.
    let job_shop = dir.path().join("tiny.jss");
    std::fs::write(&job_shop, "2 2\n0 3 1 2\n1 2 0 4\n").unwrap();
    assert_eq!(
        import(&job_shop, &ImportOptions::default()).unwrap().len(),
        1
    );
    let err = import(&job_shop, &one).unwrap_err().to_string();
    assert!(
        err.contains("limit activities by their resources only") && !err.contains("or give"),
        "{err}"
    );
    // A unified instance is built once per count, as before.
    let unified = import(Path::new("instances/two-cooks-breakfast.json"), &two).unwrap();
    assert_eq!(unified[0].agents, Some(2));
}

fn rules_of(lines: &[&str]) -> BTreeSet<Rule> {
    let checked = verify_steps(&tiny(), &parse_steps(&lines.join("\n")), None, None);
    checked.report.violations.iter().map(|v| v.rule).collect()
}

#[test]
fn each_rule_class_is_reported_alone() {
    use Rule::*;
    let one = |r: Rule| BTreeSet::from([r]);
    let extra = |line: &'static str| broken(8, &[VALID[8], line]);
    // Unknown recipe, unknown step.
    assert_eq!(
        extra("Step(0, C, 00:01:00, 00:40:00)"),
        one(UnknownActivity)
    );
    assert_eq!(
        extra("Step(9, A, 00:01:00, 00:40:00)"),
        one(UnknownActivity)
    );
    // A step run twice; a zero-length re-run (the original accepts it).
    assert_eq!(
        extra("Step(3, A, 00:02:00, 00:40:00)"),
        one(DuplicateActivity)
    );
    assert_eq!(extra("Step(3, A, 00:00:00, 00:40:00)"), one(BadPiece));
    // Malformed text is reported, not dropped as the original does.
    assert_eq!(
        extra("Step(1, A, 4 minutes, 00:00:00)"),
        one(MalformedAction)
    );
    // Continuous work in the past: frying overlaps chopping.
    assert_eq!(
        broken(2, &["Step(1, B, 00:03:00, 00:04:00)"]),
        BTreeSet::from([AgentDoubleBooked, PrecedenceViolated])
    );
    // Autonomous start inside a continuous action that is not split there.
    assert_eq!(
        broken(3, &["Step(2, B, 00:05:00, 00:09:00)"]),
        one(AgentDoubleBooked)
    );
    // An autonomous start listed after a continuous step that starts at the same instant is
    // feasible by its times: only the original's stable sort rejects the line order.
    let mut swapped = VALID.to_vec();
    swapped.swap(3, 4);
    let checked = verify_steps(&tiny(), &parse_steps(&swapped.join("\n")), None, None);
    assert!(checked.report.valid, "{}", checked.report.render_text());
    assert_eq!(checked.notes.len(), 1);
    assert!(
        checked.notes[0].contains("[line_order]"),
        "{:?}",
        checked.notes
    );
    // Appliance occupied: simmering on the stove while frying.
    let mut stove = VALID.to_vec();
    stove[3] = stove[2];
    stove[2] = "Step(2, B, 00:05:00, 00:05:00)";
    assert_eq!(rules_of(&stove), one(ResourceOverCapacity));
    // Wrong oven temperature: the 425 preheat runs between the 350 preheat and the bake
    // (mixing is split around it, as the clock requires).
    let hot = [
        VALID[0],
        VALID[1],
        VALID[2],
        VALID[3],
        "Step(1, A, 00:02:00, 00:08:00)",
        "Step(5, A, 00:01:00, 00:10:00)",
        "Step(1, A, 00:02:00, 00:10:00)",
        VALID[5],
        VALID[6],
        VALID[7],
    ];
    assert_eq!(rules_of(&hot), one(StateViolated));
    // Time window exceeded: pouring 3 min after the melting ends, the bake after it.
    assert_eq!(
        rules_of(&[
            VALID[0],
            VALID[1],
            VALID[2],
            VALID[3],
            VALID[4],
            VALID[5],
            "Step(3, A, 00:02:00, 00:16:00)",
            "Step(4, A, 00:20:00, 00:18:00)",
            "Step(5, A, 00:01:00, 00:38:00)",
        ]),
        one(MaxLagViolated)
    );
    // Split of a non-interruptible step.
    assert_eq!(
        broken(
            6,
            &[
                "Step(3, A, 00:01:00, 00:13:00)",
                "Step(3, A, 00:01:00, 00:14:00)"
            ]
        ),
        one(NotPreemptible)
    );
    // Prerequisite not finished: pouring before the melting ends.
    assert_eq!(
        broken(6, &["Step(3, A, 00:02:00, 00:12:30)"]),
        one(PrecedenceViolated)
    );
    // Plan incomplete (the original reports it as executed successfully).
    assert_eq!(broken(8, &[]), one(MissingActivity));
}

/// What the original environment lets through is tagged with a stable key in the message,
/// which `makespan score` groups its difference reasons by.
#[test]
fn faults_the_original_lets_through_carry_their_key() {
    let tagged = |lines: &[&str], rule: Rule| -> String {
        let checked = verify_steps(&tiny(), &parse_steps(&lines.join("\n")), None, None);
        let v = checked.report.violations.iter().find(|v| v.rule == rule);
        v.unwrap().message.clone()
    };
    let rerun = [&VALID[..], &["Step(3, A, 00:00:00, 00:40:00)"]].concat();
    assert!(tagged(&rerun, Rule::BadPiece).contains("[zero_length_rerun: "));
    assert!(tagged(&VALID[..8], Rule::MissingActivity).contains("[incomplete_plan: "));
    let malformed = [&VALID[..], &["Step(1, A, 4 minutes, 00:00:00)"]].concat();
    assert!(tagged(&malformed, Rule::MalformedAction).contains("[malformed_action_dropped: "));
}
