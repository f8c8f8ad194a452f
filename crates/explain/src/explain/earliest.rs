//! How far each activity could move earlier with everything else unchanged, and what stops
//! it there. See the crate docs for the definition per rule.
//!
//! Each rule family gives, for activity `a` at start `s`, the smallest shift `δ ≥ 1` at which
//! moving all of `a`'s pieces `δ` earlier (same agent) would break that rule — first forbidden
//! shift — and the activity (if any) responsible. `a`'s earliest start is `s − (δ_min − 1)`,
//! its unforced wait `δ_min − 1`. A rule already broken at `s` forbids every shift (`δ = 1`):
//! moving would not repair it, so the analysis of an invalid plan stays that of the plan as
//! written. Only the first forbidden shift matters, so the rules are computed in closed form
//! from the others' fixed positions: no search over time, whatever the horizon.

use std::collections::BTreeMap;

use makespan_model::instance::Relation;
use makespan_model::schedule::Piece;
use serde_json::Value;

use super::Reason;
use makespan_verify::placed::{Placed, Placements};

/// Why one activity could not start earlier: its earliest start and every rule that forbids
/// the shift one unit further, with the activity behind each (an index into the plan).
#[derive(Debug, Clone)]
pub(crate) struct Earliest {
    pub earliest: i64,
    pub binding: Vec<(Reason, Option<usize>)>,
}

/// One forbidden shift found by a rule.
struct Limit {
    delta: i64,
    reason: Reason,
    by: Option<usize>,
}

/// A span of a resource's use: `[start, end)`, `amount` units, by placement `owner` (or a
/// hold, named by its two activities).
#[derive(Debug, Clone)]
struct Span {
    start: i64,
    end: i64,
    amount: i64,
    owner: Option<usize>,
    /// Whether the span moves with its owner (its pieces, or a hold it begins).
    moves: bool,
    name: String,
}

/// The earliest start of every placement, in plan order.
pub(crate) fn earliest_starts(plan: &Placements) -> Vec<Earliest> {
    let spans = resource_spans(plan);
    let setups = setup_times(plan);
    let pooled = plan.pooled();
    (0..plan.all.len())
        .map(|i| {
            let mut limits = Vec::new();
            let a = &plan.all[i];
            limits.push(Limit {
                delta: a.start().saturating_add(1).max(1),
                reason: Reason::Start,
                by: None,
            });
            if let Some(release) = a.activity.release {
                limits.push(Limit {
                    delta: (a.start() - release).saturating_add(1).max(1),
                    reason: Reason::Release { release },
                    by: None,
                });
            }
            precedences(plan, i, &mut limits);
            agents(plan, i, pooled, &mut limits);
            pauses(plan, i, &mut limits);
            setups_before(plan, i, &setups, &mut limits);
            resources(plan, i, &spans, &mut limits);
            states(plan, i, &mut limits);
            let delta = limits.iter().map(|l| l.delta).min().unwrap_or(1);
            let mut binding: Vec<(Reason, Option<usize>)> = limits
                .into_iter()
                .filter(|l| l.delta == delta)
                .map(|l| (l.reason, l.by))
                .collect();
            binding.sort_by_key(|(r, by)| (r.rank(), *by));
            binding.dedup_by(|x, y| x == y);
            Earliest {
                earliest: a.start() - (delta - 1),
                binding,
            }
        })
        .collect()
}

/// Min lags where `a` is the successor (its first piece), max lags where `a` is the
/// predecessor (every piece of the successor must start within the window after `a`).
fn precedences(plan: &Placements, i: usize, out: &mut Vec<Limit>) {
    let a = &plan.all[i];
    for p in &plan.instance.precedences {
        if p.after == a.id() && p.before != a.id() {
            let Some(b) = plan.position(&p.before) else {
                continue;
            };
            let anchor = anchor(&plan.all[b], p.relation);
            let earliest = anchor.saturating_add(p.min_lag);
            out.push(Limit {
                delta: (a.start() - earliest).saturating_add(1).max(1),
                reason: Reason::Precedence {
                    before: p.before.clone(),
                    relation: p.relation,
                    min_lag: p.min_lag,
                },
                by: Some(b),
            });
        }
        if let (true, Some(max_lag)) = (p.before == a.id() && p.after != a.id(), p.max_lag) {
            let Some(c) = plan.position(&p.after) else {
                continue;
            };
            let last = last_piece_start(plan, c);
            let latest_anchor = anchor(a, p.relation).saturating_add(max_lag);
            out.push(Limit {
                delta: (latest_anchor - last).saturating_add(1).max(1),
                reason: Reason::MaxLag {
                    after: p.after.clone(),
                    max_lag,
                },
                by: Some(c),
            });
        }
    }
}

