//! AsyncTool: generated instances solved to the closed form `max(N, 2·k_max − 1)` (delay 1)
//! and worked examples, and turn lists verified through the CLI.

use std::process::Command;

use makespan::benchmarks::asynctool::generate::{closed_form_delay_one, generate, Params};
use makespan::benchmarks::generate::Span;
use makespan::instance::{Activity, Instance, Precedence};
use makespan::solution::Status;
use makespan::solve::{solve, SolveOptions};

fn chains(lengths: &[usize], delays: &[&[i64]]) -> Instance {
    let mut inst = Instance::new("chains", Some(1));
    for (i, (&k, d)) in lengths.iter().zip(delays).enumerate() {
        for j in 1..=k {
            inst.activities.push(Activity::new(format!("c{i}-{j}"), 1));
            if j > 1 {
                inst.precedences.push(Precedence::finish_to_start(
                    format!("c{i}-{}", j - 1),
                    format!("c{i}-{j}"),
                    d[j - 2],
                ));
            }
        }
    }
    inst
}

fn optimum(inst: &Instance) -> i64 {
    let s = solve(inst, &SolveOptions::default());
    assert_eq!(s.status, Status::Optimal, "{}: {:?}", inst.name, s.reason);
    s.makespan.unwrap()
}

#[test]
fn delay_one_optimum_matches_the_closed_form() {
    for seed in 0..40 {
        let p = Params {
            seed,
            chains: 1 + (seed as usize % 4),
            length: Span { low: 1, high: 5 },
            delay: Span::fixed(1),
        };
        let inst = generate(&p);
        let lengths: Vec<usize> =
            serde_json::from_value(inst.source.as_ref().unwrap().notes["chain_lengths"].clone())
                .unwrap();
        assert_eq!(
            optimum(&inst),
            closed_form_delay_one(&lengths),
            "{}",
            inst.name
        );
    }
}

#[test]
fn worked_examples_reach_their_known_optima() {
    // Example A: chains of 3 and 2 calls.
    assert_eq!(optimum(&chains(&[3, 2], &[&[0, 0], &[0]])), 5);
    assert_eq!(optimum(&chains(&[3, 2], &[&[1, 1], &[1]])), 5);
    assert_eq!(optimum(&chains(&[3, 2], &[&[2, 2], &[2]])), 7);
    assert_eq!(optimum(&chains(&[3, 2], &[&[2, 1], &[1]])), 6);
    // Example B: 3, 2 and 3 calls.
    let b = |d: i64| chains(&[3, 2, 3], &[&[d, d], &[d], &[d, d]]);
    assert_eq!(optimum(&b(0)), 8);
    assert_eq!(optimum(&b(1)), 8);
    assert_eq!(optimum(&b(2)), 8);
    // Example C: 4 and 1 calls.
    assert_eq!(optimum(&chains(&[4, 1], &[&[1, 1, 1], &[]])), 7);
    assert_eq!(optimum(&chains(&[4, 1], &[&[2, 2, 2], &[]])), 10);
}

#[test]
fn cli_generates_and_verifies_turn_lists() {
    let dir = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_makespan");
    let out = Command::new(bin)
        .args([
            "generate",
            "asynctool",
            "--seed",
            "1",
            "--chains",
            "2",
            "--length",
            "3",
        ])
        .args(["--delay", "1", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let inst = dir.path().join("asynctool-s1-k2-l3-d1.json");
    assert!(inst.exists());
    let good = dir.path().join("good.json");
    std::fs::write(
        &good,
        r#"["c1-1", "c2-1", "c1-2", "c2-2", "c1-3", null, "c2-3"]"#,
    )
    .unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(
        &bad,
        r#"[["c1-1", "c2-1"], "c1-2", "c2-2", "c1-3", "c2-3"]"#,
    )
    .unwrap();
    let run = |plan: &std::path::Path| {
        Command::new(bin)
            .arg("verify")
            .arg(plan)
            .arg("--instance")
            .arg(&inst)
            .output()
            .unwrap()
    };
    let ok = run(&good);
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ok.stdout)
    );
    let wrong = run(&bad);
    let text = String::from_utf8_lossy(&wrong.stdout);
    assert_eq!(wrong.status.code(), Some(1), "{text}");
    assert!(text.contains("two_calls_in_one_turn"), "{text}");
    assert!(text.contains("result_not_arrived"), "{text}");
}
