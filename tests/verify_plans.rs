//! Plan files from disk: malformed input is a `LoadError` with file, line and column;
//! wrong content is a violation; nothing panics.

use std::path::Path;

use makespan::instance::LoadError;
use makespan::verify::plan::read_plan;
use makespan::verify::{verify, Rule};

const INSTANCE: &str = r#"{
  "format": "makespan-instance/1",
  "name": "two-cooks",
  "agents": 2,
  "activities": [{"id": "chop", "duration": 4}, {"id": "fry", "duration": 3}],
  "precedences": [{"before": "chop", "after": "fry", "min_lag": 1}]
}"#;

fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn load(path: &Path) -> Result<makespan::verify::Report, LoadError> {
    let text = std::fs::read_to_string(path).unwrap();
    let plan = read_plan(path, &text)?.resolve(None)?;
    Ok(verify(&plan.instance, &plan.schedule))
}

#[test]
fn truncated_plan_file_is_a_load_error_with_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "inst.json", INSTANCE);
    let full = "{\n  \"format\": \"makespan-plan/1\",\n  \"instance\": \"inst.json\",\n  \"schedule\": [\n    {\"activity\": \"chop\", \"agent\": 0, \"start\": 0},\n    {\"activity\": \"fry\", \"agent\": 1, \"st";
    let path = write(dir.path(), "plan.json", full);
    match load(&path) {
        Err(LoadError::Json {
            path: p,
            line,
            column,
            message,
        }) => {
            assert_eq!(p, path);
            assert_eq!(line, 6);
            assert!(column > 0);
            assert!(message.contains("truncated"), "{message}");
        }
        other => panic!("expected a JSON error with a position, got {other:?}"),
    }
}

#[test]
fn plan_naming_an_unknown_activity_is_a_violation() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "inst.json", INSTANCE);
    let path = write(
        dir.path(),
        "plan.json",
        r#"{"format": "makespan-plan/1", "instance": "inst.json", "schedule": [
            {"activity": "chop", "agent": 0, "start": 0},
            {"activity": "fry", "agent": 1, "start": 5},
            {"activity": "stir", "agent": 1, "start": 9}]}"#,
    );
    let report = load(&path).unwrap();
    let rules: Vec<Rule> = report.violations.iter().map(|v| v.rule).collect();
    assert_eq!(rules, [Rule::UnknownActivity], "{}", report.render_text());
    assert_eq!(report.violations[0].activities, ["stir"]);
}

#[test]
fn valid_plan_file_verifies_with_metrics() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "inst.json", INSTANCE);
    let path = write(
        dir.path(),
        "plan.json",
        r#"{"format": "makespan-plan/1", "instance": "inst.json", "schedule": [
            {"activity": "chop", "agent": 0, "pieces": [[0, 4]]},
            {"activity": "fry", "agent": 0, "start": 5}]}"#,
    );
    let report = load(&path).unwrap();
    assert!(report.valid, "{}", report.render_text());
    assert_eq!(report.makespan, Some(8));
    // Two agents over 8 units, 7 of them busy.
    assert_eq!(report.agent_idle_time, Some(9));
    let comparison = makespan::verify::compare(&report, 8);
    assert_eq!(comparison.ratio, Some(1.0));
}

#[test]
fn missing_instance_file_is_an_io_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "plan.json",
        r#"{"format": "makespan-plan/1", "instance": "nowhere.json", "schedule": []}"#,
    );
    let err = load(&path).unwrap_err();
    assert!(matches!(err, LoadError::Io { .. }), "{err}");
    assert!(err.to_string().contains("nowhere.json"), "{err}");
}

#[test]
fn the_library_checks_native_answers_and_unified_plans_alike() {
    use makespan::instance::{Activity, Instance};
    let instance = Instance {
        activities: vec![Activity::new("a", 2), Activity::new("b", 3)],
        ..Instance::new("pair", Some(2))
    };
    let path = Path::new("answer.txt");
    // Per-agent lists (ParaCook's form) answer any instance.
    let checked = makespan::verify_plan(path, r#"[["a"], ["b"]]"#, Some(&instance), None).unwrap();
    assert_eq!(checked.benchmark.map(|b| b.name()), Some("paracook"));
    assert!(
        checked.answer.report.valid,
        "{}",
        checked.answer.report.render_text()
    );
    assert_eq!(checked.answer.report.makespan, Some(3));
    let checked = makespan::verify_plan(path, r#"[["a", "b"]]"#, Some(&instance), None).unwrap();
    assert_eq!(checked.answer.report.makespan, Some(5));
    // A solution file is a unified plan that embeds its instance.
    let breakfast = makespan::load("instances/two-cooks-breakfast.json", &Default::default())
        .unwrap()
        .remove(0);
    let solution = makespan::solve(&breakfast, &makespan::SolveOptions::default());
    let text = serde_json::to_string_pretty(&solution).unwrap();
    let path = Path::new("two-cooks-breakfast.json");
    let checked = makespan::verify_plan(path, &text, None, None).unwrap();
    assert!(checked.benchmark.is_none());
    assert!(checked.answer.report.valid);
    assert_eq!(checked.instance.name, "two-cooks-breakfast");
}
