//! Agents: each does one thing at a time, only agents that exist are used, and plans that
//! leave agents unassigned never need more agents at once than there are.
//!
//! What an activity asks of its agent (see [`Placed::busy`] and [`Placed::instant`]):
//! `whole` keeps it busy over every piece, `busy_for: k` over the first `k` units, `none`
//! not at all; `start` (and a zero-duration `whole` milestone) needs it at the start
//! instant only, and may not start strictly inside a busy interval of a non-preemptible
//! activity on the same agent, since a preemptible one can pause for zero time.

use std::collections::BTreeMap;

use makespan_model::schedule::Piece;

use crate::placed::{Placed, Placements};
use crate::{Rule, Violation};

/// Agent indices at or beyond the instance's `m` agents; one violation per index, naming
/// every activity given to it.
pub fn out_of_range(placements: &Placements, out: &mut Vec<Violation>) {
    let Some(m) = placements.instance.agents else {
        return;
    };
    let mut by_agent: BTreeMap<u32, Vec<&Placed>> = BTreeMap::new();
    for p in &placements.all {
        if let Some(a) = p.agent.filter(|&a| a >= m) {
            by_agent.entry(a).or_default().push(p);
        }
    }
    for (agent, list) in by_agent {
        let ids: Vec<String> = list.iter().map(|p| p.id().to_string()).collect();
        let named = ids
            .iter()
            .map(|id| format!("`{id}`"))
            .collect::<Vec<_>>()
            .join(", ");
        out.push(Violation::new(
            Rule::TooManyAgents,
            ids,
            list.iter().map(|p| p.start()).min(),
            format!(
                "the plan uses agent {agent}, but the instance has {m} agent{} ({}); agent {agent} runs {named}",
                plural(m),
                agent_range(m)
            ),
            format!("give {named} to agents {}", agent_range(m)),
        ));
    }
}

/// Two overlapping busy intervals and the placements they belong to, earlier first.
type Clash = (Piece, usize, Piece, usize);

/// Every pair of activities that keep one agent busy at the same time (each pair once, at
/// the first instant they overlap), and every instant need that falls strictly inside a
/// non-preemptible busy interval of the same agent.
pub fn double_booked(placements: &Placements, out: &mut Vec<Violation>) {
    let mut busy: BTreeMap<u32, Vec<(Piece, usize)>> = BTreeMap::new();
    for (i, p) in placements.all.iter().enumerate() {
        if let Some(agent) = p.agent {
            busy.entry(agent)
                .or_default()
                .extend(p.busy().into_iter().map(|b| (b, i)));
        }
    }
    // Each pair of activities once, at the first overlap found; `first` starts no later.
    let mut clashes: BTreeMap<(u32, usize, usize), Clash> = BTreeMap::new();
    for (&agent, list) in busy.iter_mut() {
        list.sort();
        for (x, &(first, i)) in list.iter().enumerate() {
            for &(second, j) in list[x + 1..]
                .iter()
                .take_while(|(b, _)| b.start() < first.end())
            {
                if i != j {
                    clashes
                        .entry((agent, i.min(j), i.max(j)))
                        .or_insert((first, i, second, j));
                }
            }
        }
    }
    let mut found = Vec::new();
    for ((agent, _, _), (first, i, second, j)) in clashes {
        let (earlier, later) = (placements.all[i].id(), placements.all[j].id());
        found.push(Violation::new(
            Rule::AgentDoubleBooked,
            vec![later.to_string(), earlier.to_string()],
            Some(second.start()),
            format!(
                "agent {agent} is busy with `{earlier}` over {} and with `{later}` over {} at the same time",
                span(first),
                span(second)
            ),
            format!("start `{later}` at {} or later, or give it another agent", first.end()),
        ));
    }
    for p in &placements.all {
        let (Some(agent), Some(t)) = (p.agent, p.instant()) else {
            continue;
        };
        for other in placements
            .all
            .iter()
            .filter(|o| o.agent == Some(agent) && o.id() != p.id())
        {
            for b in other
                .blocking()
                .into_iter()
                .filter(|b| b.start() < t && t < b.end())
            {
                found.push(Violation::new(
                    Rule::AgentDoubleBooked,
                    vec![p.id().to_string(), other.id().to_string()],
                    Some(t),
                    format!(
                        "agent {agent} must start `{}` at {t}, but it is busy with `{}` over {}, which cannot be interrupted",
                        p.id(),
                        other.id(),
                        span(b)
                    ),
                    format!(
                        "start `{}` at {} or later (or at {} or earlier), or give it another agent",
                        p.id(),
                        b.end(),
                        b.start()
                    ),
                ));
            }
        }
    }
    found.sort_by_key(|v| v.time);
    out.extend(found);
}

