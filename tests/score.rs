//! `makespan score` on runs in the forms the benchmarks' harnesses write them: the fixtures
//! under `tests/fixtures/score/` are small runs written for these tests, scored against the
//! benchmarks' own files, passed explicitly with `--data`.

use std::path::Path;

use makespan::score::{leaderboard, score_run, RunReport, ScoreOptions};

use crate::common::{makespan, text};

fn fixture(relative: &str) -> String {
    Path::new("tests/fixtures/score")
        .join(relative)
        .display()
        .to_string()
}

fn score(run: &str, data: &Path) -> RunReport {
    let options = ScoreOptions {
        data: Some(data.to_path_buf()),
        ..ScoreOptions::default()
    };
    score_run(Path::new(run), &options).unwrap()
}

#[test]
fn paracook_results_file_rows_headline_and_differences() {
    let Some(data) = makespan_testkit::data("paracook") else {
        return;
    };
    let report = score(&fixture("paracook/results/abstract/model-x.json"), &data);
    assert_eq!(report.benchmark, "paracook");
    assert_eq!(report.rows.len(), 6);
    let row = |key: &str| report.rows.iter().find(|r| r.key == key).unwrap();
    let best = row("burger/seed_42/agent_num_2/orders_num_1");
    assert_eq!(
        (best.valid, best.makespan, best.optimum, best.proven),
        (Some(true), Some(61), Some(61), Some(true))
    );
    assert_eq!(best.ratio, Some(1.0));
    // Two lists for one agent: the original's done, a violation here, and the reason.
    let extra = row("burger/seed_42/agent_num_1/orders_num_1");
    assert_eq!(
        (extra.valid, extra.original_valid),
        (Some(false), Some(true))
    );
    assert_eq!(extra.violations["too_many_agents"], 1);
    assert_eq!(report.differences.len(), 1);
    assert!(
        report.differences[0]
            .reason
            .contains("more lists than agents, which the original never compares"),
        "{:?}",
        report.differences
    );
    // The harness's [[""]] is a malformed answer; bad keys and missing files are error rows.
    assert_eq!(
        row("burger/seed_84/agent_num_2/orders_num_1").violations["malformed_answer"],
        1
    );
    assert!(row("burger/seed_999/agent_num_2/orders_num_1")
        .error
        .as_ref()
        .unwrap()
        .contains("no task file"));
    assert!(row("burger/agent_num_2/orders_num_1")
        .error
        .as_ref()
        .unwrap()
        .contains("not of the form"));
    assert_eq!(report.unscored(), 2);
    let metric = |name: &str| {
        report
            .headline
            .metrics
            .iter()
            .find(|m| m.name == name)
            .unwrap()
    };
    // SR as get_abstract_results.py counts it: a done key cp_sat.json has too, over every
    // key of the file (3 of 6).
    assert_eq!(metric("SR").original, Some(50.0));
    assert!((metric("SR").corrected.unwrap() - 100.0 / 3.0).abs() < 1e-9);
    // pOCT against cp_sat.json (3 keys), and against the optima with 1.2 × for failures.
    assert!((metric("pOCT").original.unwrap() - (61.0 + 61.0 + 65.0) / 3.0).abs() < 1e-9);
    assert!(
        (metric("pOCT").corrected.unwrap() - (61.0 + 1.2 * 61.0 + 65.0 + 1.2 * 80.0) / 4.0).abs()
            < 1e-9
    );
    assert!((metric("nOCT").corrected.unwrap() - (1.0 + 65.0 / 61.0) / 2.0).abs() < 1e-9);
}

#[test]
fn score_cli_writes_csv_and_json_caches_optima_and_exits_3_on_unscored_rows() {
    let Some(data) = makespan_testkit::data("paracook") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (csv, json, solutions) = (
        dir.path().join("r.csv"),
        dir.path().join("r.json"),
        dir.path().join("sol"),
    );
    let run = fixture("paracook/results/abstract/model-x.json");
    let args = [
        "score",
        &run,
        "--data",
        data.to_str().unwrap(),
        "--solutions",
        solutions.to_str().unwrap(),
        "--out",
        csv.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ];
    let output = makespan(&args);
    assert_eq!(output.status.code(), Some(3), "{}", text(&output));
    assert!(
        text(&output).contains("verdicts that differ (1)"),
        "{}",
        text(&output)
    );
    let table = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(table.lines().count(), 7, "{table}");
    assert!(
        table.starts_with("key,instance,valid,makespan,optimum"),
        "{table}"
    );
    let report: RunReport = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report.rows.len(), 6);
    // The optima were cached; a second run reads them.
    assert!(solutions.join("paracook-burger-s42-o1-m2.json").is_file());
    let again = makespan(&args);
    assert_eq!(again.status.code(), Some(3), "{}", text(&again));
}

