//! `solve --check`: re-solves an instance by a second method and compares what the two
//! established. An oracle that is wrong once is worthless, so a disagreement is recorded in
//! the solution file and the summary, and the run exits non-zero.
//!
//! The second method shares neither the bounds nor the heuristics with the main pipeline:
//! - small instances (at most [`EXHAUSTIVE_ACTIVITIES`] activities): an exhaustive
//!   branch-and-bound over integer start times, checking every timing arc and every
//!   resource profile itself (it does not use the MILP, the bounds or the heuristics);
//! - larger ones, or when the search exceeds its budget: the MILP alone, on the horizon of
//!   the claimed makespan (not one less) with no lower bound, so neither the heuristic's
//!   schedule nor a combinatorial bound enters its proof.
//!
//! Both read the compiled problem; a schedule that breaks the instance itself is caught
//! by the independent verifier, which checks every schedule before it is written.

use std::time::Instant;

use crate::exact::milp::{self, MilpOutcome, MilpSettings};
use crate::problem::Problem;
use crate::{Cancel, SolveOptions};
use makespan_model::instance::Instance;
use makespan_model::solution::{CrossCheck, Solution, Status, Verdict};

/// Instances with at most this many activities are checked by exhaustive search.
pub const EXHAUSTIVE_ACTIVITIES: usize = 10;

/// Search nodes the exhaustive method may visit before it gives up (and the MILP checks).
const EXHAUSTIVE_BUDGET: u64 = 2_000_000;

/// What a method established about the optimal makespan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finding {
    /// The optimum, proven.
    Optimal(i64),
    /// Proven: no schedule exists.
    Infeasible,
    /// Not proven: the optimum is at least `lower` and, when a schedule was found, at most
    /// `upper`.
    Bracket {
        /// Proven lower bound.
        lower: i64,
        /// The best schedule's makespan, if one was found.
        upper: Option<i64>,
    },
    /// Nothing established.
    Unknown,
}

impl Finding {
    /// What a solution claims.
    pub fn of(solution: &Solution) -> Finding {
        match (solution.status, solution.makespan) {
            (Status::Optimal, Some(m)) => Finding::Optimal(m),
            (Status::Infeasible, _) => Finding::Infeasible,
            (Status::Feasible, upper) => Finding::Bracket {
                lower: solution.lower_bound.unwrap_or(0),
                upper,
            },
            _ => Finding::Unknown,
        }
    }

    /// The interval the optimum lies in, or `None` for infeasible (no optimum).
    fn interval(self) -> Option<(i64, i64)> {
        match self {
            Finding::Optimal(m) => Some((m, m)),
            Finding::Infeasible => None,
            Finding::Bracket { lower, upper } => Some((lower, upper.unwrap_or(i64::MAX))),
            Finding::Unknown => Some((i64::MIN, i64::MAX)),
        }
    }

    fn feasible(self) -> bool {
        match self {
            Finding::Optimal(_) => true,
            Finding::Bracket { upper, .. } => upper.is_some(),
            _ => false,
        }
    }
}

/// Why two findings cannot both be true, or `None` when they can.
pub fn disagreement(claimed: Finding, second: Finding) -> Option<String> {
    if claimed == Finding::Unknown || second == Finding::Unknown {
        return None;
    }
    match (claimed.interval(), second.interval()) {
        (None, None) => None,
        (None, Some(_)) if second.feasible() => {
            Some(format!("claimed infeasible, but the check found a schedule ({second:?})"))
        }
        (Some(_), None) if claimed.feasible() => Some(format!(
            "the check proved the instance infeasible, but the solution has a schedule ({claimed:?})"
        )),
        (None, Some(_)) | (Some(_), None) => None,
        (Some((lo1, hi1)), Some((lo2, hi2))) => (lo1 > hi2 || lo2 > hi1).then(|| {
            format!(
                "the optimum cannot be both in [{lo1}, {}] (claimed) and in [{lo2}, {}] (check)",
                show(hi1),
                show(hi2)
            )
        }),
    }
}

