//! What a Gantt chart shows, before it is drawn: sections (the plan, the reference) of lanes
//! (one per agent, packed lanes for activities without one, one per resource), bars,
//! unforced waits, usage profiles and violation marks. Pure data, in time units, so the SVG
//! writer only maps it to pixels.

use std::collections::BTreeMap;

use makespan_model::instance::{AgentUse, Instance};
use makespan_model::schedule::ScheduledActivity;

use crate::explain::Explanation;
use makespan_verify::placed::{Placed, Placements};

/// A block of lanes with a title (the plan, or the reference below it).
pub(crate) struct Section {
    pub title: String,
    pub lanes: Vec<Lane>,
}

/// One row of the chart.
pub(crate) struct Lane {
    pub label: String,
    pub bars: Vec<Bar>,
    /// Unforced waits: `[from, to)` before an activity.
    pub waits: Vec<(i64, i64, String)>,
    /// A cumulative resource's load: `[from, to)` at `load` of `capacity`.
    pub profile: Vec<(i64, i64, i64)>,
    pub capacity: i64,
    /// A resource's lane (its bars are uses, not the activities' own pieces).
    pub resource: bool,
    /// Violations on this lane: time and message.
    pub marks: Vec<(i64, String)>,
}

/// One piece of one activity (or a hold, in a resource lane).
pub(crate) struct Bar {
    pub id: String,
    pub text: String,
    pub start: i64,
    pub end: i64,
    /// The agent works on `[start, busy_end)`; the rest runs unattended (after `busy_for`,
    /// or with no agent). In a resource lane the whole bar is the use.
    pub busy_end: i64,
    /// A hold across activities, not an activity's piece.
    pub held: bool,
    pub chain: bool,
    pub violated: bool,
    /// Hover details, one per line.
    pub info: Vec<String>,
}

/// The sections of a chart: the plan with its explanation, and the reference when given.
pub(crate) fn sections(
    instance: &Instance,
    schedule: &[ScheduledActivity],
    explanation: &Explanation,
    reference: Option<&[ScheduledActivity]>,
) -> Vec<Section> {
    let plan = Placements::new(instance, schedule);
    let mut out = vec![section("plan", &plan, Some(explanation))];
    if let Some(r) = reference {
        let theirs = Placements::new(instance, r);
        out.push(section("reference", &theirs, None));
    }
    out
}