/// The latest instant a max lag binds in `c`: its last piece's start, or a `start` activity
/// of the same agent beginning strictly inside a piece of a preemptible `c` (the agent
/// pauses `c` for it, which the verifier counts as a piece start).
fn last_piece_start(plan: &Placements, c: usize) -> i64 {
    let after = &plan.all[c];
    let mut last = after
        .pieces
        .iter()
        .map(Piece::start)
        .max()
        .unwrap_or(after.start());
    if after.activity.preemptible && after.agent.is_some() {
        for o in plan.all.iter().filter(|o| o.agent == after.agent) {
            if let Some(t) = o.instant() {
                if after.pieces.iter().any(|q| q.start() < t && t < q.end()) {
                    last = last.max(t);
                }
            }
        }
    }
    last
}

/// A start instant strictly inside a piece of a preemptible activity on the same agent
/// pauses that activity there, and the verifier counts the pause as a piece start for the
/// activity's max lags. So `a` may not move its instant into a piece of such an `o` past
/// `o`'s latest piece start. (The converse cannot arise in a valid plan: every piece of a
/// preemptible activity starts by its latest, so moving it earlier never makes it surround
/// a later instant.)
fn pauses(plan: &Placements, i: usize, out: &mut Vec<Limit>) {
    let a = &plan.all[i];
    let (Some(g), Some(s)) = (a.agent, a.instant()) else {
        return;
    };
    for (j, o) in plan.all.iter().enumerate() {
        if j == i || o.agent != Some(g) || !o.activity.preemptible {
            continue;
        }
        for (latest, b) in latest_piece_starts(plan, j) {
            for q in &o.pieces {
                // The last instant before `s` strictly inside `q`; when `a` is the
                // predecessor, the bound moves with it and only `s` against it counts.
                let t = (s - 1).min(q.end() - 1);
                let past = if b == i { s > latest } else { t > latest };
                if t > q.start() && past {
                    out.push(agent_limit(s - t, g, o, j));
                }
            }
        }
    }
}

/// The latest piece start that each max lag into `c` allows, from its predecessor's current
/// place, with the predecessor.
fn latest_piece_starts(plan: &Placements, c: usize) -> Vec<(i64, usize)> {
    let after = plan.all[c].id();
    plan.instance
        .precedences
        .iter()
        .filter(|p| p.after == after && p.before != after)
        .filter_map(|p| {
            let max_lag = p.max_lag?;
            let b = plan.position(&p.before)?;
            Some((anchor(&plan.all[b], p.relation).saturating_add(max_lag), b))
        })
        .collect()
}

fn anchor(b: &Placed, relation: Relation) -> i64 {
    match relation {
        Relation::FinishToStart => b.end(),
        Relation::StartToStart => b.start(),
    }
}

/// A named agent: `a`'s busy intervals may not newly overlap another's busy interval on the
/// agent, `a`'s start instant may not fall strictly inside another's non-preemptible work,
/// and `a`'s non-preemptible work may not come to surround another's start instant. In a
/// pool: at most `m` busy at any instant, and an instant need finds a free agent.
fn agents(plan: &Placements, i: usize, pooled: bool, out: &mut Vec<Limit>) {
    let a = &plan.all[i];
    if let Some(g) = a.agent {
        let others = || {
            plan.all
                .iter()
                .enumerate()
                .filter(move |&(j, o)| j != i && o.agent == Some(g))
        };
        for p in a.busy() {
            for (j, o) in others() {
                for q in o.busy().into_iter().filter(|q| q.start() < p.start()) {
                    out.push(agent_limit(p.start() - q.end() + 1, g, o, j));
                }
                if let Some(t) = o.instant().filter(|&t| t <= p.start()) {
                    if !a.activity.preemptible && p.end() - p.start() > 1 {
                        out.push(agent_limit(p.start() - t + 1, g, o, j));
                    }
                }
            }
        }
        if let Some(s) = a.instant() {
            for (j, o) in others() {
                for q in o.blocking().into_iter().filter(|q| q.start() < s) {
                    if q.end() - q.start() >= 2 {
                        out.push(agent_limit(s - q.end() + 1, g, o, j));
                    }
                }
            }
        }
    } else if pooled && a.needs_agent() {
        let m = i64::from(plan.instance.agents.unwrap_or(u32::MAX));
        let busy: Vec<Span> = plan
            .all
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .flat_map(|(j, o)| o.busy().into_iter().map(move |q| (j, o, q)))
            .map(|(j, o, q)| Span {
                start: q.start(),
                end: q.end(),
                amount: 1,
                owner: Some(j),
                moves: false,
                name: o.id().to_string(),
            })
            .collect();
        for p in a.busy() {
            if let Some((delta, holders)) = overload(&busy, p.start(), 1, m) {
                out.push(pool_limit(delta, plan, holders));
            }
        }
        if let Some(s) = a.instant() {
            // Strictly inside `[q.start, q.end)`: the instants `q.start + 1 .. q.end`.
            let blocking: Vec<Span> = plan
                .all
                .iter()
                .enumerate()
                .filter(|&(j, o)| j != i && o.needs_agent())
                .flat_map(|(j, o)| o.blocking().into_iter().map(move |q| (j, o, q)))
                .map(|(j, o, q)| Span {
                    start: q.start() + 1,
                    end: q.end(),
                    amount: 1,
                    owner: Some(j),
                    moves: false,
                    name: o.id().to_string(),
                })
                .collect();
            if let Some((delta, holders)) = overload(&blocking, s, 1, m) {
                out.push(pool_limit(delta, plan, holders));
            }
        }
    }
}

