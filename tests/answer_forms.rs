//! Answer forms as the benchmarks' harnesses produce them, through the CLI: an answer that
//! cannot be read as a plan is the model's invalid answer (`malformed_answer`, exit 1), not an
//! unreadable file (exit 2); the forms the benchmarks use are read, and where the benchmark's
//! own reader would read a text differently, a note says so.

use std::path::{Path, PathBuf};

use crate::common::{makespan, text};

/// A two-subtask ParaCook task file (subtask2 after subtask1, lag 0), written for the test.
fn paracook_task(dir: &Path) -> PathBuf {
    let task = dir.join("orders_num_1.json");
    std::fs::write(
        &task,
        r#"[{"name": "subtask1", "time": 3, "dependencies": {}},
            {"name": "subtask2", "time": 2, "dependencies": {"subtask1": 0}}]"#,
    )
    .unwrap();
    task
}

fn verify_paracook(dir: &Path, answer: &str) -> std::process::Output {
    let task = paracook_task(dir);
    let file = dir.join("answer.txt");
    std::fs::write(&file, answer).unwrap();
    makespan(&[
        "verify",
        file.to_str().unwrap(),
        "--instance",
        task.to_str().unwrap(),
        "--agents",
        "1",
    ])
}

#[test]
fn unparseable_model_answers_are_malformed_answer_violations_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    for answer in [
        "",
        "I would start with the first subtask.",
        "[[\"subtask1\", \"subtask2\"",
        "```json\n[[\"subtask1\"\n```",
        "[[1, 2]]",
    ] {
        let output = verify_paracook(dir.path(), answer);
        assert_eq!(
            output.status.code(),
            Some(1),
            "{answer:?}: {}",
            text(&output)
        );
        assert!(
            text(&output).contains("malformed_answer"),
            "{}",
            text(&output)
        );
    }
}

#[test]
fn paracook_fences_of_any_case_are_read_and_extract_json_differences_noted() {
    let dir = tempfile::tempdir().unwrap();
    let output = verify_paracook(dir.path(), "```JSON\n[[\"subtask1\", \"subtask2\"]]\n```");
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(
        text(&output).contains("note: ParaCook's extract_json cannot read"),
        "{}",
        text(&output)
    );
    let output = verify_paracook(dir.path(), "[['subtask1', 'subtask2']]");
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert!(
        text(&output).contains("malformed_answer"),
        "{}",
        text(&output)
    );
    assert!(
        text(&output).contains("extract_json accepts"),
        "{}",
        text(&output)
    );
}

#[test]
fn paracook_an_empty_list_beyond_the_agents_is_a_violation() {
    let dir = tempfile::tempdir().unwrap();
    let output = verify_paracook(dir.path(), "[[\"subtask1\", \"subtask2\"], []]");
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert!(
        text(&output).contains("too_many_agents"),
        "{}",
        text(&output)
    );
}

#[test]
fn timearena_minute_action_pairs_are_read_and_prose_is_malformed() {
    let Some(data) = makespan_testkit::data("timearena/tasks.json") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let solved = dir.path().join("out");
    let output = makespan(&[
        "solve",
        data.to_str().unwrap(),
        "--combine",
        "1",
        "--out",
        solved.to_str().unwrap(),
        "--emit-native",
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", text(&output));
    let answer = std::fs::read_to_string(solved.join("lab1.answer.json")).unwrap();
    let records: Vec<serde_json::Value> = serde_json::from_str(&answer).unwrap();
    let pairs: Vec<serde_json::Value> = records
        .iter()
        .map(|r| serde_json::json!([r["time"], r["action"]]))
        .collect();
    let file = dir.path().join("pairs.json");
    std::fs::write(&file, serde_json::to_string(&pairs).unwrap()).unwrap();
    let instance = format!("{}#lab1", data.display());
    let check =
        |path: &Path| makespan(&["verify", path.to_str().unwrap(), "--instance", &instance]);
    let output = check(&file);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    std::fs::write(&file, "I will pick the beaker first.").unwrap();
    let output = check(&file);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert!(
        text(&output).contains("malformed_answer"),
        "{}",
        text(&output)
    );
}