#[test]
fn score_needs_a_checkout_and_says_how_to_give_one() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_makespan"))
        .args(["score", &fixture("paracook/results/abstract/model-x.json")])
        .env_remove("MAKESPAN_DATA")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(text(&output).contains("--data"), "{}", text(&output));
}

#[test]
fn recipe2plan_plan_and_solve_logs_think_blocks_errors_after_completion_and_bad_logs() {
    let Some(data) = makespan_testkit::data("recipe2plan") else {
        return;
    };
    let run = fixture("recipe2plan/logs/model-y/medium/plan_solve/cooking");
    let report = score(&run, &data);
    assert_eq!(report.benchmark, "recipe2plan");
    let row = |key: &str| report.rows.iter().find(|r| r.key == key).unwrap();
    // The Step inside <think> is not part of the plan: the optimal answer after it is valid.
    let best = row("Okra-Fry_Volcano-Glass");
    assert_eq!(
        (best.valid, best.ratio),
        (Some(true), Some(1.0)),
        "{best:?}"
    );
    assert_eq!(
        best.instance.as_deref(),
        Some("recipe2plan-Okra-Fry_Volcano-Glass-medium")
    );
    // A duplicate after every goal is complete: the original's success, invalid here.
    let after = row("Cobbler_Banana-Fry");
    assert_eq!(
        (after.valid, after.original_valid),
        (Some(false), Some(true))
    );
    assert_eq!(report.differences.len(), 1);
    assert!(
        report.differences[0]
            .reason
            .contains("error_after_complete"),
        "{:?}",
        report.differences
    );
    // Prose only: one malformed_answer; a truncated log and an unknown pair are error rows.
    let prose = row("Okra-Fry_Leche-Asada");
    assert_eq!(
        prose.violations.keys().collect::<Vec<_>>(),
        ["malformed_answer"]
    );
    assert!(row("Leche-Asada_BBQ-Meatballs")
        .error
        .as_ref()
        .unwrap()
        .contains("truncated"));
    assert!(row("Nope_Recipe")
        .error
        .as_ref()
        .unwrap()
        .contains("no recipe pair"));
    let metric = |name: &str| {
        report
            .headline
            .metrics
            .iter()
            .find(|m| m.name == name)
            .unwrap()
    };
    assert!((metric("pass").original.unwrap() - 200.0 / 3.0).abs() < 1e-9);
    assert!((metric("pass").corrected.unwrap() - 100.0 / 3.0).abs() < 1e-9);
    // The duplicate after completion: invalid, and no more progress than the original gave.
    assert!(after.corrected_score <= after.original_score, "{after:?}");
}

#[test]
fn timearena_trajectory_folder_environment_verdicts_and_cal_metric() {
    let Some(data) = makespan_testkit::data("timearena") else {
        return;
    };
    let report = score(&fixture("timearena/trajectory/model-z"), &data);
    assert_eq!(report.benchmark, "timearena");
    let row = |key: &str| report.rows.iter().find(|r| r.key == key).unwrap();
    let lab1 = row("lab1");
    assert_eq!(
        (lab1.valid, lab1.makespan, lab1.optimum, lab1.original_valid),
        (Some(true), Some(13), Some(13), Some(true))
    );
    assert!(
        row("cooking1")
            .notes
            .iter()
            .any(|n| n.contains("surrounding whitespace")),
        "{:?}",
        row("cooking1").notes
    );
    let stopped = row("lab2");
    assert_eq!(
        (stopped.valid, stopped.original_valid),
        (Some(false), Some(false))
    );
    assert_eq!(stopped.original_score, stopped.corrected_score);
    // A stricter check never gives an invalid run more progress than the environment did.
    for r in report.rows.iter().filter(|r| r.valid == Some(false)) {
        assert!(r.corrected_score <= r.original_score, "{r:?}");
    }
    assert!(row("lab3").error.as_ref().unwrap().contains("truncated"));
    assert!(row("birdhouse")
        .error
        .as_ref()
        .unwrap()
        .contains("does not have"));
    let metric = |name: &str| {
        report
            .headline
            .metrics
            .iter()
            .find(|m| m.name == name)
            .unwrap()
    };
    // cal_metric.py never sees the final 100 (only the final record has it, without a
    // `time`): CR 0; the strict CR counts 2 of 3.
    assert_eq!(metric("CR").original, Some(0.0));
    assert!((metric("CR").corrected.unwrap() - 200.0 / 3.0).abs() < 1e-9);
    assert_eq!(metric("CT").corrected, Some(14.5));
}

