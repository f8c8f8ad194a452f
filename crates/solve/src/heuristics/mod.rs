//! Upper bounds: serial schedule generation under classic priority rules, biased random
//! sampling, and forward–backward improvement (justification). The best schedule is the
//! MILP's horizon and, when it meets the lower bound, the optimum itself.

mod critical;
mod dispatch;
mod local;
mod profile;
mod sgs;
pub(crate) mod shop;
mod start_rules;

use std::time::Instant;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::problem::Problem;
use crate::Cancel;

/// A heuristic schedule: start times of every network node (the sink's is the makespan).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heuristic {
    pub starts: Vec<i64>,
    pub rule: &'static str,
}

impl Heuristic {
    pub fn makespan(&self, problem: &Problem) -> i64 {
        self.starts[problem.network.sink()]
    }
}

/// How hard the heuristic tries.
#[derive(Debug, Clone, Copy)]
pub struct Effort {
    /// Random-sampling passes after the deterministic rules (each stops the search early
    /// once a schedule meets the lower bound, so easy instances never pay for them).
    pub samples: usize,
    pub seed: u64,
    /// When to stop improving and return the best schedule so far (the solve pipeline sets
    /// it from the instance's time limit; the first schedule is always completed).
    pub deadline: Option<Instant>,
    /// Whether the local and critical-path searches polish the best sampled schedule. The
    /// solve pipeline turns them off where an exact search over time takes the problem: it
    /// finds the optimum from any schedule, and on the one-cook corpus the polish never improved
    /// one while it took most of the heuristics' time.
    pub polish: bool,
}

impl Default for Effort {
    fn default() -> Self {
        Effort {
            samples: 2000,
            seed: 0x6d61_6b65_7370_616e,
            deadline: None,
            polish: true,
        }
    }
}

impl Effort {
    /// Whether the deadline has passed.
    pub fn expired(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// When the improving searches stop early: at the instance's deadline, or once the caller
/// cancels.
pub(crate) struct Stop<'a> {
    effort: &'a Effort,
    cancel: &'a Cancel,
}

impl Stop<'_> {
    fn now(&self) -> bool {
        self.effort.expired() || self.cancel.is_cancelled()
    }
}

/// Local-search moves × activities, at most (about two seconds of decoding).
const LOCAL_SEARCH_WORK: usize = 400_000;

/// Tabu-search evaluations × activities, at most, and evaluations per sample of the effort.
const CRITICAL_WORK: usize = 1_000_000;
const CRITICAL_PER_SAMPLE: usize = 10;

/// The best schedule found, stopping early once it reaches `lower_bound`.
pub fn best(problem: &Problem, lower_bound: i64, effort: Effort) -> Option<Heuristic> {
    best_until(problem, lower_bound, effort, &Cancel::new())
}

/// [`best`], stopping also once `cancel` is tripped (with the best schedule found so far).
pub fn best_until(
    problem: &Problem,
    lower_bound: i64,
    effort: Effort,
    cancel: &Cancel,
) -> Option<Heuristic> {
    if problem.has_sequencing() {
        return dispatched(problem, lower_bound, effort, cancel);
    }
    let mirror = problem.mirrored();
    let rules = PriorityRules::new(problem);
    let mut best: Option<Heuristic> = None;
    let consider = |candidate: Option<Heuristic>, best: &mut Option<Heuristic>| {
        if let Some(c) = candidate {
            if best
                .as_ref()
                .is_none_or(|b| c.makespan(problem) < b.makespan(problem))
            {
                *best = Some(c);
            }
        }
        best.as_ref()
            .is_some_and(|b| b.makespan(problem) <= lower_bound)
    };

    for (rule, priority) in rules.deterministic() {
        let found = sgs::serial(problem, &priority).map(|starts| Heuristic { starts, rule });
        let improved = found.map(|h| improve(problem, &mirror, h, &effort));
        if consider(improved, &mut best) || (best.is_some() && effort.expired()) {
            return best;
        }
    }
    let mut rng = SmallRng::seed_from_u64(effort.seed);
    for k in 0..effort.samples {
        if best.is_some() && effort.expired() {
            return best;
        }
        if cancel.is_cancelled() {
            break;
        }
        let priority = rules.sampled(k, &mut rng);
        let found = sgs::serial(problem, &priority).map(|starts| Heuristic {
            starts,
            rule: "sampled-lft",
        });
        let improved = found.map(|h| improve(problem, &mirror, h, &effort));
        if consider(improved, &mut best) {
            return best;
        }
    }
    if !effort.polish {
        return best;
    }
    // The searches below cost seconds; they stop at `lower_bound`, so callers pass the
    // strongest bound they have (the solve pipeline: the energetic one).
    // Local search pays per activity on every move: fewer moves on large instances.
    let moves = (effort.samples * 2).min(LOCAL_SEARCH_WORK / problem.len().max(1));
    let best = best.map(|b| {
        let stop = Stop {
            effort: &effort,
            cancel,
        };
        local::search(problem, &mirror, b, lower_bound, moves, &stop, &mut rng)
    });
    let evaluations =
        (effort.samples * CRITICAL_PER_SAMPLE).min(CRITICAL_WORK / problem.len().max(1));
    best.map(|b| {
        critical::search(
            problem,
            &mirror,
            b,
            lower_bound,
            evaluations,
            &Stop {
                effort: &effort,
                cancel,
            },
            &mut rng,
        )
    })
}

