//! Clique rows over activities that can never run at the same time.
//!
//! Two activities are incompatible when together they need more of some resource than it
//! has (for their whole durations), or when the temporal network orders them (one cannot
//! start before the other ends). For a clique `C` of pairwise incompatible activities, at
//! most one runs in any period: `Σ_{j ∈ C} (y[j,t] − y[j,t−p_j]) ≤ 1`. A capacity row
//! only says this for a single resource, weighted by the amounts, and precedence rows only
//! for pairs; a clique mixing resources and precedences (or amounts above half the
//! capacity) cuts off fractional LP solutions that neither does: conflict-graph cliques
//! are among the cuts that close time-indexed RCPSP models (Araujo et al., C&OR 113, 2020).
//! HiGHS finds cliques among binary columns by itself, but "j runs at t" is a difference
//! of two step columns here, which its clique table does not see.

use super::highs::{Row, Rows, Term};
use super::model::Steps;
use crate::problem::Problem;

/// Longest paths between all activities cost n³: larger problems get no cliques.
const MAX_ACTIVITIES: usize = 300;

/// Adds one row per clique and period where at least two of its activities may run.
pub(super) fn add_rows(problem: &Problem, horizon: i64, steps: &[Steps], rows: &mut Rows) {
    let p = &problem.durations;
    let fresh = cliques(problem, false);
    for clique in fresh {
        for t in 0..horizon {
            let mut row = Row::default();
            let mut running = 0;
            for &j in &clique {
                let (started, ended) = (steps[j].by(t), steps[j].by(t - p[j]));
                let may_run =
                    !matches!((&started, &ended), (Term::Const(a), Term::Const(b)) if a == b);
                if may_run {
                    running += 1;
                    row.add(started, 1.0);
                    row.add(ended, -1.0);
                }
            }
            if running >= 2 {
                rows.add(row, 1.0);
            }
        }
    }
}

/// Cliques of at least three pairwise incompatible activities, one grown greedily from each
/// activity, without duplicates, and unless `with_capacity_rows`, without those a capacity
/// row already states exactly.
pub(super) fn cliques(problem: &Problem, with_capacity_rows: bool) -> Vec<Vec<usize>> {
    let n = problem.len();
    if n > MAX_ACTIVITIES {
        return Vec::new();
    }
    let conflict = incompatible(problem);
    let degree: Vec<usize> = conflict
        .iter()
        .map(|row| row.iter().filter(|&&c| c).count())
        .collect();
    let mut found: Vec<Vec<usize>> = Vec::new();
    for v in 0..n {
        let mut candidates: Vec<usize> = (0..n).filter(|&u| conflict[v][u]).collect();
        candidates.sort_by_key(|&u| (std::cmp::Reverse(degree[u]), u));
        let mut clique = vec![v];
        for u in candidates {
            if clique.iter().all(|&w| conflict[w][u]) {
                clique.push(u);
            }
        }
        clique.sort_unstable();
        if clique.len() >= 3
            && (with_capacity_rows || !states_a_capacity_row(problem, &clique))
            && !found.contains(&clique)
        {
            found.push(clique);
        }
    }
    found
}

/// Whether some resource's capacity row already says "at most one of these": every member
/// takes all of it for its whole duration.
fn states_a_capacity_row(problem: &Problem, clique: &[usize]) -> bool {
    (0..problem.capacities.len()).any(|r| {
        clique.iter().all(|&j| {
            problem.demands[j].iter().any(|d| {
                d.resource == r
                    && d.amount >= problem.capacities[r]
                    && d.from == 0
                    && d.to == problem.durations[j]
            })
        })
    })
}

/// `conflict[i][j]`: activities `i` and `j` can never run at the same time.
fn incompatible(problem: &Problem) -> Vec<Vec<bool>> {
    let n = problem.len();
    let p = &problem.durations;
    // Longest paths between activities (the network has no positive cycle).
    let mut dist = vec![vec![i64::MIN; n]; n];
    for a in problem.network.arcs() {
        if a.from < n && a.to < n && a.weight > dist[a.from][a.to] {
            dist[a.from][a.to] = a.weight;
        }
    }
    for k in 0..n {
        for i in 0..n {
            if dist[i][k] == i64::MIN {
                continue;
            }
            for j in 0..n {
                if dist[k][j] != i64::MIN && dist[i][k] + dist[k][j] > dist[i][j] {
                    dist[i][j] = dist[i][k] + dist[k][j];
                }
            }
        }
    }
    let whole = |j: usize, r: usize| {
        problem.demands[j]
            .iter()
            .filter(|d| d.resource == r && d.from == 0 && d.to == p[j])
            .map(|d| d.amount)
            .sum::<i64>()
    };
    let mut conflict = vec![vec![false; n]; n];
    for i in 0..n {
        for j in i + 1..n {
            if p[i] == 0 || p[j] == 0 {
                continue;
            }
            let ordered = dist[i][j] >= p[i] || dist[j][i] >= p[j];
            let crowded = (0..problem.capacities.len()).any(|r| {
                let (a, b) = (whole(i, r), whole(j, r));
                a > 0 && b > 0 && a + b > problem.capacities[r]
            });
            if ordered || crowded {
                conflict[i][j] = true;
                conflict[j][i] = true;
            }
        }
    }
    conflict
}
