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
