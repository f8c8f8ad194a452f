//! The TimeArena commands of `docs/timearena.md`, as a user runs them.

use crate::common::{makespan, text};

/// The benchmark's TimeArena folder, or `None` (the test is skipped) where it is absent.
fn timearena() -> Option<String> {
    let dir = makespan_testkit::data("timearena")?;
    Some(dir.to_str().unwrap().to_string())
}

/// The benchmark data folder, for `--data` with a `timearena:NAME` instance.
fn data_dir() -> String {
    makespan_testkit::data_dir().to_str().unwrap().to_string()
}

/// The committed references of `only` (all when empty), unpacked into a fresh folder as a
/// user does: `makespan references unpack references/timearena.jsonl --data DIR --out DIR`.
fn unpacked(only: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let data = data_dir();
    let mut args = vec![
        "references",
        "unpack",
        "references/timearena.jsonl",
        "--data",
        &data,
        "--out",
        dir.path().to_str().unwrap(),
    ];
    for name in only {
        args.extend(["--only", name]);
    }
    let run = makespan(&args);
    assert!(run.status.success(), "{}", text(&run));
    dir
}

#[test]
fn committed_answers_verify_by_benchmark_name_and_mutations_fail() {
    if timearena().is_none() {
        return;
    }
    let data = data_dir();
    let references = unpacked(&["cooking2+cooking3"]);
    let answer = references.path().join("cooking2+cooking3.answer.json");
    let answer = answer.to_str().unwrap();
    let solution = references.path().join("cooking2+cooking3.json");
    let ok = makespan(&[
        "verify",
        answer,
        "--instance",
        "timearena:cooking2+cooking3",
        "--data",
        &data,
        "--solution",
        solution.to_str().unwrap(),
    ]);
    let out = text(&ok);
    assert_eq!(ok.status.code(), Some(0), "{out}");
    assert!(out.contains("ratio to the optimum"), "{out}");
    assert!(out.contains("progress score 100"), "{out}");
    assert!(
        out.contains("cannot complete this run"),
        "unfinishable-run warning: {out}"
    );

    let records: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(answer).unwrap()).unwrap();
    let mut broken = records.clone();
    broken.retain(|r| r["action"] != "wait");
    broken.truncate(broken.len() - 1);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.json");
    std::fs::write(&path, serde_json::to_string(&broken).unwrap()).unwrap();
    let bad = makespan(&[
        "verify",
        path.to_str().unwrap(),
        "--instance",
        "timearena:cooking2+cooking3",
        "--data",
        &data,
    ]);
    assert_eq!(bad.status.code(), Some(1), "{}", text(&bad));
    assert!(text(&bad).contains("missing_activity"), "{}", text(&bad));

    let unnamed = makespan(&["verify", answer]);
    assert_eq!(unnamed.status.code(), Some(2));
    assert!(text(&unnamed).contains("--instance"), "{}", text(&unnamed));
}

#[test]
fn the_greedy_method_reports_invalid_schedules_with_the_reason() {
    let Some(timearena) = timearena() else {
        return;
    };
    let out = tempfile::tempdir().unwrap();
    let run = makespan(&[
        "solve",
        &timearena,
        "--combine",
        "1",
        "--method",
        "timearena-greedy",
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", text(&run));
    let solution: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.path().join("household4.json")).unwrap())
            .unwrap();
    assert_eq!(solution["status"], "invalid");
    assert_eq!(solution["makespan"], 9);
    assert!(solution["reason"].as_str().unwrap().contains("fruit_tree"));
    let zero = makespan(&["solve", &timearena, "--combine", "0"]);
    assert_eq!(zero.status.code(), Some(2));
}

#[test]
fn compare_names_every_run_where_the_greedy_oracle_is_wrong() {
    let Some(timearena) = timearena() else {
        return;
    };
    let greedy = tempfile::tempdir().unwrap();
    let solve = makespan(&[
        "solve",
        &timearena,
        "--combine",
        "1,2",
        "--method",
        "timearena-greedy",
        "--quiet",
        "--out",
        greedy.path().to_str().unwrap(),
    ]);
    assert!(solve.status.success(), "{}", text(&solve));
    let references = unpacked(&[]);
    let table = makespan(&[
        "compare",
        references.path().to_str().unwrap(),
        "--baseline",
        greedy.path().to_str().unwrap(),
        "--differences",
    ]);
    let out = text(&table);
    assert!(table.status.success(), "{out}");
    let line = |name: &str| out.lines().find(|l| l.starts_with(&format!("{name} ")));
    let suboptimal = line("lab3+lab7").expect("lab3+lab7 is listed");
    assert!(
        suboptimal.contains("27") && suboptimal.contains("24"),
        "{suboptimal}"
    );
    let unachievable = line("household4").expect("household4 is listed");
    assert!(
        unachievable.contains("invalid (claims 9)"),
        "{unachievable}"
    );
    assert!(unachievable.contains("fruit_tree"), "{unachievable}");
    assert!(
        line("cooking1").is_none(),
        "optimal greedy runs are not listed: {out}"
    );
    assert!(
        out.contains("lab ×2:"),
        "groups per scenario and size: {out}"
    );
    // The triples and the constrained runs have no greedy solution here: one line counts
    // them (the README's flow listed 175 rows that only said so).
    assert!(!out.contains("no baseline solution"), "{out}");
    let counted = out
        .lines()
        .find(|l| l.contains("instances have no solution in the baseline folder"))
        .expect("the runs without a baseline are counted");
    let n: usize = counted.split(' ').next().unwrap().parse().unwrap();
    assert!(n > 0, "{counted}");
    let verbose = makespan(&[
        "compare",
        references.path().to_str().unwrap(),
        "--baseline",
        greedy.path().to_str().unwrap(),
        "--differences",
        "-v",
    ]);
    let listed = text(&verbose)
        .lines()
        .filter(|l| l.contains("no baseline solution"))
        .count();
    assert_eq!(listed, n, "{}", text(&verbose));
}

