//! A batch's files under hostile names and folders (issue 18): distinct instances never share
//! a file, kept results are re-checked and re-solved when weaker than what is asked, the
//! summary is real CSV, and one instance's failure is one row, not the end of the run.

use std::path::{Path, PathBuf};

use makespan::instance::{Activity, Instance};

use crate::common::{makespan, text};

/// A two-activity instance for one agent, called `name`.
fn named(name: &str) -> Instance {
    Instance {
        activities: vec![Activity::new("a", 2), Activity::new("b", 3)],
        ..Instance::new(name, Some(1))
    }
}

/// Writes each instance to its own file `in/<i>.json` and returns the folder.
fn inputs(dir: &Path, instances: &[Instance]) -> PathBuf {
    let folder = dir.join("in");
    std::fs::create_dir_all(&folder).unwrap();
    for (i, instance) in instances.iter().enumerate() {
        let text = serde_json::to_string(instance).unwrap();
        std::fs::write(folder.join(format!("{i}.json")), text).unwrap();
    }
    folder
}

fn solve(args: &[&str], input: &Path, out: &Path) -> std::process::Output {
    let mut all = vec!["solve", "--quiet", "--out", out.to_str().unwrap()];
    all.extend_from_slice(args);
    all.push(input.to_str().unwrap());
    makespan(&all)
}

/// The `.json` files of a folder other than temporaries.
fn json_files(out: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    names
}

fn summary_rows(out: &Path) -> Vec<csv::StringRecord> {
    let mut reader = csv::Reader::from_path(out.join("summary.csv")).unwrap();
    reader.records().map(Result::unwrap).collect()
}

#[test]
fn names_that_sanitise_alike_get_their_own_files() {
    let dir = tempfile::tempdir().unwrap();
    let names = ["a/b", "a_b", "a b", "🍳", "🥚", "X", "X.answer"];
    let folder = inputs(dir.path(), &names.map(named));
    let out = dir.path().join("out");
    let run = solve(&[], &folder, &out);
    assert!(run.status.success(), "{}", text(&run));
    assert_eq!(
        json_files(&out).len(),
        names.len(),
        "{:?}",
        json_files(&out)
    );
    assert_eq!(summary_rows(&out).len(), names.len());
    // A rerun keeps every one of them instead of re-solving.
    let again = makespan(&[
        "solve",
        "--out",
        out.to_str().unwrap(),
        folder.to_str().unwrap(),
    ]);
    assert!(again.status.success(), "{}", text(&again));
    assert!(
        text(&again).contains(&format!("({} kept", names.len())),
        "{}",
        text(&again)
    );
}

#[test]
fn names_differing_only_in_case_are_refused_naming_both_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let folder = inputs(dir.path(), &[named("Soup"), named("soup")]);
    let run = solve(&[], &folder, &dir.path().join("out"));
    assert_eq!(run.status.code(), Some(2), "{}", text(&run));
    let message = text(&run);
    assert!(
        message.contains("\"Soup\"") && message.contains("\"soup\""),
        "{message}"
    );
    assert!(
        message.contains("0.json") && message.contains("1.json"),
        "{message}"
    );
}

/// A job shop the heuristics leave open, so that limits decide what a run can prove.
fn open_instance(dir: &Path) -> PathBuf {
    let folder = dir.join("in");
    std::fs::create_dir_all(&folder).unwrap();
    crate::common::write(&folder, &crate::common::needs_branching());
    folder
}

#[test]
fn a_heuristic_only_result_is_re_solved_by_an_exact_run_and_said_so() {
    let dir = tempfile::tempdir().unwrap();
    let folder = open_instance(dir.path());
    let out = dir.path().join("out");
    let first = solve(&["--heuristic-only"], &folder, &out);
    assert!(first.status.success(), "{}", text(&first));
    assert_eq!(&summary_rows(&out)[0][1], "feasible");
    let exact = makespan(&[
        "solve",
        "--out",
        out.to_str().unwrap(),
        folder.to_str().unwrap(),
    ]);
    let said = text(&exact);
    assert!(exact.status.success(), "{said}");
    assert_eq!(&summary_rows(&out)[0][1], "optimal", "{said}");
    assert!(said.contains("1 re-solved"), "{said}");
    // The exact result answers a later heuristic-only run too: kept.
    let again = makespan(&[
        "solve",
        "--heuristic-only",
        "--out",
        out.to_str().unwrap(),
        folder.to_str().unwrap(),
    ]);
    assert!(text(&again).contains("(1 kept"), "{}", text(&again));
}

