//! `solve --certify` and `check-proof` from the command line: the docs' example on the
//! bundled instances, the summary's reason for an optimum left uncertified, and every
//! certificate committed in `references/`. (The certificates' properties are the solver's
//! own suite, `crates/solve/tests/cp_method.rs`.)

/// The docs' example: `solve --certify` on the bundled instances, then `check-proof` on
/// the folder certifies every optimum (bound-only and DRCP proofs alike).
#[test]
fn solve_certify_then_check_proof_certifies_the_bundled_instances() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let solved = crate::common::makespan(&["solve", "instances", "--out", out, "--certify", "-q"]);
    assert!(solved.status.success(), "{}", crate::common::text(&solved));
    let checked = crate::common::makespan(&["check-proof", out]);
    let text = crate::common::text(&checked);
    assert!(checked.status.success(), "{text}");
    assert!(
        text.contains("by a DRCP proof") && text.contains("by a bound proof"),
        "{text}"
    );
    assert!(!text.contains("not certified"), "{text}");
    // `check-proof out/*.json` names the certificates too: they are passed over.
    let mut named: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .filter(|p| p.ends_with(".json"))
        .collect();
    named.sort();
    assert!(named.iter().any(|p| p.ends_with(".cert.json")));
    let mut args = vec!["check-proof"];
    args.extend(named.iter().map(String::as_str));
    let globbed = crate::common::makespan(&args);
    let text = crate::common::text(&globbed);
    assert!(globbed.status.success(), "{text}");
    assert!(text.contains("11 solutions: 11 certified, 0 not"), "{text}");
}

/// `solve --certify` says how many optima it certified, and why the others are not: here
/// a travel time makes the optimum, which the constraint model leaves out, because `z` keeps
/// the agent busy without a station (the verifier lets such an activity reset the travel,
/// so travel is no order between two stations' work).
#[test]
fn solve_certify_says_why_an_optimum_is_not_certified() {
    let dir = tempfile::tempdir().unwrap();
    let instance = dir.path().join("travel.json");
    std::fs::write(
        &instance,
        r#"{"format": "makespan-instance/1", "name": "travel", "agents": 1,
            "activities": [{"id": "x", "duration": 1, "station": "a"},
                           {"id": "y", "duration": 1, "station": "b"},
                           {"id": "z", "duration": 1}],
            "precedences": [{"before": "x", "after": "z"}, {"before": "y", "after": "z"}],
            "setups": [{"from": "a", "to": "b", "time": 5}, {"from": "b", "to": "a", "time": 5}]}"#,
    )
    .unwrap();
    let out = dir.path().join("out");
    let solved = crate::common::makespan(&[
        "solve",
        instance.to_str().unwrap(),
        "instances/two-cooks-breakfast.json",
        "--certify",
        "--out",
        out.to_str().unwrap(),
    ]);
    let text = crate::common::text(&solved);
    assert!(solved.status.success(), "{text}");
    assert!(
        text.contains("1 of 2 optimal solutions certified"),
        "{text}"
    );
    assert!(
        text.contains("travel: not certified: no bound-only proof reaches the makespan, and without this instance's setups (rules"),
        "{text}"
    );
}

/// Every certificate committed in `references/` checks once unpacked, and a solution
/// without one is the only kind not certified (the largest DRCP proofs are left out of the
/// repository). The benchmarks' references need their data; the bundled instances' do not.
#[test]
fn every_committed_certificate_checks() {
    let dir = tempfile::tempdir().unwrap();
    let data = makespan_testkit::data_dir();
    let mut certificates = 0;
    for (name, needs) in [
        ("instances", None),
        ("timearena", Some("timearena/tasks.json")),
        ("recipe2plan", Some("recipe2plan/cooking.json")),
    ] {
        if needs.is_some_and(|file| makespan_testkit::data(file).is_none()) {
            continue;
        }
        let file = format!("references/{name}.jsonl");
        let references =
            makespan::references::References::read(std::path::Path::new(&file)).unwrap();
        certificates += references
            .iter()
            .filter(|r| r.certificate.is_some())
            .count();
        let out = dir.path().join(name);
        let unpacked = crate::common::makespan(&[
            "references",
            "unpack",
            &file,
            "--data",
            data.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(
            unpacked.status.success(),
            "{}",
            crate::common::text(&unpacked)
        );
    }
    let out = crate::common::makespan(&["check-proof", dir.path().to_str().unwrap(), "-q"]);
    let text = crate::common::text(&out);
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("not certified"))
        .collect();
    assert!(
        lines
            .iter()
            .all(|l| l.ends_with("the solution has no certificate (solve with --certify)")),
        "{text}"
    );
    let summary = text.lines().last().unwrap_or_default();
    assert!(
        summary.contains(&format!(": {certificates} certified,")),
        "{summary}"
    );
}

/// `solve --certify` of a bundled instance with a DRCP proof and one with a bound proof into
/// a fresh folder.
fn certified_pair() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let solved = crate::common::makespan(&[
        "solve",
        "instances/kitchen/kitchen-s1-n4-m2.json",
        "instances/two-cooks-breakfast.json",
        "--certify",
        "-q",
        "--out",
        dir.path().to_str().unwrap(),
    ]);
    assert!(solved.status.success(), "{}", crate::common::text(&solved));
    assert!(dir.path().join("kitchen-s1-n4-m2.fzn").is_file());
    dir
}