/// Without `cp_sat.json` beside a ParaCook results file, nOCT and pOCT were `-` with no word
/// of why: the original is missing with the reason (the script prints nothing), and the
/// corrected figures use the proven optimum.
#[test]
fn paracook_without_cp_sat_says_why_and_corrects_against_the_optimum() {
    let Some(data) = makespan_testkit::data("paracook") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("model-x.json");
    std::fs::copy(fixture("paracook/results/abstract/model-x.json"), &run).unwrap();
    let report = score(run.to_str().unwrap(), &data);
    let metric = |name: &str| {
        report
            .headline
            .metrics
            .iter()
            .find(|m| m.name == name)
            .unwrap()
    };
    for name in ["nOCT", "pOCT"] {
        let m = metric(name);
        assert!(m.original.is_none() && m.corrected.is_some(), "{m:?}");
        assert!(
            m.note
                .as_deref()
                .is_some_and(|n| n.contains("no cp_sat.json") && n.contains("proven optimum")),
            "{m:?}"
        );
    }
    assert!(metric("SR")
        .note
        .as_deref()
        .is_some_and(|n| n.contains("prints 0.00")));
}

/// `score`'s table showed Recipe2Plan's makespans and optima in seconds: they are `HH:MM:SS`
/// there, as the benchmark writes times; the JSON report keeps the seconds and says the unit.
#[test]
fn recipe2plan_times_in_the_score_table_are_the_benchmarks_clock() {
    let Some(data) = makespan_testkit::data("recipe2plan") else {
        return;
    };
    let run = fixture("recipe2plan/logs/model-y/medium/plan_solve/cooking");
    let report = score(&run, &data);
    assert_eq!(report.time_unit, makespan::instance::TimeUnit::Second);
    let best = report
        .rows
        .iter()
        .find(|r| r.key == "Okra-Fry_Volcano-Glass")
        .unwrap();
    let seconds = best.makespan.unwrap();
    let clock = format!(
        "{:02}:{:02}:{:02}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    );
    let table = makespan::score::render_text(&report);
    let line = table
        .lines()
        .find(|l| l.starts_with("Okra-Fry_Volcano-Glass"))
        .unwrap();
    // Makespan and (proven) optimum.
    assert_eq!(line.matches(&clock).count(), 2, "{line}");
    assert!(!line.contains(&format!(" {seconds} ")), "{line}");
}

/// A trajectory `LLM_test.py` wrote on one line, broken in the middle, was "cannot be read
/// (truncated?): expected value at line 1 column 4391": the row now names the file, the line and
/// column, and quotes the text there, so the fault can be found in a one-line file.
#[test]
fn a_broken_one_line_trajectory_is_an_error_row_quoting_the_text_there() {
    let Some(data) = makespan_testkit::data("timearena") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("model-z");
    std::fs::create_dir(&run).unwrap();
    let fixtures = Path::new("tests/fixtures/score/timearena/trajectory/model-z");
    let lab1 = std::fs::read_to_string(fixtures.join("lab1.json")).unwrap();
    std::fs::write(run.join("lab1.json"), &lab1).unwrap();
    let value: serde_json::Value = serde_json::from_str(&lab1).unwrap();
    let one_line = serde_json::to_string(&value).unwrap();
    let cut = one_line.find("\"action\"").unwrap();
    let broken = format!(
        "{}\"action\": pick {}",
        &one_line[..cut],
        &one_line[cut + 9..]
    );
    std::fs::write(run.join("broken.json"), &broken).unwrap();
    let report = score(run.to_str().unwrap(), &data);
    let row = report.rows.iter().find(|r| r.key == "broken").unwrap();
    let error = row.error.as_deref().unwrap();
    assert!(
        error.contains("broken.json: line 1, column")
            && error.contains(", at \"…")
            && error.contains("\\\"action\\\": pick"),
        "{error}"
    );
    assert!(!error.contains("truncated"), "{error}");
}

#[test]
fn paracook_lists_the_checkouts_unanswered_keys_and_sr_over_all_of_them() {
    let Some(data) = makespan_testkit::data("paracook") else {
        return;
    };
    let report = score(&fixture("paracook/results/abstract/model-x.json"), &data);
    // Every task file of the checkout for the 1, 2 and 3 cooks the run answers; the run has 4
    // of those keys (the others are a bad key and a seed the checkout lacks).
    let files = walkdir_count(&data.join("abstract"));
    assert_eq!(report.unanswered.len(), 3 * files - 4);
    assert!(report
        .unanswered
        .contains(&"sushi/seed_126/agent_num_3/orders_num_4".to_string()));
    assert!(!report
        .unanswered
        .contains(&"burger/seed_42/agent_num_2/orders_num_1".to_string()));
    let all = report
        .headline
        .metrics
        .iter()
        .find(|m| m.name == "SR-all")
        .unwrap();
    let n = (3 * files) as f64;
    assert!((all.original.unwrap() - 300.0 / n).abs() < 1e-9, "{all:?}");
    assert!((all.corrected.unwrap() - 200.0 / n).abs() < 1e-9, "{all:?}");
    let printed = makespan::score::render_text(&report);
    assert!(
        printed.contains(&format!(
            "{} key(s) of the checkout have no answer",
            3 * files - 4
        )),
        "{printed}"
    );
}

/// The `.json` files below `dir`.
fn walkdir_count(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            if p.is_dir() {
                walkdir_count(&p)
            } else {
                usize::from(p.extension().is_some_and(|x| x == "json"))
            }
        })
        .sum()
}