/// With limited agents and unassigned activities, the plan is checked as if the agents
/// were one pool: at no instant may more than `m` activities keep an agent busy, and an
/// unassigned instant need must find an agent that non-preemptible work does not hold.
/// Identical agents can then always be assigned (interval graphs are perfect).
pub fn pool_capacity(placements: &Placements, out: &mut Vec<Violation>) {
    let Some(m) = placements.instance.agents else {
        return;
    };
    if !placements.pooled() {
        return;
    }
    // (time, +1 start / −1 end, placement): ends sort before starts at the same instant.
    let mut events: Vec<(i64, i8, usize)> = Vec::new();
    for (i, p) in placements.all.iter().enumerate() {
        for b in p.busy() {
            events.push((b.start(), 1, i));
            events.push((b.end(), -1, i));
        }
    }
    events.sort();
    let mut running: BTreeMap<usize, usize> = BTreeMap::new();
    let mut k = 0;
    while k < events.len() {
        let t = events[k].0;
        let mut starters = Vec::new();
        while k < events.len() && events[k].0 == t {
            let (_, delta, i) = events[k];
            if delta > 0 {
                *running.entry(i).or_default() += 1;
                starters.push(i);
            } else if let Some(n) = running.get_mut(&i) {
                *n -= 1;
                if *n == 0 {
                    running.remove(&i);
                }
            }
            k += 1;
        }
        let busy: usize = running.values().sum();
        if !starters.is_empty() && busy > m as usize {
            let id = |&i: &usize| placements.all[i].id().to_string();
            let others: Vec<usize> = running
                .keys()
                .copied()
                .filter(|i| !starters.contains(i))
                .collect();
            let late: Vec<String> = starters.iter().map(id).collect();
            let mut activities = late.clone();
            activities.extend(others.iter().map(id));
            let free_at = others
                .iter()
                .flat_map(|&i| placements.all[i].busy())
                .filter(|b| b.start() <= t && t < b.end())
                .map(|b| b.end())
                .min();
            out.push(Violation::new(
                Rule::TooManyAgents,
                activities.clone(),
                Some(t),
                format!(
                    "{busy} activities keep an agent busy at {t}, but the instance has {m} agent{}: {}",
                    plural(m),
                    quoted(&activities)
                ),
                match free_at {
                    Some(f) => format!("start {} at {f} or later, when an agent becomes free", quoted(&late)),
                    None => format!("start {} later, when an agent is free", quoted(&late)),
                },
            ));
        }
    }
    for p in placements.needing_agent().filter(|p| p.agent.is_none()) {
        let Some(t) = p.instant() else { continue };
        let holding: Vec<(&Placed, Piece)> = placements
            .needing_agent()
            .filter(|o| o.id() != p.id())
            .flat_map(|o| o.blocking().into_iter().map(move |b| (o, b)))
            .filter(|(_, b)| b.start() < t && t < b.end())
            .collect();
        if holding.len() >= m as usize {
            let names: Vec<String> = holding.iter().map(|(o, _)| o.id().to_string()).collect();
            let free = holding.iter().map(|(_, b)| b.end()).min().unwrap_or(t);
            let mut activities = vec![p.id().to_string()];
            activities.extend(names.iter().cloned());
            out.push(Violation::new(
                Rule::TooManyAgents,
                activities,
                Some(t),
                format!(
                    "`{}` needs an agent at {t}, but all {m} agent{} are busy then with work that cannot be interrupted: {}",
                    p.id(),
                    plural(m),
                    quoted(&names)
                ),
                format!("start `{}` at {free} or later, when an agent becomes free", p.id()),
            ));
        }
    }
}

