//! The `makespan` binary as a user runs it: the README's commands, exit codes, and bad input.

use crate::common::{makespan, text};

#[test]
fn solve_bundled_instances_writes_verified_optimal_solutions_and_resumes() {
    let out = tempfile::tempdir().unwrap();
    let out_dir = out.path().to_str().unwrap();
    let first = makespan(&["solve", "instances", "--out", out_dir, "--quiet"]);
    assert!(first.status.success(), "{}", text(&first));
    let summary = std::fs::read_to_string(out.path().join("summary.csv")).unwrap();
    let rows: Vec<&str> = summary.lines().skip(1).collect();
    assert!(rows.len() >= 3, "{summary}");
    assert!(rows.iter().all(|r| r.contains(",optimal,")), "{summary}");

    for entry in std::fs::read_dir(out.path()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let check = makespan(&["verify", path.to_str().unwrap()]);
            assert_eq!(check.status.code(), Some(0), "{}", text(&check));
        }
    }

    let again = makespan(&["solve", "instances", "--out", out_dir]);
    assert!(again.status.success());
    assert!(
        text(&again).contains("kept from an earlier run"),
        "{}",
        text(&again)
    );
    assert!(text(&again).contains("(kept)"), "{}", text(&again));
}

#[test]
fn verify_names_the_broken_rule_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("plan.json");
    // A plan names an instance beside it (or below it; anything else takes --instance).
    std::fs::copy(
        "instances/three-agent-assembly.json",
        dir.path().join("inst.json"),
    )
    .unwrap();
    let instance = "inst.json";
    // mount-wheels before the paint has dried.
    let body = serde_json::json!({
        "format": "makespan-plan/1",
        "instance": instance,
        "schedule": [
            {"activity": "fetch-frame", "agent": 0, "start": 0},
            {"activity": "fetch-wheels", "agent": 1, "start": 0},
            {"activity": "fetch-seat", "agent": 2, "start": 0},
            {"activity": "paint-frame", "agent": 0, "start": 3},
            {"activity": "dry-paint", "start": 8},
            {"activity": "true-wheels", "agent": 1, "start": 4},
            {"activity": "mount-wheels", "agent": 1, "start": 12},
            {"activity": "mount-seat", "agent": 2, "start": 14},
            {"activity": "adjust-brakes", "agent": 1, "start": 16},
            {"activity": "test-ride", "agent": 0, "start": 19}
        ]
    });
    std::fs::write(&plan, body.to_string()).unwrap();
    let output = makespan(&["verify", plan.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    let report = text(&output);
    assert!(
        report.contains("mount-wheels") && report.contains("dry-paint"),
        "{report}"
    );

    let json = makespan(&["verify", plan.to_str().unwrap(), "--json"]);
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(value["report"]["valid"], false);
}

#[test]
fn unreadable_inputs_exit_2_with_file_and_position() {
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.json");
    std::fs::write(
        &broken,
        "{\"format\": \"makespan-instance/1\", \"name\": \"x\",\n \"agents\": 1, \"activities\": [",
    )
    .unwrap();
    let out = dir.path().join("out");
    let output = makespan(&[
        "solve",
        broken.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let message = text(&output);
    assert!(
        message.contains("broken.json") && message.contains("line 2"),
        "{message}"
    );
    assert!(!out.join("x.json").exists(), "no half-written solution");

    let plan = dir.path().join("plan.json");
    std::fs::write(&plan, "{\"format\": \"makespan-plan/1\", \"schedule\": [").unwrap();
    let output = makespan(&["verify", plan.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(text(&output).contains("plan.json"), "{}", text(&output));
}

#[test]
fn positive_lag_cycle_is_reported_infeasible_with_the_cycle() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cycle.json");
    let instance = serde_json::json!({
        "format": "makespan-instance/1", "name": "cycle", "agents": 1,
        "activities": [{"id": "a", "duration": 2}, {"id": "b", "duration": 3}],
        "precedences": [{"before": "a", "after": "b"}, {"before": "b", "after": "a"}]
    });
    std::fs::write(&file, instance.to_string()).unwrap();
    let out = dir.path().join("out");
    let output = makespan(&[
        "solve",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", text(&output));
    let solution: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("cycle.json")).unwrap()).unwrap();
    assert_eq!(solution["status"], "infeasible");
    let reason = solution["reason"].as_str().unwrap();
    assert!(
        reason.contains("\"a\"") && reason.contains("\"b\""),
        "{reason}"
    );
}

#[test]
fn paracook_native_answer_is_decoded_and_checked() {
    let Some(file) = makespan_testkit::data("paracook/abstract/burger/seed_42/orders_num_1.json")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let solve = |extra: &[&str]| {
        let mut args = vec![
            "solve",
            file.to_str().unwrap(),
            "--agents",
            "2",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend(extra);
        makespan(&args)
    };
    // Solved first without answers, then again with `--emit-native`: the kept solution's
    // answer is written, without solving again.
    let solved = solve(&["--quiet"]);
    assert!(solved.status.success(), "{}", text(&solved));
    let answers = || {
        std::fs::read_dir(&out)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .path()
                    .to_string_lossy()
                    .contains(".answer.")
            })
            .count()
    };
    assert_eq!(answers(), 0);
    let solved = solve(&["--emit-native"]);
    assert!(solved.status.success(), "{}", text(&solved));
    assert!(
        text(&solved).contains("1 kept from an earlier run"),
        "{}",
        text(&solved)
    );
    assert_eq!(answers(), 1);
    let answer = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".answer.json"))
        .expect("a native answer file");
    let solution = answer.to_string_lossy().replace(".answer.json", ".json");
    let check = makespan(&[
        "verify",
        answer.to_str().unwrap(),
        "--instance",
        file.to_str().unwrap(),
        "--agents",
        "2",
        "--solution",
        &solution,
    ]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check));
    assert!(
        text(&check).contains("ratio to the optimum"),
        "{}",
        text(&check)
    );
    assert!(text(&check).contains("1.0000"), "{}", text(&check));

    // An answer that names an unknown subtask and skips the rest: violations, exit 1.
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "```json\n[[\"subtask1\", \"subtask99\"]]\n```").unwrap();
    let check = makespan(&[
        "verify",
        bad.to_str().unwrap(),
        "--instance",
        file.to_str().unwrap(),
        "--agents",
        "2",
    ]);
    assert_eq!(check.status.code(), Some(1), "{}", text(&check));
    assert!(text(&check).contains("subtask99"), "{}", text(&check));
}

