//! The verifier flags every mutation that breaks a rule: random small instances get a valid
//! schedule built here (everything in a row on agent 0, independent of the solver), which
//! must verify clean; then one rule is broken on purpose and must be reported by name.

use makespan::instance::{Activity, Instance, Precedence, Resource, ResourceUse};
use makespan::schedule::{Piece, ScheduledActivity};
use makespan::verify::{verify, Rule};
use proptest::prelude::*;

/// Activities `a0..an` with durations 1..=5, a random DAG of precedences (index order) with
/// lags 0..=3, 1–3 agents and a unary tool used by some of them.
fn instances() -> impl Strategy<Value = Instance> {
    (2usize..=6, 1u32..=3).prop_flat_map(|(n, agents)| {
        (
            proptest::collection::vec((1i64..=5, any::<bool>()), n),
            proptest::collection::vec((any::<bool>(), 0i64..=3), n * (n - 1) / 2),
        )
            .prop_map(move |(acts, edges)| {
                let activities = acts
                    .iter()
                    .enumerate()
                    .map(|(i, &(p, tool))| {
                        let mut a = Activity::new(format!("a{i}"), p);
                        if tool {
                            a.uses.push(ResourceUse {
                                resource: "tool".into(),
                                amount: 1,
                            });
                        }
                        a
                    })
                    .collect();
                let mut precedences = Vec::new();
                let mut k = 0;
                for i in 0..n {
                    for j in i + 1..n {
                        if edges[k].0 {
                            precedences.push(Precedence::finish_to_start(
                                format!("a{i}"),
                                format!("a{j}"),
                                edges[k].1,
                            ));
                        }
                        k += 1;
                    }
                }
                Instance {
                    resources: vec![Resource {
                        id: "tool".into(),
                        capacity: 1,
                        states: vec![],
                    }],
                    activities,
                    precedences,
                    ..Instance::new("mutations", Some(agents))
                }
            })
    })
}

/// Everything in index order on agent 0, each as early as its predecessors allow.
fn serial_schedule(instance: &Instance) -> Vec<ScheduledActivity> {
    let mut schedule: Vec<ScheduledActivity> = Vec::new();
    let mut free = 0;
    for a in &instance.activities {
        let ready = instance
            .precedences
            .iter()
            .filter(|p| p.after == a.id)
            .map(|p| {
                let before = schedule.iter().find(|s| s.activity == p.before).unwrap();
                before.end().unwrap() + p.min_lag
            })
            .max()
            .unwrap_or(0);
        let start = free.max(ready);
        free = start + a.duration;
        schedule.push(ScheduledActivity::at(
            a.id.clone(),
            Some(0),
            start,
            a.duration,
        ));
    }
    schedule
}

fn rules(instance: &Instance, schedule: &[ScheduledActivity]) -> Vec<Rule> {
    verify(instance, schedule)
        .violations
        .iter()
        .map(|v| v.rule)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn a_serial_schedule_is_valid(instance in instances()) {
        let schedule = serial_schedule(&instance);
        let report = verify(&instance, &schedule);
        prop_assert!(report.valid, "{}", report.render_text());
    }

    #[test]
    fn a_successor_shifted_before_its_predecessor_is_reported(instance in instances(), pick in any::<prop::sample::Index>()) {
        prop_assume!(!instance.precedences.is_empty());
        let p = pick.get(&instance.precedences);
        let mut schedule = serial_schedule(&instance);
        let end = schedule.iter().find(|s| s.activity == p.before).unwrap().end().unwrap();
        let after = schedule.iter_mut().find(|s| s.activity == p.after).unwrap();
        let length = after.pieces[0].end() - after.pieces[0].start();
        let start = end + p.min_lag - 1;
        prop_assume!(start >= 0);
        after.pieces = vec![Piece(start, start + length)];
        prop_assert!(rules(&instance, &schedule).contains(&Rule::PrecedenceViolated));
    }

    #[test]
    fn two_jobs_overlapping_on_one_agent_are_reported(instance in instances(), pick in any::<prop::sample::Index>()) {
        let mut schedule = serial_schedule(&instance);
        let k = 1 + pick.index(schedule.len() - 1);
        let start = schedule[k - 1].start().unwrap();
        let length = instance.activities[k].duration;
        schedule[k].pieces = vec![Piece(start, start + length)];
        prop_assert!(rules(&instance, &schedule).contains(&Rule::AgentDoubleBooked));
    }

    #[test]
    fn dropped_duplicated_unknown_and_split_activities_are_reported(instance in instances(), pick in any::<prop::sample::Index>()) {
        let schedule = serial_schedule(&instance);
        let k = pick.index(schedule.len());

        let mut dropped = schedule.clone();
        dropped.remove(k);
        prop_assert!(rules(&instance, &dropped).contains(&Rule::MissingActivity));

        let mut duplicated = schedule.clone();
        duplicated.push(schedule[k].clone());
        prop_assert!(rules(&instance, &duplicated).contains(&Rule::DuplicateActivity));

        let mut unknown = schedule.clone();
        unknown[k].activity = "ghost".into();
        let found = rules(&instance, &unknown);
        prop_assert!(found.contains(&Rule::UnknownActivity) && found.contains(&Rule::MissingActivity));

        let mut too_many = schedule.clone();
        too_many[k].agent = instance.agents;
        prop_assert!(rules(&instance, &too_many).contains(&Rule::TooManyAgents));

        let (s, e) = (schedule[k].start().unwrap(), schedule[k].end().unwrap());
        prop_assume!(e - s >= 2);
        let mut split = schedule.clone();
        split[k].pieces = vec![Piece(s, s + 1), Piece(s + 1, e)];
        prop_assert!(rules(&instance, &split).contains(&Rule::NotPreemptible));
    }

    #[test]
    fn two_tool_users_at_once_overload_the_tool(instance in instances()) {
        let users: Vec<usize> = (0..instance.activities.len())
            .filter(|&j| !instance.activities[j].uses.is_empty())
            .collect();
        prop_assume!(users.len() >= 2);
        let mut schedule = serial_schedule(&instance);
        let (a, b) = (users[0], users[1]);
        let start = schedule[a].start().unwrap();
        schedule[b].pieces = vec![Piece(start, start + instance.activities[b].duration)];
        schedule[b].agent = Some(instance.agents.unwrap() - 1);
        prop_assert!(rules(&instance, &schedule).contains(&Rule::ResourceOverCapacity));
    }
}