/// Where the pool check cannot be exact, a missing agent is a violation: a plan that names
/// agents for some activities must name them for all (an unassigned activity might fit
/// no named agent's gaps, and deciding that is a colouring search, not a check), and with
/// setup times an agent's sequence matters, so activities at stations need their agent.
pub fn missing(placements: &Placements, out: &mut Vec<Violation>) {
    let Some(m) = placements.instance.agents else {
        return;
    };
    let needing: Vec<&Placed> = placements.needing_agent().collect();
    let mixed = needing.iter().any(|p| p.agent.is_some());
    let setups = !placements.instance.setups.is_empty();
    for p in needing.iter().filter(|p| p.agent.is_none()) {
        let (why, hint) = if mixed {
            (
                "the plan names agents for other activities but not for it".to_string(),
                format!(
                    "give `{}` one of agents {}, or name no agent at all",
                    p.id(),
                    agent_range(m)
                ),
            )
        } else if let Some(station) = p.activity.station.as_deref().filter(|_| setups) {
            (
                format!("it happens at station `{station}` and setup times depend on each agent's sequence"),
                format!("give `{}` one of agents {}", p.id(), agent_range(m)),
            )
        } else {
            continue;
        };
        out.push(Violation::new(
            Rule::AgentMissing,
            vec![p.id().to_string()],
            Some(p.start()),
            format!("`{}` needs an agent but the plan names none: {why}", p.id()),
            hint,
        ));
    }
}

fn span(p: Piece) -> String {
    format!("[{}, {})", p.start(), p.end())
}

fn plural(n: u32) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn agent_range(m: u32) -> String {
    match m {
        0 => "(none)".to_string(),
        1 => "0".to_string(),
        _ => format!("0..{}", m - 1),
    }
}

