//! Setups and holds as orders: rules a start-time model with cumulatives cannot state,
//! written as linear rows over 0–1 order variables, which `pumpkin-checker` re-checks as the
//! linear inferences it knows.
//!
//! An order variable stands for one fact about a schedule, and its name says which (so the
//! checker reads each row against the instance on its own):
//! - `b_<i>_<j>`: activity `i`'s busy time, then the move from its station to `j`'s, ends
//!   by the start of activity `j`;
//! - `o_<r>_<p>_<q>`: on resource `r`, span `p` ends by the start of span `q`, where a span
//!   is `h<f>t<u>` (the holds from the start of activity `f`, or time 0 for `z`, to the end
//!   of activity `u`, or the end of the schedule for `e`) or `u<j>` (activity `j` using the
//!   resource).
//!
//! Indices are the instance's. Each variable guards its lag with a big-M row (`o = 1`: the
//! lag holds; `o = 0`: the row says nothing), and an at-least-one row over variables states
//! the rule; where the rule is "one of two orders", one variable guards both (the second
//! where it is 0):
//! - **Setups** (one agent, every activity that keeps it busy at a station, setup times that
//!   obey the triangle inequality): of two such activities, one comes first. The agent
//!   visits them in some order, and what it does in between takes at least the direct move.
//! - **Holds** (every hold at least one unit long): of spans whose amounts together exceed
//!   the capacity, two do not overlap (spans that overlap pairwise share an instant, the
//!   latest of their starts, where they would exceed it). Only orders that can happen are
//!   listed: a span to the end of the schedule is never before another, nor is any span
//!   before one from time 0.
//!
//! Which setups and holds meet those conditions is decided before the problem is compiled
//! (the relaxation a proof is searched on keeps only those).

use std::collections::BTreeMap;

use super::model::Var;
use crate::problem::network::Arc;
use crate::problem::sequencing::HoldSpan;
use crate::problem::Problem;

/// At most this many families of spans per resource (the rows grow as `n` choose
/// `capacity + 1`); a resource with more keeps its holds out of the model.
pub const MAX_FAMILIES: usize = 2_000;

/// An instant of a span: time 0, an offset from an activity's start (problem index), or
/// the end of the schedule (after every start).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Point {
    Zero,
    At(usize, i64),
    End,
}

/// A resource held over `[start, end)`, and its name in order variables.
#[derive(Debug, Clone)]
struct Span {
    start: Point,
    end: Point,
    amount: i64,
    name: String,
}

/// `S_y ≥ S_x + w`, over the problem's activities.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Lag {
    x: usize,
    y: usize,
    w: i64,
}

/// A row `Σ weight · var ≤ rhs`, in the problem's (64-bit) times.
pub(super) type Linear = (Vec<(i64, Var)>, i64);

/// The order variables and rows of setups and holds.
#[derive(Debug, Default)]
pub(super) struct Orders {
    /// The name of each order variable.
    pub names: Vec<String>,
    pub rows: Vec<Linear>,
    index: BTreeMap<String, usize>,
    /// Some family of spans has no rows: too many families on its resource, or a span in it
    /// that no order names (it overlaps every other whatever the schedule).
    left_out: bool,
}

impl Orders {
    /// The rows of setups and holds on `problem`, for schedules that end by `horizon`.
    pub fn new(problem: &Problem, horizon: i64) -> Orders {
        let mut orders = Orders::default();
        let instance_index = instance_indices(problem);
        orders.setups(problem, horizon, &instance_index);
        orders.holds(problem, horizon, &instance_index);
        orders
    }

    /// Whether the rows state `problem`'s setups and holds exactly (the conditions in the
    /// module documentation), so that the model takes the problem as it is.
    pub fn exact(problem: &Problem) -> bool {
        let whole = problem.expanded.parts.iter().all(|p| p.len() == 1);
        let setups = problem.setups.as_ref().is_none_or(|setups| {
            let busy = |j: usize| {
                problem.demands[j].iter().any(|d| {
                    Some(d.resource) == problem.agent_resource && d.amount > 0 && d.to > d.from
                })
            };
            whole && (0..problem.len()).all(|j| !busy(j) || setups.station[j].is_some())
        });
        let holds = problem.holds.is_empty()
            || (whole && problem.holds.iter().all(|h| unit_long(problem, h)) && {
                // Only the holds' rows tell whether a family was left out.
                let mut holds = Orders::default();
                holds.holds(problem, 0, &instance_indices(problem));
                !holds.left_out
            });
        setups && holds
    }