#[test]
fn recipe2plan_lists_the_pairs_without_a_log_and_the_pass_rate_over_all_pairs() {
    let Some(data) = makespan_testkit::data("recipe2plan") else {
        return;
    };
    let run = fixture("recipe2plan/logs/model-y/medium/plan_solve/cooking");
    let report = score(&run, &data);
    // Every row but `Nope_Recipe` (no such pair) answers a pair of the checkout.
    let in_scope = report.rows.len() - 1;
    assert_eq!(
        report.unanswered.len(),
        65 - in_scope,
        "{:?}",
        report.unanswered
    );
    let all = report
        .headline
        .metrics
        .iter()
        .find(|m| m.name == "pass-all")
        .unwrap();
    assert!(
        (all.corrected.unwrap() - 100.0 / 65.0).abs() < 1e-9,
        "{all:?}"
    );
}

#[test]
fn timearena_keys_are_the_users_names_so_none_is_listed_unanswered() {
    let Some(data) = makespan_testkit::data("timearena") else {
        return;
    };
    let report = score(&fixture("timearena/trajectory/model-z"), &data);
    assert!(report.unanswered.is_empty());
    assert!(report
        .headline
        .metrics
        .iter()
        .all(|m| !m.name.ends_with("-all")));
}

#[test]
fn one_paracook_answer_nested_too_deep_is_one_error_row_naming_the_key_and_the_limit() {
    let Some(data) = makespan_testkit::data("paracook") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("model.json");
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    std::fs::write(
        &run,
        format!(
            r#"{{"burger/seed_42/agent_num_2/orders_num_1": {{"done": true, "time": 61, "answer": [["subtask2", "subtask3", "subtask4", "subtask5", "subtask7"], ["subtask1", "subtask6"]]}},
"burger/seed_42/agent_num_1/orders_num_1": {{"done": false, "time": -1, "answer": {deep}}},
"burger/seed_84/agent_num_2/orders_num_1": {{"done": false, "time": -1, "answer": [[""]]}}}}"#
        ),
    )
    .unwrap();
    let report = score(run.to_str().unwrap(), &data);
    assert_eq!(report.rows.len(), 3);
    let deep_row = &report.rows[1];
    assert_eq!(deep_row.key, "burger/seed_42/agent_num_1/orders_num_1");
    let why = deep_row.error.as_deref().unwrap();
    assert!(
        why.contains("100001 levels deep") && why.contains("limit of 128"),
        "{why}"
    );
    assert_eq!(report.rows[0].valid, Some(true));
    assert_eq!(report.unscored(), 1);
}