fn show(value: i64) -> String {
    if value == i64::MAX {
        "∞".into()
    } else {
        value.to_string()
    }
}

/// Re-solves `instance` by a second method, within `options`' limits unless `cancel` is
/// tripped first, and compares with `solution`.
pub fn cross_check(
    instance: &Instance,
    solution: &Solution,
    options: &SolveOptions,
    cancel: &Cancel,
) -> CrossCheck {
    let clock = Instant::now();
    let claimed = Finding::of(solution);
    let record = |verdict, method: &str, detail: String| CrossCheck {
        verdict,
        method: method.into(),
        detail,
        seconds: clock.elapsed().as_secs_f64(),
    };
    if claimed == Finding::Unknown {
        return record(
            Verdict::Skipped,
            "none",
            "the solution claims nothing to check".into(),
        );
    }
    let Ok(problem) = Problem::compile(instance) else {
        return record(
            Verdict::Skipped,
            "none",
            "the instance was decided before search (invalid, unsupported, or infeasible by its lags alone)".into(),
        );
    };
    let horizon = solution
        .makespan
        .unwrap_or_else(|| crate::exact::safe_horizon(&problem));
    let safe = solution.makespan.is_none();
    let (method, second) = match exhaustive(&problem, horizon, safe) {
        Some(found) => ("exhaustive", found),
        None => (
            "milp-alone",
            milp_alone(&problem, horizon, safe, options, cancel),
        ),
    };
    let verdict = match (disagreement(claimed, second), second) {
        (Some(why), _) => return record(Verdict::Disagree, method, why),
        (None, Finding::Unknown) => Verdict::Skipped,
        (None, _) => Verdict::Agree,
    };
    record(verdict, method, format!("found {second:?}"))
}

/// The MILP on `horizon` with no lower bound and no starting schedule.
fn milp_alone(
    problem: &Problem,
    horizon: i64,
    horizon_is_safe: bool,
    options: &SolveOptions,
    cancel: &Cancel,
) -> Finding {
    let settings = MilpSettings {
        time_limit: options.time_limit,
        threads: options.threads,
        node_limit: options.node_limit,
        export_lp: None,
        cancel: cancel.clone(),
    };
    match milp::solve(problem, horizon, 0, &settings) {
        Ok(MilpOutcome::Solved {
            makespan,
            bound,
            proven,
            ..
        }) => {
            if proven || bound >= makespan {
                Finding::Optimal(makespan)
            } else {
                Finding::Bracket {
                    lower: bound,
                    upper: Some(makespan),
                }
            }
        }
        Ok(MilpOutcome::Infeasible { .. }) if horizon_is_safe => Finding::Infeasible,
        Ok(MilpOutcome::Infeasible { .. }) => Finding::Bracket {
            lower: horizon + 1,
            upper: None,
        },
        Ok(MilpOutcome::Stopped { bound, .. }) => Finding::Bracket {
            lower: bound.unwrap_or(0),
            upper: None,
        },
        Ok(MilpOutcome::TooLarge { .. }) | Err(_) => Finding::Unknown,
    }
}

/// The optimum among schedules that end by `horizon`, by exhaustive search; `None` when the
/// instance is too large or the search exceeds its budget. Without a schedule by `horizon`
/// the finding is a bracket above it, or infeasible when `horizon_is_safe` (every feasible
/// instance has a schedule that ends by it).
fn exhaustive(problem: &Problem, horizon: i64, horizon_is_safe: bool) -> Option<Finding> {
    let n = problem.len();
    if n > EXHAUSTIVE_ACTIVITIES {
        return None;
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&j| (problem.earliest[j], j));
    let mut search = Search {
        problem,
        order,
        starts: vec![None; problem.network.nodes()],
        best: None,
        horizon,
        nodes: 0,
    };
    search.starts[problem.network.origin()] = Some(0);
    if !search.branch(0) {
        return None;
    }
    Some(match search.best {
        Some(m) => Finding::Optimal(m),
        None if horizon_is_safe => Finding::Infeasible,
        None => Finding::Bracket {
            lower: horizon + 1,
            upper: None,
        },
    })
}