#[test]
fn export_lp_writes_the_milp_that_proves_the_bundled_showcase() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let models = dir.path().join("models");
    let output = makespan(&[
        "solve",
        "instances/three-cooks-seven-dishes.json",
        "--out",
        out.to_str().unwrap(),
        "--export-lp",
        models.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", text(&output));
    let solution: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("three-cooks-seven-dishes.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(solution["status"], "optimal");
    assert_eq!(
        solution["bound_source"], "milp",
        "the heuristic alone cannot prove this one"
    );
    let lp = std::fs::read_to_string(models.join("three-cooks-seven-dishes.lp")).unwrap();
    assert!(lp.contains("st") && lp.contains("bin"), "{lp}");
}

/// `makespan … | head`: a reader that has gone ends the program quietly (SIGPIPE), never
/// with a panic on the failed write.
#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_the_program_without_a_panic() {
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, Stdio};
    // The reading end is closed before the program starts, so its first write fails.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_makespan"))
        .arg("--help")
        .stdout(Stdio::from(writer))
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.signal(), Some(libc::SIGPIPE), "{:?}", out.status);
}

/// Each benchmark's own options (its knobs) are flags of every command that imports, made
/// from the registry: a new one needs no change to the command line.
#[test]
fn every_benchmark_option_is_a_flag_of_the_commands_that_import() {
    for command in ["solve", "verify", "explain", "gantt"] {
        let help = text(&makespan(&[command, "--help"]));
        for knob in makespan::benchmarks::knobs() {
            assert!(
                help.contains(&format!("--{}", knob.name)) && help.contains(knob.help),
                "{command} --help lacks --{}:\n{help}",
                knob.name
            );
        }
    }
    let out = makespan(&[
        "solve",
        "instances",
        "--combine",
        "0",
        "--out",
        "/nonexistent",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("--combine: \"0\" is not a number of tasks per run"),
        "{}",
        text(&out)
    );
}

/// `--data` meant a checkout root for `score` and makespan's data folder elsewhere, with help
/// texts that disagreed on the default: every command that takes it says the same.
#[test]
fn every_data_flag_is_a_checkout_root_with_one_default() {
    let commands: [&[&str]; 7] = [
        &["verify"],
        &["explain"],
        &["gantt"],
        &["score"],
        &["check-proof"],
        &["references", "pack"],
        &["references", "unpack"],
    ];
    let mut with_data = 0;
    for command in commands {
        let mut args = command.to_vec();
        args.push("--help");
        let help = text(&makespan(&args));
        let Some(at) = help.find("--data <") else {
            continue;
        };
        with_data += 1;
        // The flag's paragraph, up to the next flag.
        let paragraph: String = help[at..]
            .lines()
            .skip(1)
            .take_while(|l| !l.trim_start().starts_with('-'))
            .collect::<Vec<_>>()
            .join(" ");
        let paragraph = paragraph.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            help[at..].starts_with("--data <CHECKOUT>")
                && paragraph.contains("The root of your checkout of the benchmark, as cloned")
                && paragraph.contains("default: $MAKESPAN_DATA"),
            "{command:?}: {paragraph}"
        );
    }
    assert!(with_data >= 6, "{with_data}");
}