fn quoted(ids: &[String]) -> String {
    ids.iter()
        .map(|id| format!("`{id}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use crate::testkit::{assert_valid, at, instance, pieces, rules};
    use crate::{verify, Rule};
    use makespan_model::instance::{AgentUse, Setup};

    #[test]
    fn verify_reports_every_overlap_not_just_the_first() {
        let inst = instance(Some(2), &[("a", 10), ("b", 3), ("c", 3), ("d", 3)], &[]);
        // b, c and d all overlap a on agent 0; c also overlaps b.
        let plan = [
            at("a", Some(0), 0, 10),
            at("b", Some(0), 1, 3),
            at("c", Some(0), 2, 3),
            at("d", Some(0), 7, 3),
        ];
        let report = verify(&inst, &plan);
        let pairs: Vec<(String, String)> = report
            .violations
            .iter()
            .map(|v| {
                assert_eq!(v.rule, Rule::AgentDoubleBooked);
                (v.activities[0].clone(), v.activities[1].clone())
            })
            .collect();
        assert_eq!(
            pairs,
            [("b", "a"), ("c", "a"), ("c", "b"), ("d", "a")]
                .map(|(x, y)| (x.to_string(), y.to_string())),
            "{}",
            report.render_text()
        );
    }

    #[test]
    fn touching_intervals_on_one_agent_are_fine() {
        let inst = instance(Some(1), &[("a", 2), ("b", 3)], &[]);
        assert_valid(&inst, &[at("a", Some(0), 0, 2), at("b", Some(0), 2, 3)]);
    }

    #[test]
    fn double_booking_hint_says_when_the_agent_is_free() {
        let inst = instance(Some(1), &[("a", 4), ("b", 3)], &[]);
        let report = verify(&inst, &[at("a", None, 0, 4), at("b", None, 2, 3)]);
        assert_eq!(report.violations.len(), 1);
        let v = &report.violations[0];
        assert_eq!((v.rule, v.time), (Rule::AgentDoubleBooked, Some(2)));
        assert_eq!(v.hint, "start `b` at 4 or later, or give it another agent");
    }

    #[test]
    fn busy_for_frees_the_agent_after_k_units() {
        let mut inst = instance(Some(1), &[("fry", 5), ("chop", 3)], &[]);
        inst.activities[0].agent = AgentUse::BusyFor(1);
        assert_valid(&inst, &[at("fry", None, 0, 5), at("chop", None, 1, 3)]);
        assert_eq!(
            rules(&inst, &[at("fry", None, 0, 5), at("chop", None, 0, 3)]),
            [Rule::AgentDoubleBooked]
        );
    }

    #[test]
    fn agent_use_none_never_books_an_agent() {
        let mut inst = instance(Some(1), &[("bake", 30), ("chop", 3)], &[]);
        inst.activities[0].agent = AgentUse::None;
        assert_valid(&inst, &[at("bake", None, 0, 30), at("chop", Some(0), 1, 3)]);
    }

    #[test]
    fn instant_start_inside_non_preemptible_work_of_the_same_agent_is_double_booking() {
        let mut inst = instance(Some(1), &[("stir", 4), ("boil", 10)], &[]);
        inst.activities[1].agent = AgentUse::StartInstant;
        assert_valid(&inst, &[at("stir", None, 0, 4), at("boil", None, 4, 10)]);
        assert_valid(&inst, &[at("stir", None, 0, 4), at("boil", None, 0, 10)]);
        assert_eq!(
            rules(&inst, &[at("stir", None, 0, 4), at("boil", None, 2, 10)]),
            [Rule::AgentDoubleBooked]
        );
        // A preemptible activity pauses for zero time instead.
        inst.activities[0].preemptible = true;
        assert_valid(&inst, &[at("stir", None, 0, 4), at("boil", None, 2, 10)]);
    }

    #[test]
    fn agent_index_beyond_the_instance_is_reported_once_per_agent() {
        let inst = instance(Some(2), &[("a", 1), ("b", 1), ("c", 1)], &[]);
        let report = verify(
            &inst,
            &[
                at("a", Some(0), 0, 1),
                at("b", Some(2), 0, 1),
                at("c", Some(2), 1, 1),
            ],
        );
        assert_eq!(report.violations.len(), 1, "{}", report.render_text());
        assert_eq!(report.violations[0].rule, Rule::TooManyAgents);
        assert_eq!(report.violations[0].activities, ["b", "c"]);
    }

    #[test]
    fn unassigned_plans_are_checked_as_an_agent_pool() {
        let inst = instance(Some(2), &[("a", 4), ("b", 4), ("c", 4)], &[]);
        assert_valid(
            &inst,
            &[
                at("a", None, 0, 4),
                at("b", None, 0, 4),
                at("c", None, 4, 4),
            ],
        );
        let report = verify(
            &inst,
            &[
                at("a", None, 0, 4),
                at("b", None, 0, 4),
                at("c", None, 3, 4),
            ],
        );
        assert_eq!(report.violations.len(), 1, "{}", report.render_text());
        let v = &report.violations[0];
        assert_eq!((v.rule, v.time), (Rule::TooManyAgents, Some(3)));
        assert_eq!(
            v.hint,
            "start `c` at 4 or later, when an agent becomes free"
        );
    }

    #[test]
    fn unassigned_instant_needs_a_free_agent_in_the_pool() {
        let mut inst = instance(Some(2), &[("a", 4), ("b", 4), ("go", 1)], &[]);
        inst.activities[2].agent = AgentUse::StartInstant;
        assert_valid(
            &inst,
            &[
                at("a", None, 0, 4),
                at("b", None, 1, 4),
                at("go", None, 4, 1),
            ],
        );
        assert_eq!(
            rules(
                &inst,
                &[
                    at("a", None, 0, 4),
                    at("b", None, 1, 4),
                    at("go", None, 2, 1)
                ]
            ),
            [Rule::TooManyAgents]
        );
    }

    #[test]
    fn unlimited_agents_need_no_indices() {
        let inst = instance(None, &[("a", 4), ("b", 4), ("c", 4)], &[]);
        assert_valid(
            &inst,
            &[
                at("a", None, 0, 4),
                at("b", None, 0, 4),
                at("c", Some(7), 0, 4),
            ],
        );
    }

    #[test]
    fn a_plan_naming_some_agents_must_name_all() {
        let inst = instance(Some(2), &[("a", 4), ("b", 4)], &[]);
        assert_eq!(
            rules(&inst, &[at("a", Some(0), 0, 4), at("b", None, 0, 4)]),
            [Rule::AgentMissing]
        );
    }

    #[test]
    fn setups_need_named_agents() {
        let mut inst = instance(Some(2), &[("a", 4), ("b", 4)], &[]);
        inst.activities[0].station = Some("board".into());
        inst.activities[1].station = Some("sink".into());
        inst.setups.push(Setup {
            from: "board".into(),
            to: "sink".into(),
            time: 2,
        });
        assert_eq!(
            rules(&inst, &[at("a", None, 0, 4), at("b", None, 0, 4)]),
            [Rule::AgentMissing, Rule::AgentMissing]
        );
    }

    #[test]
    fn preemptible_pieces_on_one_agent_may_interleave() {
        let mut inst = instance(Some(1), &[("a", 4), ("b", 2)], &[]);
        inst.activities[0].preemptible = true;
        assert_valid(
            &inst,
            &[pieces("a", None, &[(0, 2), (4, 6)]), at("b", None, 2, 2)],
        );
    }
}