#[test]
fn several_decision_logs_get_the_benchmarks_metrics_over_all_runs() {
    if timearena().is_none() {
        return;
    }
    let data = data_dir();
    let references = unpacked(&["lab1+lab2"]);
    let answer = references.path().join("lab1+lab2.answer.json");
    let answer = answer.to_str().unwrap();
    let records: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(answer).unwrap()).unwrap();
    let mut half = records.clone();
    half.retain(|r| r["action"] != "wait");
    half.truncate(half.len() / 2);
    let dir = tempfile::tempdir().unwrap();
    let partial = dir.path().join("partial.json");
    std::fs::write(&partial, serde_json::to_string(&half).unwrap()).unwrap();
    let run = makespan(&[
        "verify",
        answer,
        partial.to_str().unwrap(),
        "--instance",
        "timearena:lab1+lab2",
        "--data",
        &data,
    ]);
    let out = text(&run);
    assert_eq!(run.status.code(), Some(1), "one plan is incomplete: {out}");
    assert!(out.contains(&format!("== {answer}")), "{out}");
    assert!(out.contains("TimeArena over 2 runs:"), "{out}");
    assert!(out.contains("completion rate 50.0%"), "{out}");
}

/// Runs the original environment cannot complete (its container restriction) are flagged
/// wherever `solve` reports: its table, `summary.csv` and the answer file it writes.
#[test]
fn solve_flags_runs_the_environment_cannot_complete_in_table_summary_and_answers() {
    if timearena().is_none() {
        return;
    }
    let data = makespan_testkit::data_dir();
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in");
    std::fs::create_dir_all(&inputs).unwrap();
    for name in ["cooking2+cooking3", "lab1"] {
        let instance = makespan::benchmarks::load_instance(
            &format!("timearena:{name}"),
            Some(&data),
            &makespan::ImportOptions::default(),
        )
        .unwrap();
        let file = inputs.join(format!("{name}.json"));
        std::fs::write(file, serde_json::to_string(&instance).unwrap()).unwrap();
    }
    let out = dir.path().join("out");
    let run = makespan(&[
        "solve",
        inputs.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--emit-native",
    ]);
    let printed = text(&run);
    assert!(run.status.success(), "{printed}");
    let line = |name: &str| printed.lines().find(|l| l.starts_with(name)).unwrap();
    assert!(line("cooking2+cooking3").contains("optimal*"), "{printed}");
    assert!(!line("lab1 ").contains('*'), "{printed}");
    assert!(
        printed.contains(
            "1 instance(s) (marked *) cannot be completed in the benchmark's own environment"
        ),
        "{printed}"
    );
    let mut summary = csv::Reader::from_path(out.join("summary.csv")).unwrap();
    assert_eq!(
        summary.headers().unwrap().iter().next_back(),
        Some("unfinishable")
    );
    let rows: Vec<csv::StringRecord> = summary.records().map(Result::unwrap).collect();
    let why = |name: &str| rows.iter().find(|r| &r[0] == name).unwrap()[8].to_string();
    assert!(
        why("cooking2+cooking3").contains("container restriction"),
        "{rows:?}"
    );
    assert_eq!(why("lab1"), "");
    // The answer still replays the optimum; its first record says why it never finishes there.
    let answer = |name: &str| -> Vec<serde_json::Value> {
        let path = out.join(format!("{name}.answer.json"));
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let flagged = answer("cooking2+cooking3");
    assert!(flagged[0]["warning"]
        .as_str()
        .unwrap()
        .contains("cannot complete this run whatever the answer"));
    assert!(flagged.iter().skip(1).all(|r| r.get("warning").is_none()));
    assert!(answer("lab1")[0].get("warning").is_none());
}

/// `--agents 2` was accepted and ignored: every run was still solved for one agent.
#[test]
fn agent_counts_are_refused_naming_the_flag_and_why() {
    let Some(timearena) = timearena() else {
        return;
    };
    let out = tempfile::tempdir().unwrap();
    let out = out.path().to_str().unwrap();
    let run = makespan(&[
        "solve",
        &timearena,
        "--combine",
        "1",
        "--agents",
        "2",
        "--out",
        out,
    ]);
    assert!(!run.status.success(), "{}", text(&run));
    assert!(
        text(&run).contains("TimeArena runs have one agent") && text(&run).contains("--agents"),
        "{}",
        text(&run)
    );
    let data = data_dir();
    let dir = tempfile::tempdir().unwrap();
    let answer = dir.path().join("answer.json");
    std::fs::write(&answer, r#"[{"time": 0, "action": "pick rice"}]"#).unwrap();
    let lookup = makespan(&[
        "verify",
        answer.to_str().unwrap(),
        "--instance",
        "timearena:cooking1",
        "--data",
        &data,
        "--agents",
        "3",
    ]);
    assert_eq!(lookup.status.code(), Some(2), "{}", text(&lookup));
    assert!(
        text(&lookup).contains("TimeArena runs have one agent"),
        "{}",
        text(&lookup)
    );
    let one = makespan(&[
        "solve",
        &timearena,
        "--combine",
        "1",
        "--agents",
        "1",
        "--out",
        out,
    ]);
    assert!(one.status.success(), "{}", text(&one));
}