/// The best chronological dispatch under the classic rules, then under sampled priorities
/// with a random slack (how far past the earliest possible start the rule may look), for
/// problems with setups or holds that serial generation cannot follow.
fn dispatched(
    problem: &Problem,
    lower_bound: i64,
    effort: Effort,
    cancel: &Cancel,
) -> Option<Heuristic> {
    let rules = PriorityRules::new(problem);
    let sink = problem.network.sink();
    let mut best: Option<Heuristic> = None;
    let mut consider = |starts: Option<Vec<i64>>, rule: &'static str| {
        if let Some(s) = starts {
            if best.as_ref().is_none_or(|b| s[sink] < b.starts[sink]) {
                best = Some(Heuristic { starts: s, rule });
            }
        }
        // Stop at the bound, or at the deadline once there is a schedule.
        best.as_ref()
            .is_some_and(|b| b.starts[sink] <= lower_bound || effort.expired())
    };
    let names = [
        "dispatch-lft",
        "dispatch-lst",
        "dispatch-mts",
        "dispatch-est",
    ];
    for (rule, (_, priority)) in names.into_iter().zip(rules.deterministic()) {
        if consider(dispatch::dispatch(problem, &priority, 0), rule) {
            return best;
        }
    }
    let mut rng = SmallRng::seed_from_u64(effort.seed);
    // A tenth of the samples: each dispatch costs more than a serial pass, and these
    // problems (one agent, setups) usually go on to an exact search that needs only a bound.
    for k in 0..effort.samples.div_ceil(10) {
        if cancel.is_cancelled() {
            break;
        }
        let priority = rules.sampled(k, &mut rng);
        let slack = rng.random_range(0..=2);
        if consider(
            dispatch::dispatch(problem, &priority, slack),
            "dispatch-sampled-lft",
        ) {
            break;
        }
    }
    best
}

/// Forward–backward improvement: right-justify in the order of finish times, then
/// left-justify in the order of the new starts, while the makespan shrinks (and the
/// deadline allows).
fn improve(
    problem: &Problem,
    mirror: &Problem,
    mut current: Heuristic,
    effort: &Effort,
) -> Heuristic {
    loop {
        if effort.expired() {
            return current;
        }
        let Some(next) = justify(problem, mirror, &current.starts) else {
            return current;
        };
        if next[problem.network.sink()] >= current.makespan(problem) {
            return current;
        }
        current.starts = next;
    }
}

fn justify(problem: &Problem, mirror: &Problem, starts: &[i64]) -> Option<Vec<i64>> {
    let p = &problem.durations;
    let latest_finish_first: Vec<f64> = (0..starts.len())
        .map(|j| -((starts[j] + p[j]) as f64))
        .collect();
    let backward = sgs::serial(mirror, &latest_finish_first)?;
    let end = backward[mirror.network.sink()];
    let right: Vec<f64> = (0..starts.len())
        .map(|j| (end - backward[j] - p[j]) as f64)
        .collect();
    sgs::serial(problem, &right)
}