fn check_proof(args: &[&str]) -> (Option<i32>, String) {
    let mut all = vec!["check-proof"];
    all.extend(args);
    let run = crate::common::makespan(&all);
    (run.status.code(), crate::common::text(&run))
}

/// A FlatZinc model with annotations nested 150,000 deep aborted `check-proof` (its parser
/// recurses per level): the file is one failure, the others are checked, the summary printed.
#[test]
fn a_deeply_nested_model_is_one_failure_and_the_rest_is_checked() {
    let dir = certified_pair();
    let model = dir.path().join("kitchen-s1-n4-m2.fzn");
    let mut text = std::fs::read_to_string(&model).unwrap();
    let n = 150_000;
    text = text.replacen(
        "solve ",
        &format!(
            "% nested\nsolve :: a({}0{}) ",
            "a(".repeat(n),
            ")".repeat(n)
        ),
        1,
    );
    std::fs::write(&model, text).unwrap();
    let (code, said) = check_proof(&[dir.path().to_str().unwrap()]);
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains("brackets nest 150001 deep, over the limit of 64"),
        "{said}"
    );
    assert!(said.contains("2 solutions: 1 certified, 1 not"), "{said}");
}

/// A FlatZinc model with an integer beyond 64 bits panicked `check-proof` (the FlatZinc lexer
/// unwraps its integer parse; found by `fuzz_readers`): the file is one failure naming the line
/// and the number, the others are checked.
#[test]
fn an_integer_beyond_64_bits_in_a_model_is_one_failure_not_a_crash() {
    let dir = certified_pair();
    let model = dir.path().join("kitchen-s1-n4-m2.fzn");
    let text = std::fs::read_to_string(&model).unwrap();
    let huge = "184467440737095516160";
    std::fs::write(&model, format!("var 0..{huge}: padding;\n{text}")).unwrap();
    let (code, said) = check_proof(&[dir.path().to_str().unwrap()]);
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains(&format!(
            "line 1: the integer {huge} is beyond 64-bit whole numbers"
        )),
        "{said}"
    );
    assert!(said.contains("2 solutions: 1 certified, 1 not"), "{said}");
}