fn agent_limit(delta: i64, agent: u32, o: &Placed, j: usize) -> Limit {
    Limit {
        delta: delta.max(1),
        reason: Reason::Agent {
            agent: Some(agent),
            busy: vec![o.id().to_string()],
        },
        by: Some(j),
    }
}

fn pool_limit(delta: i64, plan: &Placements, holders: Vec<usize>) -> Limit {
    Limit {
        delta,
        reason: Reason::Agent {
            agent: None,
            busy: holders
                .iter()
                .map(|&j| plan.all[j].id().to_string())
                .collect(),
        },
        by: holders.first().copied(),
    }
}

/// The largest setup time of each ordered pair of stations (as the verifier reads them).
fn setup_times<'a>(plan: &Placements<'a>) -> BTreeMap<(&'a str, &'a str), i64> {
    let mut times = BTreeMap::new();
    for s in &plan.instance.setups {
        let t = times
            .entry((s.from.as_str(), s.to.as_str()))
            .or_insert(s.time);
        *t = (*t).max(s.time);
    }
    times
}

/// The agent's busy interval just before each of `a`'s (by start) must end a setup time
/// before it, when both have stations.
fn setups_before(
    plan: &Placements,
    i: usize,
    times: &BTreeMap<(&str, &str), i64>,
    out: &mut Vec<Limit>,
) {
    let a = &plan.all[i];
    let (Some(g), Some(to)) = (a.agent, a.activity.station.as_deref()) else {
        return;
    };
    if times.is_empty() {
        return;
    }
    let mut list: Vec<(Piece, usize)> = plan
        .all
        .iter()
        .enumerate()
        .filter(|(_, o)| o.agent == Some(g))
        .flat_map(|(j, o)| o.busy().into_iter().map(move |b| (b, j)))
        .collect();
    list.sort();
    for w in list.windows(2) {
        let ((first, j), (next, k)) = (w[0], w[1]);
        if k != i || j == i {
            continue;
        }
        let c = &plan.all[j];
        let Some(from) = c.activity.station.as_deref() else {
            continue;
        };
        let need = times.get(&(from, to)).copied().unwrap_or(0);
        let gap = next.start() - first.end();
        if gap < 0 {
            continue; // an overlap: the agent rule speaks for it
        }
        out.push(Limit {
            delta: (gap - need + 1).max(1),
            reason: Reason::Setup {
                agent: g,
                after: c.id().to_string(),
                from: from.to_string(),
                to: to.to_string(),
                time: need,
            },
            by: Some(j),
        });
    }
}

/// Every use of every resource: activities' pieces and holds (from the start of `from`, or
/// 0, to the end of `until`, or for ever).
fn resource_spans(plan: &Placements) -> BTreeMap<String, Vec<Span>> {
    let mut spans: BTreeMap<String, Vec<Span>> = BTreeMap::new();
    for (j, p) in plan.all.iter().enumerate() {
        for u in &p.activity.uses {
            for piece in p.pieces.iter().filter(|x| x.start() < x.end()) {
                spans.entry(u.resource.clone()).or_default().push(Span {
                    start: piece.start(),
                    end: piece.end(),
                    amount: i64::from(u.amount),
                    owner: Some(j),
                    moves: true,
                    name: p.id().to_string(),
                });
            }
        }
    }
    for h in &plan.instance.holds {
        let from = match h.from.as_deref() {
            None => Some((0, None)),
            Some(id) => plan.position(id).map(|j| (plan.all[j].start(), Some(j))),
        };
        let until = match h.until.as_deref() {
            None => Some(i64::MAX),
            Some(id) => plan.get(id).map(Placed::end),
        };
        if let (Some((start, owner)), Some(end)) = (from, until) {
            spans.entry(h.resource.clone()).or_default().push(Span {
                start,
                end,
                amount: i64::from(h.amount),
                owner,
                moves: owner.is_some(),
                name: format!(
                    "the hold from `{}` until `{}`",
                    h.from.as_deref().unwrap_or("time 0"),
                    h.until.as_deref().unwrap_or("the end")
                ),
            });
        }
    }
    spans
}