#[test]
fn a_result_of_a_tighter_node_limit_is_re_solved_and_a_looser_one_kept() {
    let dir = tempfile::tempdir().unwrap();
    let folder = open_instance(dir.path());
    let out = dir.path().join("out");
    let limited = solve(&["--node-limit", "0"], &folder, &out);
    assert!(limited.status.success(), "{}", text(&limited));
    assert_eq!(&summary_rows(&out)[0][1], "feasible");
    let same = makespan(&[
        "solve",
        "--node-limit",
        "0",
        "--out",
        out.to_str().unwrap(),
        folder.to_str().unwrap(),
    ]);
    assert!(text(&same).contains("(1 kept"), "{}", text(&same));
    let full = makespan(&[
        "solve",
        "--out",
        out.to_str().unwrap(),
        folder.to_str().unwrap(),
    ]);
    assert!(text(&full).contains("1 re-solved"), "{}", text(&full));
    assert_eq!(&summary_rows(&out)[0][1], "optimal");
}

/// Solves `breakfast` into a fresh folder and returns (folder, solution file).
fn solved_breakfast(dir: &Path) -> (PathBuf, PathBuf) {
    let out = dir.join("out");
    let run = makespan(&[
        "solve",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
        "instances/two-cooks-breakfast.json",
    ]);
    assert!(run.status.success(), "{}", text(&run));
    let file = out.join("two-cooks-breakfast.json");
    (out, file)
}

/// Rewrites a solution file through `edit` on its JSON.
fn edit(file: &Path, edit: impl FnOnce(&mut serde_json::Value)) {
    let mut value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    edit(&mut value);
    std::fs::write(file, serde_json::to_string(&value).unwrap()).unwrap();
}

#[test]
fn a_kept_solution_whose_schedule_was_edited_is_re_solved() {
    let dir = tempfile::tempdir().unwrap();
    let (out, file) = solved_breakfast(dir.path());
    // Every activity at 0: breaks agents, resources and precedences; still claims optimal.
    edit(&file, |v| {
        for entry in v["schedule"].as_array_mut().unwrap() {
            let length =
                entry["pieces"][0][1].as_i64().unwrap() - entry["pieces"][0][0].as_i64().unwrap();
            entry["pieces"] = serde_json::json!([[0, length]]);
        }
    });
    let run = makespan(&[
        "solve",
        "--out",
        out.to_str().unwrap(),
        "instances/two-cooks-breakfast.json",
    ]);
    let said = text(&run);
    assert!(
        said.contains("1 re-solved (1: the kept result fails its re-check)"),
        "{said}"
    );
    let report = makespan(&["verify", file.to_str().unwrap()]);
    assert!(report.status.success(), "{}", text(&report));
}

#[test]
fn a_reference_whose_claimed_makespan_its_schedule_does_not_back_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (_, file) = solved_breakfast(dir.path());
    let plan = dir.path().join("plan.json");
    std::fs::copy(&file, &plan).unwrap();
    edit(&file, |v| {
        v["makespan"] = 3.into();
        v["lower_bound"] = 3.into();
    });
    let run = makespan(&[
        "verify",
        plan.to_str().unwrap(),
        "--solution",
        file.to_str().unwrap(),
    ]);
    let said = text(&run);
    assert_eq!(run.status.code(), Some(2), "{said}");
    assert!(said.contains("not a trustworthy reference solution: it claims makespan 3, but its schedule ends at 21"), "{said}");
    assert!(!said.contains("ratio"), "{said}");
}