    /// The variable for `lag` under `name`, guarded by its big-M row the first time.
    fn guard(&mut self, name: String, lag: Lag, horizon: i64) -> Var {
        if let Some(&k) = self.index.get(&name) {
            return Var::Order(k);
        }
        let k = self.names.len();
        self.index.insert(name.clone(), k);
        self.names.push(name);
        // o = 1: S_x − S_y ≤ −w. o = 0: S_x − S_y ≤ horizon, true of starts in [0, horizon].
        let m = horizon + lag.w.max(0);
        self.rows.push((
            vec![
                (1, Var::Start(lag.x)),
                (-1, Var::Start(lag.y)),
                (m, Var::Order(k)),
            ],
            m - lag.w,
        ));
        Var::Order(k)
    }

    /// One variable under `name` for two lags of which one holds in every schedule: `lag`
    /// where it is 1, `otherwise` where it is 0 (no row says "at least one").
    fn either(&mut self, name: String, lag: Lag, otherwise: Lag, horizon: i64) {
        let o = self.guard(name, lag, horizon);
        // o = 0: S_x − S_y ≤ −w. o = 1: S_x − S_y ≤ horizon.
        let m = horizon + otherwise.w.max(0);
        self.rows.push((
            vec![
                (1, Var::Start(otherwise.x)),
                (-1, Var::Start(otherwise.y)),
                (-m, o),
            ],
            -otherwise.w,
        ));
    }

    /// At least one of `vars` is 1.
    fn at_least_one(&mut self, vars: &[Var]) {
        self.rows
            .push((vars.iter().map(|&v| (-1, v)).collect(), -1));
    }

    /// Of two activities that keep the one agent busy at stations with a setup between
    /// them, one ends its busy time and the move before the other starts.
    fn setups(&mut self, problem: &Problem, horizon: i64, index: &[usize]) {
        let (Some(setups), Some(agents)) = (&problem.setups, problem.agent_resource) else {
            return;
        };
        let busy: Vec<(usize, i64)> = (0..problem.len())
            .filter(|&j| setups.station[j].is_some())
            .filter_map(|j| {
                let d = problem.demands[j]
                    .iter()
                    .find(|d| d.resource == agents && d.amount > 0 && d.from == 0 && d.to > 0)?;
                Some((j, d.to))
            })
            .collect();
        for (k, &(i, busy_i)) in busy.iter().enumerate() {
            for &(j, busy_j) in &busy[k + 1..] {
                let (there, back) = (setups.between(i, j), setups.between(j, i));
                if there == 0 && back == 0 {
                    // The agent's cumulative already keeps them apart.
                    continue;
                }
                self.either(
                    format!("b_{}_{}", index[i], index[j]),
                    Lag {
                        x: i,
                        y: j,
                        w: busy_i + there,
                    },
                    Lag {
                        x: j,
                        y: i,
                        w: busy_j + back,
                    },
                    horizon,
                );
            }
        }
    }

    /// Of spans of a resource whose amounts together exceed its capacity (and that would
    /// not without any one of them), two do not overlap.
    fn holds(&mut self, problem: &Problem, horizon: i64, index: &[usize]) {
        for (r, spans) in spans(problem, index) {
            let Some(families) = families(&spans, problem.capacities[r]) else {
                self.left_out = true;
                continue;
            };
            for family in families {
                let mut lags = Vec::new();
                let mut named = vec![false; family.len()];
                for (k, &p) in family.iter().enumerate() {
                    for (l, &q) in family.iter().enumerate().skip(k + 1) {
                        for (s, t) in [(&spans[p], &spans[q]), (&spans[q], &spans[p])] {
                            if let Some(lag) = before(s, t) {
                                lags.push((format!("o_{r}_{}_{}", s.name, t.name), lag));
                                named[k] = true;
                                named[l] = true;
                            }
                        }
                    }
                }
                // The checker knows a family by the spans its variables name: a span that
                // overlaps every other whatever the schedule is in none, so such a family
                // is left out (as is the model of an instance that no schedule keeps).
                if named.contains(&false) {
                    self.left_out = true;
                    continue;
                }
                if let ([_, _], [(name, lag), (_, otherwise)]) = (&family[..], &lags[..]) {
                    // Two spans, each may come first: one variable for both orders.
                    self.either(name.clone(), *lag, *otherwise, horizon);
                    continue;
                }
                let vars: Vec<Var> = lags
                    .into_iter()
                    .map(|(name, lag)| self.guard(name, lag, horizon))
                    .collect();
                self.at_least_one(&vars);
            }
        }
    }
}