/// `a`'s spans on each resource may not newly meet a load above the capacity.
fn resources(
    plan: &Placements,
    i: usize,
    spans: &BTreeMap<String, Vec<Span>>,
    out: &mut Vec<Limit>,
) {
    for r in &plan.instance.resources {
        let Some(list) = spans.get(&r.id) else {
            continue;
        };
        let (mine, others): (Vec<&Span>, Vec<&Span>) =
            list.iter().partition(|s| s.owner == Some(i) && s.moves);
        if mine.is_empty() {
            continue;
        }
        let others: Vec<Span> = others.into_iter().cloned().collect();
        for s in mine.iter().filter(|s| s.start < s.end && s.amount > 0) {
            if let Some((delta, holders)) =
                overload(&others, s.start, s.amount, i64::from(r.capacity))
            {
                out.push(Limit {
                    delta,
                    reason: Reason::Resource {
                        resource: r.id.clone(),
                        holders: holders.iter().map(|&k| others[k].name.clone()).collect(),
                    },
                    by: holders.iter().find_map(|&k| others[k].owner),
                });
            }
        }
    }
}

/// For a span of `amount` starting at `start` and moving earlier over `spans` (fixed): the
/// first forbidden shift (the span newly covers `[start − δ, start)`, so the latest instant
/// `T < start` with `load(T) + amount > capacity` gives `δ = start − T`), and the spans
/// (indices) covering `T`, those ending at `T + 1` first. `None` when nothing ever blocks.
fn overload(spans: &[Span], start: i64, amount: i64, capacity: i64) -> Option<(i64, Vec<usize>)> {
    let mut events: Vec<(i64, i64)> = Vec::new();
    for s in spans.iter().filter(|s| s.start < start && s.start < s.end) {
        events.push((s.start, s.amount));
        events.push((s.end.min(start), -s.amount));
    }
    events.sort();
    // Load on each elementary interval [t_k, t_{k+1}) before `start`.
    let mut load = 0;
    let mut worst: Option<i64> = None;
    let mut k = 0;
    while k < events.len() {
        let t = events[k].0;
        while k < events.len() && events[k].0 == t {
            load += events[k].1;
            k += 1;
        }
        let next = events.get(k).map_or(start, |e| e.0).min(start);
        if next > t && load + amount > capacity {
            worst = Some(next - 1);
        }
    }
    let t = worst?;
    let mut holders: Vec<usize> = (0..spans.len())
        .filter(|&k| spans[k].start <= t && t < spans[k].end)
        .collect();
    holders.sort_by_key(|&k| (spans[k].end != t + 1, spans[k].end, k));
    Some((start - t, holders))
}

/// A requirement at `a`'s start must still see its value at the earlier instant; a value
/// `a` sets may not come to overwrite what another activity requires, nor meet a different
/// value set at the same instant.
fn states(plan: &Placements, i: usize, out: &mut Vec<Limit>) {
    let a = &plan.all[i];
    let s = a.start();
    for (key, want) in &a.activity.requires {
        // Others' sets of `key` at or before `s`, grouped by instant, latest first.
        let mut sets: Vec<(i64, usize, &Value)> = plan
            .all
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .filter_map(|(j, o)| o.activity.sets.get(key).map(|v| (o.start(), j, v)))
            .filter(|&(t, _, _)| t <= s)
            .collect();
        sets.sort_by(|x, y| (y.0, x.1).cmp(&(x.0, y.1)));
        let mut good: Option<(i64, usize)> = None;
        for group in sets.chunk_by(|x, y| x.0 == y.0) {
            if group.iter().all(|&(_, _, v)| v == want) {
                good = Some((group[0].0, group[0].1));
            } else {
                break;
            }
        }
        let (delta, by) = match good {
            Some((t, j)) => (s - t + 1, Some(j)),
            None => (1, sets.first().map(|x| x.1)),
        };
        out.push(Limit {
            delta,
            reason: Reason::State {
                key: key.clone(),
                by: by.map(|j| plan.all[j].id().to_string()),
            },
            by,
        });
    }
    for (key, value) in &a.activity.sets {
        for (j, o) in plan.all.iter().enumerate().filter(|&(j, _)| j != i) {
            let t = o.start();
            if t >= s {
                continue;
            }
            let clash = o.activity.sets.get(key).is_some_and(|v| v != value)
                || o.activity.requires.get(key).is_some_and(|v| v != value);
            if clash {
                out.push(Limit {
                    delta: s - t,
                    reason: Reason::State {
                        key: key.clone(),
                        by: Some(o.id().to_string()),
                    },
                    by: Some(j),
                });
            }
        }
    }
}
