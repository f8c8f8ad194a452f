//! Properties of the solver on random small instances: the MILP optimum equals an exhaustive
//! search, every lower bound is below it, every heuristic above it, and every schedule the
//! solver returns passes the verifier.

use std::num::NonZeroU32;

use makespan_model::instance::{AgentUse, Instance};
use makespan_model::solution::{Status, Verdict};
use makespan_solve::check::cross_check;
use makespan_solve::internals::bounds;
use makespan_solve::internals::heuristics::{self, Effort};
use makespan_solve::internals::milp::{self, MilpOutcome, MilpSettings};
use makespan_solve::internals::Problem;
use makespan_solve::{solve, Cancel, SolveOptions};
use makespan_verify::verify;
use proptest::prelude::*;

use makespan_testkit::strategies::agent_instances;

/// Exhaustive search over integer start times, activities in index order (a topological
/// order by construction), written independently of the solver.
fn brute_force(instance: &Instance) -> i64 {
    let n = instance.activities.len();
    let horizon: i64 = instance
        .activities
        .iter()
        .map(|a| a.duration + 3)
        .sum::<i64>()
        + 1;
    let mut starts = vec![0i64; n];
    let mut best = horizon;
    search(instance, 0, &mut starts, &mut best);
    best
}

fn search(instance: &Instance, k: usize, starts: &mut Vec<i64>, best: &mut i64) {
    let acts = &instance.activities;
    if k == acts.len() {
        let end = (0..k)
            .map(|j| starts[j] + acts[j].duration)
            .max()
            .unwrap_or(0);
        *best = (*best).min(end);
        return;
    }
    let earliest = instance
        .precedences
        .iter()
        .filter(|p| p.after == acts[k].id)
        .map(|p| {
            let i: usize = p.before[1..].parse().unwrap();
            starts[i] + acts[i].duration + p.min_lag
        })
        .max()
        .unwrap_or(0);
    for t in earliest..=(*best - acts[k].duration).max(earliest) {
        if t + acts[k].duration > *best {
            break;
        }
        starts[k] = t;
        if fits(instance, k, starts) {
            search(instance, k + 1, starts, best);
        }
    }
}

/// Whether activity `k` at `starts[k]` keeps agents and the tool within capacity.
fn fits(instance: &Instance, k: usize, starts: &[i64]) -> bool {
    let acts = &instance.activities;
    let agent_span = |j: usize| -> Option<(i64, i64)> {
        let p = acts[j].duration;
        match acts[j].agent {
            AgentUse::Whole if p > 0 => Some((starts[j], starts[j] + p)),
            AgentUse::BusyFor(b) if p > 0 => Some((starts[j], starts[j] + b)),
            _ => None,
        }
    };
    let tool_span = |j: usize| -> Option<(i64, i64)> {
        (!acts[j].uses.is_empty() && acts[j].duration > 0)
            .then(|| (starts[j], starts[j] + acts[j].duration))
    };
    let overlaps = |a: (i64, i64), b: (i64, i64)| a.0 < b.1 && b.0 < a.1;
    if let Some(mine) = tool_span(k) {
        if (0..k).filter_map(tool_span).any(|s| overlaps(s, mine)) {
            return false;
        }
    }
    if let Some(mine) = agent_span(k) {
        // Peak agent use inside `mine` is reached at some interval start.
        let spans: Vec<(i64, i64)> = (0..k)
            .filter_map(agent_span)
            .filter(|&s| overlaps(s, mine))
            .collect();
        let capacity = instance.agents.unwrap_or(u32::MAX) as usize;
        let peak = std::iter::once(mine.0)
            .chain(spans.iter().map(|s| s.0))
            .filter(|&t| mine.0 <= t && t < mine.1)
            .map(|t| spans.iter().filter(|s| s.0 <= t && t < s.1).count())
            .max()
            .unwrap_or(0);
        if peak + 1 > capacity {
            return false;
        }
    }
    true
}

fn settings() -> MilpSettings {
    MilpSettings {
        time_limit: 30.0,
        threads: NonZeroU32::MIN,
        node_limit: None,
        export_lp: None,
        cancel: Cancel::new(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn solve_proves_the_brute_force_optimum_and_its_schedule_verifies(instance in agent_instances()) {
        let optimum = brute_force(&instance);
        let solution = solve(&instance, &SolveOptions::default());
        prop_assert_eq!(solution.status, Status::Optimal, "{:?}", solution.reason);
        prop_assert_eq!(solution.makespan, Some(optimum));
        let report = verify(&instance, &solution.schedule);
        prop_assert!(report.valid, "{:?}", report.violations.iter().map(|v| &v.message).collect::<Vec<_>>());
    }

    #[test]
    fn the_exhaustive_cross_check_agrees_with_solve_and_the_brute_force(instance in agent_instances()) {
        let optimum = brute_force(&instance);
        let solution = solve(&instance, &SolveOptions::default());
        let check = cross_check(&instance, &solution, &SolveOptions::default(), &Cancel::new());
        prop_assert_eq!(check.verdict, Verdict::Agree, "{:?}", check);
        prop_assert_eq!(check.method.as_str(), "exhaustive");
        prop_assert_eq!(check.detail, format!("found Optimal({optimum})"));
    }

    #[test]
    fn bounds_are_below_and_heuristics_above_the_optimum(instance in agent_instances()) {
        let optimum = brute_force(&instance);
        let problem = Problem::compile(&instance).unwrap();
        prop_assert!(bounds::critical_path(&problem).value <= optimum);
        prop_assert!(bounds::load(&problem).value <= optimum);
        prop_assert!(bounds::best(&problem, None).value <= optimum);
        let heuristic = heuristics::best(&problem, 0, Effort::default()).unwrap();
        prop_assert!(heuristic.makespan(&problem) >= optimum);
    }

    #[test]
    fn milp_alone_finds_the_brute_force_optimum(instance in agent_instances()) {
        let optimum = brute_force(&instance);
        let problem = Problem::compile(&instance).unwrap();
        let horizon = heuristics::best(&problem, 0, Effort::default()).unwrap().makespan(&problem);
        match milp::solve(&problem, horizon, 0, &settings()).unwrap() {
            MilpOutcome::Solved { makespan, proven, .. } => {
                prop_assert!(proven);
                prop_assert_eq!(makespan, optimum);
            }
            other => prop_assert!(false, "unexpected {:?}", other),
        }
        // One unit shorter than the optimum is proven impossible.
        if optimum > 0 {
            let shorter = milp::solve(&problem, optimum - 1, 0, &settings()).unwrap();
            prop_assert!(matches!(shorter, MilpOutcome::Infeasible { .. }), "{:?}", shorter);
        }
    }
}
