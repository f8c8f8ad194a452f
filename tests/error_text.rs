//! What the tool says about hostile or mistaken input (issue 18): `validate` with a table
//! that matches nothing, `verify` on a plan of heavily overlapping pieces, and error texts
//! (I/O errors once, numbers beyond 64 bits as numbers, an empty `MAKESPAN_DATA`).

use crate::common::{makespan, text};

#[test]
fn validate_fails_when_the_optima_table_matches_no_instance_and_warns_when_some_miss() {
    let dir = tempfile::tempdir().unwrap();
    let input = crate::common::write(dir.path(), &crate::common::job_shop("js-3x3", 3, 3, 1));
    let table = dir.path().join("optima.csv");
    std::fs::write(&table, "problem,optimum\nother.json,10\n").unwrap();
    let run = makespan(&[
        "validate",
        input.to_str().unwrap(),
        "--optima",
        table.to_str().unwrap(),
    ]);
    let said = text(&run);
    assert_eq!(run.status.code(), Some(2), "{said}");
    assert!(said.contains("none matched"), "{said}");
}

#[test]
fn heavily_overlapping_pieces_give_a_short_report_and_no_negative_idle_time() {
    let dir = tempfile::tempdir().unwrap();
    let instance: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string("instances/two-cooks-breakfast.json").unwrap(),
    )
    .unwrap();
    let pieces = vec![[0, 4]; 20_000];
    let plan = serde_json::json!({
        "format": "makespan-plan/1",
        "instance": instance,
        "schedule": [{"activity": "chop-onion", "agent": 0, "pieces": pieces}]
    });
    let file = dir.path().join("plan.json");
    std::fs::write(&file, plan.to_string()).unwrap();
    let run = makespan(&["verify", file.to_str().unwrap()]);
    let said = text(&run);
    assert_eq!(run.status.code(), Some(1));
    assert!(said.len() < 10_000, "{} bytes", said.len());
    assert!(
        said.contains("19996 more malformed or overlapping pieces"),
        "{said}"
    );
    assert!(!said.contains("idle time -"), "{said}");
}

#[test]
fn error_texts_say_each_thing_once_and_plainly() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.json");
    let run = makespan(&["verify", missing.to_str().unwrap()]);
    let said = text(&run);
    assert_eq!(said.matches("os error 2").count(), 1, "{said}");

    let big = dir.path().join("big.json");
    let json = r#"{"format": "makespan-instance/1", "name": "big", "agents": 1,
        "activities": [{"id": "a", "duration": 18446744073709551616}]}"#;
    std::fs::write(&big, json).unwrap();
    let run = makespan(&[
        "solve",
        "--out",
        dir.path().join("o").to_str().unwrap(),
        big.to_str().unwrap(),
    ]);
    let said = text(&run);
    assert!(said.contains("beyond 64-bit whole numbers"), "{said}");

    let plan = dir.path().join("plan.json");
    std::fs::write(&plan, "[]").unwrap();
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_makespan"))
        .args([
            "verify",
            plan.to_str().unwrap(),
            "--instance",
            "timearena:cooking1",
        ])
        .env("MAKESPAN_DATA", "")
        .current_dir(dir.path())
        .output()
        .unwrap();
    let said = text(&run);
    // Empty is unset (there is no default folder), not the current one.
    assert_eq!(run.status.code(), Some(2), "{said}");
    assert!(
        said.contains(
            "give --data the root of your checkout of the benchmark (or set MAKESPAN_DATA)"
        ) && said.contains("FILE#NAME"),
        "{said}"
    );
}

/// Every file of the product (sources, Python package, docs) under `dir`.
fn product_files(dir: &std::path::Path, found: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            product_files(&path, found);
        } else if path
            .extension()
            .is_some_and(|x| ["rs", "md", "py", "pyi", "html"].contains(&x.to_str().unwrap()))
        {
            found.push(path);
        }
    }
}

#[test]
fn no_reason_or_doc_cites_a_document_users_do_not_have() {
    let mut files = Vec::new();
    for dir in ["crates", "docs", "python/makespan", "python/src"] {
        product_files(std::path::Path::new(dir), &mut files);
    }
    assert!(files.len() > 50, "{} files", files.len());
    let cites = |line: &str| {
        line.contains('§')
            || line.contains("spec §")
            || line.contains("specs/")
            || line
                .split("gap G")
                .skip(1)
                .any(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
    };
    let found: Vec<String> = files
        .iter()
        .flat_map(|path| {
            let text = std::fs::read_to_string(path).unwrap_or_default();
            text.lines()
                .enumerate()
                .filter(|(_, line)| cites(line))
                .map(|(i, line)| format!("{}:{}: {line}", path.display(), i + 1))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(found.is_empty(), "{}", found.join("\n"));
}