#[test]
fn solve_a_clone_skips_its_other_files_recognises_its_baseline_and_writes_nothing_inside_unasked() {
    let clone = tempfile::tempdir().unwrap();
    let root = clone.path();
    let write = |rel: &str, text: &str| {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "data/abstract/soup/seed_1/orders_num_1.json",
        r#"[{"name": "boil", "time": 3, "dependencies": {}}, {"name": "serve", "time": 1, "dependencies": {"boil": 1}}]"#,
    );
    write("config/gui_config.json", r#"{"width": 800}"#);
    write(
        "config/item/ingredient.json",
        r#"[{"name": "beef", "states": ["raw"]}]"#,
    );
    write(
        "data/plan.json",
        r#"{"A_B": {"plan_wo_restriction": [[0, "A", 60, 0]], "plan_w_restriction": null}}"#,
    );
    // Run from inside the clone without --out: refused, nothing written.
    let inside = std::process::Command::new(env!("CARGO_BIN_EXE_makespan"))
        .args(["solve", ".", "--agents", "1"])
        .current_dir(root)
        .output()
        .unwrap();
    assert_eq!(inside.status.code(), Some(2), "{}", text(&inside));
    assert!(text(&inside).contains("give --out"), "{}", text(&inside));
    assert!(!root.join("solutions").exists());
    // From outside, with -v: the other files are counted and listed, the baseline named.
    let out = tempfile::tempdir().unwrap();
    let run = makespan(&[
        "solve",
        root.to_str().unwrap(),
        "--agents",
        "1",
        "--out",
        out.path().to_str().unwrap(),
        "-v",
    ]);
    let said = text(&run);
    assert!(run.status.success(), "{said}");
    assert!(said.contains("1 instances"), "{said}");
    assert!(
        said.contains("1 benchmark baseline file(s)")
            && said.contains("recipe2plan baseline plans"),
        "{said}"
    );
    assert!(
        said.contains("2 file(s) skipped") && said.contains("gui_config.json"),
        "{said}"
    );
}