/// Depth-first search over start times in a fixed activity order; every arc between two
/// placed nodes and every resource profile is checked as soon as both ends are placed.
struct Search<'a> {
    problem: &'a Problem,
    order: Vec<usize>,
    /// Start of each network node placed so far (the origin at 0; the sink never).
    starts: Vec<Option<i64>>,
    best: Option<i64>,
    /// Only schedules that end by this are searched; lowered to best − 1 on each find.
    horizon: i64,
    nodes: u64,
}

impl Search<'_> {
    /// Returns `false` when the budget ran out.
    fn branch(&mut self, depth: usize) -> bool {
        self.nodes += 1;
        if self.nodes > EXHAUSTIVE_BUDGET {
            return false;
        }
        let sink = self.problem.network.sink();
        if depth == self.order.len() {
            let end = self
                .problem
                .network
                .arcs()
                .iter()
                .filter(|a| a.to == sink)
                .filter_map(|a| Some(self.starts[a.from]? + a.weight))
                .max()
                .unwrap_or(0)
                .max(0);
            if end <= self.horizon {
                self.best = Some(end);
                self.horizon = end - 1;
            }
            return true;
        }
        let j = self.order[depth];
        let Some((lo, hi)) = self.window(j) else {
            return true;
        };
        for t in lo..=hi {
            // The horizon may have dropped while searching deeper.
            if !self.fits_horizon(j, t) {
                break;
            }
            self.starts[j] = Some(t);
            if self.fits_resources(j) && !self.branch(depth + 1) {
                return false;
            }
            self.starts[j] = None;
        }
        true
    }

    /// Starts of `j` allowed by the arcs to and from placed nodes, and by the horizon.
    fn window(&self, j: usize) -> Option<(i64, i64)> {
        let sink = self.problem.network.sink();
        let (mut lo, mut hi) = (0, self.horizon);
        for a in self.problem.network.arcs() {
            if a.to == j {
                if let Some(s) = self.starts[a.from] {
                    lo = lo.max(s + a.weight);
                }
            } else if a.from == j {
                if a.to == sink {
                    hi = hi.min(self.horizon - a.weight);
                } else if let Some(s) = self.starts[a.to] {
                    hi = hi.min(s - a.weight);
                }
            }
        }
        (lo <= hi).then_some((lo, hi))
    }

    fn fits_horizon(&self, j: usize, t: i64) -> bool {
        let sink = self.problem.network.sink();
        self.problem
            .network
            .arcs()
            .iter()
            .filter(|a| a.from == j && a.to == sink)
            .all(|a| t + a.weight <= self.horizon)
    }

    /// Whether every resource stays within capacity with `j` placed: the peak over `j`'s
    /// demand interval is reached at the start of some interval inside it.
    fn fits_resources(&self, j: usize) -> bool {
        let sj = self.starts[j].expect("j is placed");
        self.problem.demands[j].iter().all(|mine| {
            let (from, to) = (sj + mine.from, sj + mine.to);
            let others: Vec<(i64, i64, i64)> = (0..self.problem.len())
                .filter(|&k| k != j)
                .filter_map(|k| Some((k, self.starts[k]?)))
                .flat_map(|(k, sk)| {
                    self.problem.demands[k]
                        .iter()
                        .filter(|d| d.resource == mine.resource)
                        .map(move |d| (sk + d.from, sk + d.to, d.amount))
                })
                .filter(|&(a, b, _)| a < to && from < b)
                .collect();
            let capacity = self.problem.capacities[mine.resource];
            std::iter::once(from)
                .chain(others.iter().map(|o| o.0).filter(|&t| from <= t && t < to))
                .all(|t| {
                    let used: i64 = others
                        .iter()
                        .filter(|o| o.0 <= t && t < o.1)
                        .map(|o| o.2)
                        .sum();
                    used + mine.amount <= capacity
                })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::solve;
    use makespan_model::instance::{Activity, Precedence};

    #[test]
    fn equal_optima_agree_and_different_ones_disagree() {
        assert_eq!(disagreement(Finding::Optimal(7), Finding::Optimal(7)), None);
        let why = disagreement(Finding::Optimal(7), Finding::Optimal(6)).unwrap();
        assert!(why.contains("[7, 7]") && why.contains("[6, 6]"), "{why}");
    }

    #[test]
    fn a_bracket_must_contain_the_optimum() {
        let bracket = Finding::Bracket {
            lower: 5,
            upper: Some(9),
        };
        assert_eq!(disagreement(bracket, Finding::Optimal(5)), None);
        assert_eq!(disagreement(bracket, Finding::Optimal(9)), None);
        assert!(disagreement(bracket, Finding::Optimal(4)).is_some());
        assert!(disagreement(bracket, Finding::Optimal(10)).is_some());
        let above = Finding::Bracket {
            lower: 10,
            upper: None,
        };
        assert!(disagreement(Finding::Optimal(9), above).is_some());
        assert!(disagreement(bracket, above).is_some());
    }

    #[test]
    fn infeasible_against_a_schedule_disagrees() {
        assert!(disagreement(Finding::Infeasible, Finding::Optimal(3)).is_some());
        assert!(disagreement(Finding::Optimal(3), Finding::Infeasible).is_some());
        assert_eq!(disagreement(Finding::Infeasible, Finding::Infeasible), None);
        let no_schedule = Finding::Bracket {
            lower: 4,
            upper: None,
        };
        assert_eq!(disagreement(Finding::Infeasible, no_schedule), None);
        assert_eq!(disagreement(Finding::Unknown, Finding::Optimal(1)), None);
    }

    fn three_on_one_agent() -> Instance {
        Instance {
            activities: vec![
                Activity::new("a", 2),
                Activity::new("b", 3),
                Activity::new("c", 1),
            ],
            precedences: vec![Precedence::finish_to_start("a", "c", 4)],
            ..Instance::new("three", Some(1))
        }
    }

    #[test]
    fn the_exhaustive_check_agrees_with_a_correct_solution() {
        let instance = three_on_one_agent();
        let solution = solve(&instance, &SolveOptions::default());
        assert_eq!(solution.makespan, Some(7));
        let check = cross_check(
            &instance,
            &solution,
            &SolveOptions::default(),
            &Cancel::new(),
        );
        assert_eq!(check.verdict, Verdict::Agree, "{check:?}");
        assert_eq!(check.method, "exhaustive");
        assert!(check.detail.contains("Optimal(7)"), "{check:?}");
    }

    #[test]
    fn a_deliberately_wrong_optimum_is_flagged() {
        let instance = three_on_one_agent();
        let mut wrong = solve(&instance, &SolveOptions::default());
        // Claim a longer makespan is optimal: the search finds the shorter schedule.
        wrong.makespan = Some(8);
        wrong.lower_bound = Some(8);
        let check = cross_check(&instance, &wrong, &SolveOptions::default(), &Cancel::new());
        assert_eq!(check.verdict, Verdict::Disagree, "{check:?}");
        // The MILP alone flags it too (more activities than the exhaustive limit).
        let problem = Problem::compile(&instance).unwrap();
        let found = milp_alone(&problem, 8, false, &SolveOptions::default(), &Cancel::new());
        assert!(
            disagreement(Finding::Optimal(8), found).is_some(),
            "{found:?}"
        );
    }

    #[test]
    fn a_wrong_infeasible_claim_is_flagged() {
        let instance = three_on_one_agent();
        let mut wrong = solve(&instance, &SolveOptions::default());
        wrong.status = Status::Infeasible;
        wrong.makespan = None;
        let check = cross_check(&instance, &wrong, &SolveOptions::default(), &Cancel::new());
        assert_eq!(check.verdict, Verdict::Disagree, "{check:?}");
    }
}