/// Concurrent `solve --certify` runs into one folder wrote through the same
/// `.tmp-<name>.fzn` and `.tmp-raw-<name>.drcp.gz` and collided: each writes in a private
/// folder now, so every run ends with a certificate that checks and no temporary is left.
#[test]
fn concurrent_certify_runs_into_one_folder_do_not_collide() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let runs: Vec<std::process::Child> = (0..3)
        .map(|_| {
            std::process::Command::new(env!("CARGO_BIN_EXE_makespan"))
                .args([
                    "solve",
                    "instances/kitchen/kitchen-s1-n4-m2.json",
                    "--certify",
                    "--force",
                    "-q",
                    "--out",
                    out,
                ])
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut run in runs {
        assert!(run.wait().unwrap().success());
    }
    let (code, said) = check_proof(&[out]);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("1 solutions: 1 certified, 0 not"), "{said}");
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// A small gzip that unpacks to one enormous line asked for a buffer of its whole size before
/// anything was checked: the unpacked stream stops at the input cap, which the error names.
#[test]
fn a_gzip_bomb_proof_stops_at_the_input_cap() {
    use std::io::Write;
    let dir = certified_pair();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    for _ in 0..3 {
        gz.write_all(&[b'a'; 1 << 20]).unwrap();
    }
    std::fs::write(
        dir.path().join("kitchen-s1-n4-m2.drcp.gz"),
        gz.finish().unwrap(),
    )
    .unwrap();
    let solution = dir.path().join("kitchen-s1-n4-m2.json");
    let (code, said) = check_proof(&["--max-file-mb", "1", solution.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains("kitchen-s1-n4-m2.drcp.gz")
            && said.contains("unpacks to more than 1 MiB; raise the limit with --max-file-mb"),
        "{said}"
    );
}

/// A solution carries its own instance: one edited to a shorter duration (same name) has a
/// valid certificate about the edited instance. `--instance` pins the instance, and every
/// certified line shows the problem hash to compare.
#[test]
fn check_proof_instance_pins_the_problem_and_every_certified_line_shows_its_hash() {
    let dir = tempfile::tempdir().unwrap();
    let original = "instances/two-cooks-breakfast.json";
    let text = std::fs::read_to_string(original).unwrap();
    let mut edited: serde_json::Value = serde_json::from_str(&text).unwrap();
    let duration = &mut edited["activities"][0]["duration"];
    *duration = (duration.as_i64().unwrap() - 1).into();
    let edited_path = dir.path().join("two-cooks-breakfast.json");
    std::fs::write(&edited_path, edited.to_string()).unwrap();
    let out = dir.path().join("out");
    let solved = crate::common::makespan(&[
        "solve",
        edited_path.to_str().unwrap(),
        "--certify",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(solved.status.success(), "{}", crate::common::text(&solved));
    let solution = out.join("two-cooks-breakfast.json");
    let solution = solution.to_str().unwrap();
    let hash = |path: &str| {
        let instances = makespan::load(path, &makespan::ImportOptions::default()).unwrap();
        makespan::instance::problem_hash(&instances[0])
    };
    let (code, said) = check_proof(&[solution]);
    assert_eq!(code, Some(0), "{said}");
    assert!(
        said.contains(&format!(
            "instance two-cooks-breakfast {}",
            hash(edited_path.to_str().unwrap())
        )),
        "{said}"
    );
    let (code, said) = check_proof(&[solution, "--instance", original]);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("is not the pinned instance"), "{said}");
    assert!(said.contains(&hash(original)), "{said}");
}

/// A link to `.` made the walk count one solution once per level (41 times); two links made
/// it endless. Each folder and file is visited once.
#[cfg(unix)]
#[test]
fn check_proof_walks_each_folder_once() {
    let dir = certified_pair();
    std::os::unix::fs::symlink(".", dir.path().join("a")).unwrap();
    std::os::unix::fs::symlink(".", dir.path().join("b")).unwrap();
    let (code, said) = check_proof(&[dir.path().to_str().unwrap()]);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("2 solutions: 2 certified, 0 not"), "{said}");
}

/// A solution may name its certificate, model and proof beside it or below it only: an
/// absolute path or `..` could make the checker read any file its user can read.
#[test]
fn certificate_files_outside_the_solution_folder_are_refused() {
    let dir = certified_pair();
    let solution = dir.path().join("two-cooks-breakfast.json");
    let mut value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&solution).unwrap()).unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let copy = elsewhere.path().join("c.cert.json");
    std::fs::copy(dir.path().join("two-cooks-breakfast.cert.json"), &copy).unwrap();
    for named in [copy.to_str().unwrap().to_string(), "../c.cert.json".into()] {
        value["certificate"]["file"] = named.clone().into();
        std::fs::write(&solution, value.to_string()).unwrap();
        let (code, said) = check_proof(&[solution.to_str().unwrap()]);
        assert_eq!(code, Some(1), "{said}");
        assert!(
            said.contains("is outside the folder of the file that names it"),
            "{named}: {said}"
        );
    }
}

/// File names (and the names and messages they carry) reach the terminal escaped: a name
/// with ESC could clear or retitle the terminal.
#[test]
fn check_proof_escapes_control_characters() {
    let dir = certified_pair();
    let evil = dir.path().join("x\u{1b}]0;pwned\u{7}.json");
    std::fs::copy(dir.path().join("two-cooks-breakfast.json"), &evil).unwrap();
    let (_, said) = check_proof(&[evil.to_str().unwrap()]);
    assert!(!said.contains('\u{1b}'), "{said:?}");
    assert!(said.contains("x\\u{1b}]0;pwned\\u{7}.json"), "{said}");
}

/// `solve --certify` wrote through `.tmp-<name>.fzn` and `.tmp-raw-<name>.drcp.gz`: links
/// planted there had their targets overwritten. Temporaries are now made in a private folder
/// of unpredictable name, removed afterwards.
#[cfg(unix)]
#[test]
fn certify_never_writes_through_planted_links() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "precious").unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    for planted in [
        ".tmp-kitchen-s1-n4-m2.fzn",
        ".tmp-raw-kitchen-s1-n4-m2.drcp.gz",
        ".tmp-kitchen-s1-n4-m2.drcp.gz",
        ".tmp-kitchen-s1-n4-m2.cert.json",
    ] {
        std::os::unix::fs::symlink(&victim, out.join(planted)).unwrap();
    }
    let solved = crate::common::makespan(&[
        "solve",
        "instances/kitchen/kitchen-s1-n4-m2.json",
        "--certify",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(solved.status.success(), "{}", crate::common::text(&solved));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    let left: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".makespan-tmp-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let (code, said) = check_proof(&[out.join("kitchen-s1-n4-m2.json").to_str().unwrap()]);
    assert_eq!(code, Some(0), "{said}");
}

/// A FIFO where the certificate should be hung `check-proof` for ever: the bounded reader
/// refuses what is not a regular file before opening it.
#[cfg(unix)]
#[test]
fn a_fifo_certificate_is_refused_not_waited_for() {
    let dir = certified_pair();
    let cert = dir.path().join("two-cooks-breakfast.cert.json");
    std::fs::remove_file(&cert).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(&cert)
        .status()
        .unwrap();
    assert!(made.success());
    let solution = dir.path().join("two-cooks-breakfast.json");
    let (code, said) = check_proof(&[solution.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("not a regular file"), "{said}");
}
