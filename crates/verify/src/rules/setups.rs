//! Sequence-dependent setups: an agent that finishes busy work at station `a` needs the
//! setup time `a → b` (0 when none is listed) before its next busy work at station `b`.
//! Consecutive busy intervals of the same activity, overlapping intervals (already a
//! double booking) and activities without a station are not constrained.

use std::collections::{BTreeMap, HashMap};

use makespan_model::schedule::Piece;

use crate::placed::Placements;
use crate::{Rule, Violation};

/// Gaps shorter than the setup time between consecutive busy intervals of one agent.
pub fn setups(placements: &Placements, out: &mut Vec<Violation>) {
    let instance = placements.instance;
    if instance.setups.is_empty() {
        return;
    }
    let mut times: HashMap<(&str, &str), i64> = HashMap::new();
    for s in &instance.setups {
        let t = times
            .entry((s.from.as_str(), s.to.as_str()))
            .or_insert(s.time);
        *t = (*t).max(s.time);
    }
    let mut by_agent: BTreeMap<u32, Vec<(Piece, usize)>> = BTreeMap::new();
    for (i, p) in placements.all.iter().enumerate() {
        if let Some(agent) = p.agent {
            by_agent
                .entry(agent)
                .or_default()
                .extend(p.busy().into_iter().map(|b| (b, i)));
        }
    }
    for (agent, mut list) in by_agent {
        list.sort();
        for w in list.windows(2) {
            let ((first, i), (next, j)) = (w[0], w[1]);
            let (a, b) = (&placements.all[i], &placements.all[j]);
            let (Some(from), Some(to)) =
                (a.activity.station.as_deref(), b.activity.station.as_deref())
            else {
                continue;
            };
            let gap = next.start().saturating_sub(first.end());
            let need = times.get(&(from, to)).copied().unwrap_or(0);
            if i == j || gap < 0 || gap >= need {
                continue;
            }
            let ready = first.end().saturating_add(need);
            out.push(Violation::new(
                Rule::SetupViolated,
                vec![b.id().to_string(), a.id().to_string()],
                Some(next.start()),
                format!(
                    "agent {agent} ends `{}` at `{from}` at {} and starts `{}` at `{to}` at {}, but moving `{from}` → `{to}` takes {need}",
                    a.id(),
                    first.end(),
                    b.id(),
                    next.start()
                ),
                format!("start `{}` at {ready} or later", b.id()),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::{assert_valid, at, instance, rules};
    use crate::Rule;
    use makespan_model::instance::{Instance, Setup};

    fn kitchen() -> Instance {
        let mut inst = instance(Some(2), &[("chop", 2), ("wash", 2), ("cut", 1)], &[]);
        for (a, st) in inst.activities.iter_mut().zip(["board", "sink", "board"]) {
            a.station = Some(st.into());
        }
        inst.setups.push(Setup {
            from: "board".into(),
            to: "sink".into(),
            time: 3,
        });
        inst
    }

    #[test]
    fn enough_travel_time_is_clean() {
        let inst = kitchen();
        assert_valid(
            &inst,
            &[
                at("chop", Some(0), 0, 2),
                at("wash", Some(0), 5, 2),
                at("cut", Some(1), 0, 1),
            ],
        );
        // No setup listed for sink → board: 0.
        assert_valid(
            &inst,
            &[
                at("wash", Some(0), 0, 2),
                at("cut", Some(0), 2, 1),
                at("chop", Some(1), 0, 2),
            ],
        );
    }

    #[test]
    fn too_short_a_gap_is_reported() {
        let inst = kitchen();
        let plan = [
            at("chop", Some(0), 0, 2),
            at("wash", Some(0), 4, 2),
            at("cut", Some(1), 0, 1),
        ];
        assert_eq!(rules(&inst, &plan), [Rule::SetupViolated]);
    }

    #[test]
    fn setups_apply_per_agent_only() {
        let inst = kitchen();
        assert_valid(
            &inst,
            &[
                at("chop", Some(0), 0, 2),
                at("wash", Some(1), 2, 2),
                at("cut", Some(0), 2, 1),
            ],
        );
    }
}
