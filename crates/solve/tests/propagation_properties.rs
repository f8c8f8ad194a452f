//! Soundness of the propagation behind the destructive lower bound (disjunctive pairs,
//! time-tabling, edge finding on cliques of activities that cannot overlap, shaving) and
//! of the clique rows, on random small RCPSP instances with cumulative resources, against
//! an enumeration written independently of the solver: every optimal schedule must survive
//! the tightening at its own makespan, so the bound never exceeds the optimum, and the
//! whole pipeline proves exactly the optimum.

use makespan_model::instance::Instance;
use makespan_model::solution::Status;
use makespan_solve::internals::milp::{first_open_horizon, tighten};
use makespan_solve::internals::Problem;
use makespan_solve::{solve, SolveOptions};
use proptest::prelude::*;

use makespan_testkit::strategies::rcpsp_instances;

/// Durations, demands `[activity][resource]`, capacities and `(before, after, lag)`.
struct Plain {
    p: Vec<i64>,
    demand: Vec<Vec<i64>>,
    capacity: Vec<i64>,
    arcs: Vec<(usize, usize, i64)>,
}

fn plain(instance: &Instance) -> Plain {
    let index = |id: &str| instance.activities.iter().position(|a| a.id == id).unwrap();
    Plain {
        p: instance.activities.iter().map(|a| a.duration).collect(),
        demand: instance
            .activities
            .iter()
            .map(|a| {
                instance
                    .resources
                    .iter()
                    .map(|r| {
                        a.uses
                            .iter()
                            .filter(|u| u.resource == r.id)
                            .map(|u| i64::from(u.amount))
                            .sum()
                    })
                    .collect()
            })
            .collect(),
        capacity: instance
            .resources
            .iter()
            .map(|r| i64::from(r.capacity))
            .collect(),
        arcs: instance
            .precedences
            .iter()
            .map(|q| (index(&q.before), index(&q.after), q.min_lag))
            .collect(),
    }
}

/// The optimum and one optimal schedule: the best serial decoding over every activity list
/// (these generate every active schedule, and an active schedule is optimal for makespan).
fn optimum(instance: &Instance) -> (i64, Vec<i64>) {
    let plain = plain(instance);
    let n = plain.p.len();
    let mut best = (i64::MAX, Vec::new());
    let mut list = Vec::new();
    permute(&plain, &mut list, &mut vec![false; n], &mut best);
    best
}

fn permute(plain: &Plain, list: &mut Vec<usize>, used: &mut [bool], best: &mut (i64, Vec<i64>)) {
    let n = plain.p.len();
    if list.len() == n {
        let starts = decode(plain, list);
        let makespan = (0..n).map(|j| starts[j] + plain.p[j]).max().unwrap_or(0);
        if makespan < best.0 {
            *best = (makespan, starts);
        }
        return;
    }
    for j in 0..n {
        let ready = plain.arcs.iter().all(|&(i, k, _)| k != j || used[i]);
        if !used[j] && ready {
            used[j] = true;
            list.push(j);
            permute(plain, list, used, best);
            list.pop();
            used[j] = false;
        }
    }
}

/// Serial decoding, one time unit at a time.
fn decode(plain: &Plain, list: &[usize]) -> Vec<i64> {
    let n = plain.p.len();
    let mut starts = vec![0i64; n];
    let mut usage: Vec<Vec<i64>> = vec![vec![0; 128]; plain.capacity.len()];
    for &j in list {
        let mut t = plain
            .arcs
            .iter()
            .filter(|&&(_, k, _)| k == j)
            .map(|&(i, _, lag)| starts[i] + plain.p[i] + lag)
            .max()
            .unwrap_or(0);
        let fits = |t: i64, usage: &Vec<Vec<i64>>| {
            (t..t + plain.p[j]).all(|u| {
                (0..plain.capacity.len())
                    .all(|r| usage[r][u as usize] + plain.demand[j][r] <= plain.capacity[r])
            })
        };
        while !fits(t, &usage) {
            t += 1;
        }
        for u in t..t + plain.p[j] {
            for (r, row) in usage.iter_mut().enumerate() {
                row[u as usize] += plain.demand[j][r];
            }
        }
        starts[j] = t;
    }
    starts
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn an_optimal_schedule_survives_tightening_at_its_makespan(instance in rcpsp_instances()) {
        let (opt, starts) = optimum(&instance);
        let problem = Problem::compile(&instance).unwrap();
        let tight = tighten(&problem, opt);
        prop_assert!(tight.is_some(), "propagation refutes the optimum {}", opt);
        let tight = tight.unwrap();
        // Every arc it derived holds in the optimal schedule (origin at 0, sink at opt).
        let mut all = starts.clone();
        all.extend([0, opt]);
        for a in tight.network.arcs() {
            prop_assert!(all[a.to] >= all[a.from] + a.weight, "{:?} cuts off {:?}", a, starts);
        }
        let lower = first_open_horizon(&problem, problem.critical_path(), opt);
        prop_assert!(lower.is_some_and(|b| b <= opt), "bound {:?} above the optimum {}", lower, opt);
    }

    #[test]
    fn the_pipeline_proves_exactly_the_enumerated_optimum(instance in rcpsp_instances()) {
        let (opt, _) = optimum(&instance);
        let solution = solve(&instance, &SolveOptions::default());
        prop_assert_eq!(solution.status, Status::Optimal, "{:?}", solution.reason);
        prop_assert_eq!(solution.makespan, Some(opt));
    }
}