/// Priority values (lower goes first) of the classic rules.
struct PriorityRules {
    latest_finish: Vec<f64>,
    latest_start: Vec<f64>,
    successors: Vec<f64>,
    earliest_start: Vec<f64>,
}

impl PriorityRules {
    /// The `k`-th sampled priority: latest finish times with multiplicative noise, from
    /// gentle to strong in turn (so the samples explore near LFT and far from it), plus a
    /// random tie-breaker.
    fn sampled(&self, k: usize, rng: &mut SmallRng) -> Vec<f64> {
        const NOISE: [f64; 4] = [0.05, 0.15, 0.3, 0.6];
        let noise = NOISE[k % NOISE.len()];
        self.latest_finish
            .iter()
            .map(|&v| v * rng.random_range(1.0 - noise..1.0 + noise) + rng.random_range(0.0..1.0))
            .collect()
    }

    fn new(problem: &Problem) -> Self {
        let nodes = problem.network.nodes();
        let p = &problem.durations;
        let horizon = problem.earliest[problem.network.sink()]
            + p.iter().sum::<i64>()
            + problem
                .network
                .arcs()
                .iter()
                .map(|a| a.weight.max(0))
                .sum::<i64>();
        let latest = problem
            .network
            .latest_starts(horizon)
            .unwrap_or_else(|_| problem.earliest.clone());
        let mut successors = vec![0usize; nodes];
        for a in problem.network.arcs().iter().filter(|a| a.forward) {
            successors[a.from] += 1;
        }
        PriorityRules {
            latest_finish: (0..nodes).map(|j| (latest[j] + p[j]) as f64).collect(),
            latest_start: latest.iter().map(|&v| v as f64).collect(),
            successors: successors.iter().map(|&s| -(s as f64)).collect(),
            earliest_start: problem.earliest.iter().map(|&v| v as f64).collect(),
        }
    }

    fn deterministic(&self) -> [(&'static str, Vec<f64>); 4] {
        [
            ("serial-lft", self.latest_finish.clone()),
            ("serial-lst", self.latest_start.clone()),
            ("serial-mts", self.successors.clone()),
            ("serial-est", self.earliest_start.clone()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use makespan_model::instance::{Activity, Instance, Precedence, Resource, ResourceUse};

    fn kitchen() -> Instance {
        let mut activities: Vec<Activity> = [("chop", 4), ("boil", 6), ("fry", 5), ("plate", 2)]
            .iter()
            .map(|&(id, p)| Activity::new(id, p))
            .collect();
        activities[1].uses.push(ResourceUse {
            resource: "stove".into(),
            amount: 1,
        });
        activities[2].uses.push(ResourceUse {
            resource: "stove".into(),
            amount: 1,
        });
        Instance {
            resources: vec![Resource {
                id: "stove".into(),
                capacity: 1,
                states: vec![],
            }],
            activities,
            precedences: vec![
                Precedence::finish_to_start("chop", "fry", 0),
                Precedence::finish_to_start("boil", "plate", 0),
                Precedence::finish_to_start("fry", "plate", 1),
            ],
            ..Instance::new("k", Some(2))
        }
    }

    #[test]
    fn heuristic_respects_resources_and_precedences() {
        let problem = Problem::compile(&kitchen()).unwrap();
        let h = best(&problem, 0, Effort::default()).unwrap();
        let s = &h.starts;
        // chop 0-4, boil 0-6 on the stove, fry after both (stove free at 6), plate after.
        assert!(s[2] >= s[0] + 4);
        assert!(s[2] >= s[1] + 6 || s[1] >= s[2] + 5, "stove overlap: {s:?}");
        assert!(s[3] > s[2] + 5 && s[3] >= s[1] + 6);
        assert_eq!(h.makespan(&problem), 14);
    }

    #[test]
    fn heuristic_meets_max_lags_when_possible() {
        let mut inst = kitchen();
        inst.precedences[2].max_lag = Some(1);
        let problem = Problem::compile(&inst).unwrap();
        let h = best(&problem, 0, Effort::default()).unwrap();
        assert_eq!(h.starts[3], h.starts[2] + 5 + 1);
    }
}