/// A folder of several models' ParaCook results files: the fixture's, a second model's, and
/// the reference run, as `results/abstract/` holds them.
fn leaderboard_folder(dir: &Path) -> std::path::PathBuf {
    let folder = dir.join("abstract");
    std::fs::create_dir_all(&folder).unwrap();
    for file in ["model-x.json", "cp_sat.json"] {
        std::fs::copy(
            fixture(&format!("paracook/results/abstract/{file}")),
            folder.join(file),
        )
        .unwrap();
    }
    std::fs::write(
        folder.join("model-y.json"),
        r#"{"burger/seed_42/agent_num_2/orders_num_1": {"done": true, "time": 61, "answer": [["subtask2", "subtask3", "subtask4", "subtask5", "subtask7"], ["subtask1", "subtask6"]]},
"burger/seed_42/agent_num_3/orders_num_1": {"done": true, "time": 61, "answer": [["subtask2", "subtask3", "subtask4", "subtask5", "subtask7"], ["subtask1", "subtask6"], []]}}"#,
    )
    .unwrap();
    folder
}

#[test]
fn a_folder_of_several_models_is_one_leaderboard() {
    let Some(data) = makespan_testkit::data("paracook") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let folder = leaderboard_folder(dir.path());
    let options = ScoreOptions {
        data: Some(data.clone()),
        ..ScoreOptions::default()
    };
    let board = leaderboard::score_folder(&folder, &options).unwrap();
    assert_eq!(board.benchmark, "paracook");
    // Ranked by corrected SR (the reference and model-y answer validly), then by name.
    let models: Vec<&str> = board.standings.iter().map(|s| s.model.as_str()).collect();
    assert_eq!(models, ["cp_sat", "model-y", "model-x"]);
    // Each standing carries the same headline as scoring its file alone.
    let alone = score(&fixture("paracook/results/abstract/model-x.json"), &data);
    let x = &board.standings[2];
    assert_eq!(x.metrics, alone.headline.metrics);
    assert_eq!((x.answers, x.unscored), (6, 2));
}

#[test]
fn score_cli_prints_and_writes_the_leaderboard_as_text_csv_json_and_html() {
    let Some(data) = makespan_testkit::data("paracook") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let folder = leaderboard_folder(dir.path());
    let (csv, json, html) = (
        dir.path().join("board.csv"),
        dir.path().join("board.json"),
        dir.path().join("board.html"),
    );
    let output = makespan(&[
        "score",
        folder.to_str().unwrap(),
        "--data",
        data.to_str().unwrap(),
        "--out",
        csv.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]);
    let printed = text(&output);
    // model-x has entries that cannot be scored.
    assert_eq!(output.status.code(), Some(3), "{printed}");
    assert!(printed.starts_with("model "), "{printed}");
    let row = |model: &str| printed.lines().find(|l| l.starts_with(model)).unwrap();
    assert!(row("model-x").contains("50.0000 / 33.3333"), "{printed}");
    assert!(printed.contains("paracook leaderboard"), "{printed}");
    let table = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(table.lines().count(), 4, "{table}");
    assert!(
        table.starts_with("model,run,answers,valid,invalid,unscored,unanswered,SR_original,SR_corrected,SR-all_original"),
        "{table}"
    );
    let board: leaderboard::Leaderboard =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(board.standings.len(), 3);
    let page = std::fs::read_to_string(&html).unwrap();
    for model in ["cp_sat", "model-x", "model-y"] {
        assert!(page.contains(&format!("<td>{model}</td>")), "{page}");
    }
}