#[test]
fn an_output_folder_inside_the_input_folder_is_not_read_as_input() {
    let dir = tempfile::tempdir().unwrap();
    let folder = inputs(dir.path(), &[named("soup")]);
    let out = folder.join("out");
    let first = solve(&[], &folder, &out);
    assert!(first.status.success(), "{}", text(&first));
    // A native answer beside the solutions (as --emit-native writes): not an instance.
    std::fs::write(out.join("soup.answer.json"), r#"[["a", "b"]]"#).unwrap();
    let second = solve(&[], &folder, &out);
    assert!(second.status.success(), "{}", text(&second));
}

#[cfg(unix)]
#[test]
fn export_lp_never_writes_through_a_planted_link() {
    let dir = tempfile::tempdir().unwrap();
    let folder = open_instance(dir.path());
    let lp = dir.path().join("lp");
    std::fs::create_dir_all(&lp).unwrap();
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_makespan"))
        .args([
            "solve",
            "--quiet",
            "--export-lp",
            lp.to_str().unwrap(),
            "--out",
        ])
        .arg(dir.path().join("out"))
        .arg(&folder)
        .spawn()
        .unwrap();
    // The temporary name HiGHS used to write through: `.<file>.<pid>.lp`.
    let planted = lp.join(format!(".js-8x8.lp.{}.lp", child.id()));
    std::os::unix::fs::symlink(&victim, &planted).unwrap();
    let status = child.wait_with_output().unwrap().status;
    assert!(status.success());
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert!(std::fs::read_to_string(lp.join("js-8x8.lp"))
        .unwrap()
        .contains("obj"));
}

#[test]
fn summary_csv_keeps_hostile_names_in_one_cell_and_the_terminal_gets_no_control_codes() {
    let dir = tempfile::tempdir().unwrap();
    let names = ["a,b", "two\nlines", "=1+2", "say \"hi\"", "red\u{1b}[31m"];
    let folder = inputs(dir.path(), &names.map(named));
    let out = dir.path().join("out");
    let run = makespan(&[
        "solve",
        "--out",
        out.to_str().unwrap(),
        folder.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", text(&run));
    assert!(!text(&run).contains('\u{1b}'), "{}", text(&run));
    let mut cells: Vec<String> = summary_rows(&out)
        .iter()
        .map(|r| r[0].to_string())
        .collect();
    cells.sort();
    let mut expected: Vec<String> = names
        .iter()
        .map(|n| {
            if n.starts_with('=') {
                format!("'{n}")
            } else {
                n.to_string()
            }
        })
        .collect();
    expected.sort();
    assert_eq!(cells, expected);
}

#[cfg(unix)]
#[test]
fn output_files_follow_the_umask() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    for (umask, mode) in [("022", 0o644), ("077", 0o600)] {
        let out = dir.path().join(umask);
        let script = format!(
            "umask {umask} && exec {} solve --quiet --out {} instances/two-cooks-breakfast.json",
            env!("CARGO_BIN_EXE_makespan"),
            out.display()
        );
        let run = std::process::Command::new("sh")
            .args(["-c", &script])
            .output()
            .unwrap();
        assert!(run.status.success(), "{}", text(&run));
        for file in ["two-cooks-breakfast.json", "summary.csv"] {
            let found = std::fs::metadata(out.join(file))
                .unwrap()
                .permissions()
                .mode()
                & 0o777;
            assert_eq!(found, mode, "{file} under umask {umask}");
        }
    }
}

#[test]
fn a_file_that_cannot_be_written_is_one_error_row_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let folder = inputs(dir.path(), &[named("first"), named("second")]);
    let out = dir.path().join("out");
    // A folder where `second`'s solution file must go: the rename into place fails.
    std::fs::create_dir_all(out.join("second.json/inside")).unwrap();
    let run = solve(&[], &folder, &out);
    let said = text(&run);
    assert_eq!(run.status.code(), Some(1), "{said}");
    assert!(said.contains("second:"), "{said}");
    assert!(out.join("first.json").is_file());
    assert_eq!(summary_rows(&out).len(), 1);
    // A long name is shortened with a hash instead of failing.
    let long = "x".repeat(300);
    let folder = inputs(&dir.path().join("long"), &[named(&long)]);
    let run = solve(&[], &folder, &dir.path().join("long-out"));
    assert!(run.status.success(), "{}", text(&run));
}

#[test]
fn a_read_only_or_file_out_is_refused_before_solving() {
    let dir = tempfile::tempdir().unwrap();
    let folder = inputs(dir.path(), &[named("soup")]);
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let run = solve(&[], &folder, &file);
    let said = text(&run);
    assert_eq!(run.status.code(), Some(2), "{said}");
    assert!(said.contains("exists and is not a folder"), "{said}");
}

#[test]
fn temporaries_left_by_a_killed_run_are_removed_and_names_never_hide_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    // A pid above the kernel's maximum never runs.
    let left = out.join(".makespan-tmp-99999999-abcdef");
    std::fs::write(&left, "half a file").unwrap();
    let folder = inputs(dir.path(), &[named("."), named(".hidden")]);
    let run = solve(&[], &folder, &out);
    assert!(run.status.success(), "{}", text(&run));
    assert!(!left.exists());
    let files = json_files(&out);
    assert_eq!(files.len(), 2, "{files:?}");
    assert!(files.iter().all(|f| !f.starts_with('.')), "{files:?}");
    assert_eq!(summary_rows(&out).len(), 2);
}

#[test]
fn a_summary_that_cannot_be_written_is_one_error_and_every_solution_stands() {
    let dir = tempfile::tempdir().unwrap();
    let folder = inputs(dir.path(), &["a", "b", "c"].map(named));
    let out = dir.path().join("out");
    // A folder where summary.csv goes: the rename onto it fails, as on a full disk.
    std::fs::create_dir_all(out.join("summary.csv")).unwrap();
    let run = makespan(&[
        "solve",
        "--out",
        out.to_str().unwrap(),
        folder.to_str().unwrap(),
    ]);
    let printed = text(&run);
    assert_eq!(run.status.code(), Some(1), "{printed}");
    assert!(printed.contains("summary.csv: not written"), "{printed}");
    // Every instance was solved and reported, and its solution file written.
    assert!(printed.contains("3 instances: 3 optimal"), "{printed}");
    assert_eq!(json_files(&out), ["a.json", "b.json", "c.json"]);
}