fn section(title: &str, plan: &Placements, explanation: Option<&Explanation>) -> Section {
    let on_chain = |id: &str| explanation.is_some_and(|e| e.chain.iter().any(|c| c.activity == id));
    let violated = |id: &str| {
        explanation.is_some_and(|e| {
            e.violations
                .iter()
                .any(|v| v.activities.iter().any(|a| a == id))
        })
    };
    let info = |p: &Placed| -> Vec<String> {
        let mut lines = vec![match &p.activity.label {
            Some(label) => format!("{} — {label}", p.id()),
            None => p.id().to_string(),
        }];
        lines.push(format!("{} → {}", p.start(), p.end()));
        if let Some(g) = p.agent {
            lines.push(format!("agent {g}"));
        }
        let uses: Vec<String> = p.activity.uses.iter().map(|u| u.resource.clone()).collect();
        if !uses.is_empty() {
            lines.push(format!("resources: {}", uses.join(", ")));
        }
        if let Some(t) =
            explanation.and_then(|e| e.activities.iter().find(|t| t.activity == p.id()))
        {
            let why: Vec<String> = t.reasons.iter().map(ToString::to_string).collect();
            if t.wait > 0 {
                lines.push(format!(
                    "could start at {} (unforced wait {}); then: {}",
                    t.earliest,
                    t.wait,
                    why.join("; ")
                ));
            } else {
                lines.push(format!("started then: {}", why.join("; ")));
            }
        }
        lines
    };
    let bars_of = |p: &Placed, in_resource: bool| -> Vec<Bar> {
        let text = p
            .activity
            .label
            .clone()
            .unwrap_or_else(|| p.id().to_string());
        let busy = p.busy();
        p.pieces
            .iter()
            .map(|piece| {
                let busy_end = if in_resource || p.activity.agent == AgentUse::Whole {
                    piece.end()
                } else {
                    busy.iter()
                        .find(|b| b.start() == piece.start())
                        .map_or(piece.start(), |b| b.end())
                };
                Bar {
                    id: p.id().to_string(),
                    text: text.clone(),
                    start: piece.start(),
                    end: piece.end(),
                    busy_end,
                    held: false,
                    chain: on_chain(p.id()),
                    violated: violated(p.id()),
                    info: info(p),
                }
            })
            .collect()
    };
    let mut lanes = Vec::new();
    // Agents: one lane per named agent (all of them when the instance has a limit).
    let named: BTreeMap<u32, Vec<usize>> = plan
        .all
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.agent.map(|g| (g, i)))
        .fold(BTreeMap::new(), |mut m, (g, i)| {
            m.entry(g).or_insert_with(Vec::new).push(i);
            m
        });
    let limit = plan.instance.agents.filter(|&m| m <= 64).unwrap_or(0);
    let agents: Vec<u32> = (0..limit)
        .chain(named.keys().copied().filter(|&g| g >= limit))
        .collect();
    for g in agents {
        let members = named.get(&g).cloned().unwrap_or_default();
        lanes.push(activity_lane(
            format!("agent {g}"),
            plan,
            &members,
            &bars_of,
            explanation,
        ));
    }
    // Activities with no agent: packed into as few lanes as overlap allows.
    let mut free: Vec<usize> = (0..plan.all.len())
        .filter(|&i| plan.all[i].agent.is_none())
        .collect();
    free.sort_by_key(|&i| (plan.all[i].start(), plan.all[i].end(), i));
    let mut packed: Vec<(i64, Vec<usize>)> = Vec::new();
    for i in free {
        let (s, e) = (plan.all[i].start(), plan.all[i].end());
        match packed.iter_mut().find(|(end, _)| *end <= s) {
            Some((end, members)) => {
                *end = e.max(*end);
                members.push(i);
            }
            None => packed.push((e, vec![i])),
        }
    }
    let n = packed.len();
    for (k, (_, members)) in packed.into_iter().enumerate() {
        let label = if n == 1 {
            "no agent".to_string()
        } else {
            format!("no agent {}", k + 1)
        };
        lanes.push(activity_lane(label, plan, &members, &bars_of, explanation));
    }
    // Resources: bars for a unary one, the usage profile for a cumulative one.
    for r in &plan.instance.resources {
        let users: Vec<usize> = (0..plan.all.len())
            .filter(|&i| {
                plan.all[i]
                    .activity
                    .uses
                    .iter()
                    .any(|u| u.resource == r.id && u.amount > 0)
            })
            .collect();
        let holds: Vec<(i64, i64, String, i64)> = plan
            .instance
            .holds
            .iter()
            .filter(|h| h.resource == r.id)
            .filter_map(|h| {
                let s = match h.from.as_deref() {
                    None => 0,
                    Some(id) => plan.get(id)?.start(),
                };
                let e = match h.until.as_deref() {
                    None => plan.makespan(),
                    Some(id) => plan.get(id)?.end(),
                };
                let name = format!(
                    "held from `{}` until `{}`",
                    h.from.as_deref().unwrap_or("0"),
                    h.until.as_deref().unwrap_or("the end")
                );
                Some((s, e, name, i64::from(h.amount)))
            })
            .collect();
        if users.is_empty() && holds.is_empty() {
            continue;
        }
        let mut lane = Lane {
            label: format!("{} ({})", r.id, r.capacity),
            bars: Vec::new(),
            waits: Vec::new(),
            profile: Vec::new(),
            capacity: i64::from(r.capacity),
            resource: true,
            marks: Vec::new(),
        };
        if r.capacity <= 1 {
            for &i in &users {
                lane.bars.extend(bars_of(&plan.all[i], true));
            }
            for (s, e, name, _) in &holds {
                lane.bars.push(Bar {
                    id: name.clone(),
                    text: name.clone(),
                    start: *s,
                    end: *e,
                    busy_end: *e,
                    held: true,
                    chain: false,
                    violated: false,
                    info: vec![format!("{} {name}", r.id), format!("{s} → {e}")],
                });
            }
        } else {
            let mut spans: Vec<(i64, i64, i64)> = users
                .iter()
                .flat_map(|&i| {
                    let p = &plan.all[i];
                    let amount: i64 = p
                        .activity
                        .uses
                        .iter()
                        .filter(|u| u.resource == r.id)
                        .map(|u| i64::from(u.amount))
                        .sum();
                    p.pieces.iter().map(move |x| (x.start(), x.end(), amount))
                })
                .collect();
            spans.extend(holds.iter().map(|(s, e, _, a)| (*s, *e, *a)));
            lane.profile = profile(&spans);
        }
        if let Some(e) = explanation {
            for v in e
                .violations
                .iter()
                .filter(|v| v.message.contains(&format!("`{}`", r.id)))
            {
                if let Some(t) = v.time {
                    lane.marks.push((t, format!("{}: {}", v.rule, v.message)));
                }
            }
        }
        lanes.push(lane);
    }
    Section {
        title: title.to_string(),
        lanes,
    }
}

fn activity_lane(
    label: String,
    plan: &Placements,
    members: &[usize],
    bars_of: &dyn Fn(&Placed, bool) -> Vec<Bar>,
    explanation: Option<&Explanation>,
) -> Lane {
    let mut lane = Lane {
        label,
        bars: Vec::new(),
        waits: Vec::new(),
        profile: Vec::new(),
        capacity: 1,
        resource: false,
        marks: Vec::new(),
    };
    for &i in members {
        let p = &plan.all[i];
        lane.bars.extend(bars_of(p, false));
        if let Some(e) = explanation {
            if let Some(t) = e
                .activities
                .iter()
                .find(|t| t.activity == p.id() && t.wait > 0)
            {
                lane.waits.push((
                    t.earliest,
                    t.start,
                    format!(
                        "unforced wait {} before `{}` (could start at {})",
                        t.wait,
                        p.id(),
                        t.earliest
                    ),
                ));
            }
            for v in e
                .violations
                .iter()
                .filter(|v| v.activities.first().is_some_and(|a| a == p.id()))
            {
                if let Some(t) = v.time {
                    lane.marks.push((t, format!("{}: {}", v.rule, v.message)));
                }
            }
        }
    }
    lane
}

/// The load of `[start, end, amount)` spans as constant steps.
fn profile(spans: &[(i64, i64, i64)]) -> Vec<(i64, i64, i64)> {
    let mut events: Vec<(i64, i64)> = spans
        .iter()
        .filter(|s| s.0 < s.1)
        .flat_map(|&(s, e, a)| [(s, a), (e, -a)])
        .collect();
    events.sort();
    let mut out = Vec::new();
    let mut load = 0;
    for k in 0..events.len() {
        load += events[k].1;
        if let Some(next) = events.get(k + 1) {
            if next.0 > events[k].0 && load > 0 {
                out.push((events[k].0, next.0, load));
            }
        }
    }
    out
}