/// For each problem activity, the index of the instance's activity it is (or is a chunk
/// of).
fn instance_indices(problem: &Problem) -> Vec<usize> {
    let mut index = vec![0; problem.len()];
    for (i, part) in problem.expanded.parts.iter().enumerate() {
        for &j in part {
            index[j] = i;
        }
    }
    index
}

/// The spans of each resource with holds: its holds (those between the same two
/// activities as one span, their amounts added) and the activities that use it.
fn spans(problem: &Problem, index: &[usize]) -> BTreeMap<usize, Vec<Span>> {
    let durations = &problem.durations;
    let mut holds: BTreeMap<(usize, Point, Point), i64> = BTreeMap::new();
    for h in &problem.holds {
        let start = h.from.map_or(Point::Zero, |j| Point::At(j, 0));
        let end = h.until.map_or(Point::End, |j| Point::At(j, durations[j]));
        *holds.entry((h.resource, start, end)).or_default() += h.amount;
    }
    let mut out: BTreeMap<usize, Vec<Span>> = BTreeMap::new();
    for ((r, start, end), amount) in holds {
        let at = |p: Point, none: &str| match p {
            Point::At(j, _) => index[j].to_string(),
            _ => none.to_owned(),
        };
        out.entry(r).or_default().push(Span {
            start,
            end,
            amount,
            name: format!("h{}t{}", at(start, "z"), at(end, "e")),
        });
    }
    for (j, demands) in problem.demands[..problem.len()].iter().enumerate() {
        for d in demands.iter().filter(|d| d.amount > 0 && d.to > d.from) {
            let Some(spans) = out.get_mut(&d.resource) else {
                continue;
            };
            // One span per activity, all its uses of the resource added (its demands all
            // run over its whole duration here).
            let name = format!("u{}", index[j]);
            match spans.iter_mut().find(|s| s.name == name) {
                Some(span) => span.amount += d.amount,
                None => spans.push(Span {
                    start: Point::At(j, d.from),
                    end: Point::At(j, d.to),
                    amount: d.amount,
                    name,
                }),
            }
        }
    }
    out
}

/// The families of spans whose amounts exceed `capacity` and would not without any one of
/// them, as indices in order; `None` when there are more than [`MAX_FAMILIES`].
fn families(spans: &[Span], capacity: i64) -> Option<Vec<Vec<usize>>> {
    fn grow(
        spans: &[Span],
        capacity: i64,
        family: &mut Vec<usize>,
        total: i64,
        out: &mut Vec<Vec<usize>>,
    ) -> bool {
        let next = family.last().map_or(0, |&k| k + 1);
        for k in next..spans.len() {
            let total = total + spans[k].amount;
            family.push(k);
            if total > capacity {
                let least = family.iter().map(|&p| spans[p].amount).min().unwrap_or(0);
                if total - least <= capacity {
                    out.push(family.clone());
                    if out.len() > MAX_FAMILIES {
                        return false;
                    }
                }
            } else if !grow(spans, capacity, family, total, out) {
                return false;
            }
            family.pop();
        }
        true
    }
    let mut out = Vec::new();
    grow(spans, capacity, &mut Vec::new(), 0, &mut out).then_some(out)
}

/// Whether a hold is at least one unit long in every schedule, by the problem's arcs (the
/// longest path from its first activity's start, plus its last one's duration) other than
/// "a hold ends no earlier than it starts": an empty hold overlaps nothing, so no order
/// between it and another span is a rule.
fn unit_long(problem: &Problem, h: &HoldSpan) -> bool {
    let Some(until) = h.until else {
        return true;
    };
    let Some(from) = h.from else {
        return problem.durations[until] > 0;
    };
    let own = |a: &Arc| {
        problem.holds.iter().any(|h| {
            h.from == Some(a.from) && h.until == Some(a.to) && a.weight == -problem.durations[a.to]
        })
    };
    // The problem compiled, so its arcs (these among them) close no positive cycle.
    problem
        .network
        .longest_from(from, |a| !own(a))
        .is_ok_and(|gap| gap[until] > i64::MIN && gap[until] + problem.durations[until] >= 1)
}

/// `s` ends by the start of `t`, as a lag; `None` when that cannot be (`s` runs to the end
/// of the schedule, or `t` starts at time 0 while `s`, at least a unit long, ends later).
fn before(s: &Span, t: &Span) -> Option<Lag> {
    match (s.end, t.start) {
        (Point::At(x, a), Point::At(y, b)) => Some(Lag { x, y, w: a - b }),
        _ => None,
    }
}
