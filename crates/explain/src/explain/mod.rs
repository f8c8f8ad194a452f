//! The explanation of one schedule: for every activity its earliest start with everything
//! else unchanged and the rule that stops it there, the critical chain, the unforced waits,
//! the agents' time, and the time lost against a reference. Definitions in the crate docs.

mod agents;
mod chain;
mod earliest;
mod lost;
mod reason;
mod text;

use makespan_model::instance::{Instance, TimeUnit};
use makespan_model::schedule::ScheduledActivity;
use makespan_verify::Violation;
use serde::Serialize;

pub use agents::AgentTime;
pub use chain::ChainStep;
pub use lost::{LostTime, OrderingChoice};
pub use reason::Reason;

use makespan_verify::placed::Placements;

/// Why a plan took as long as it did.
#[derive(Debug, Clone, Serialize)]
pub struct Explanation {
    /// The instance's name.
    pub instance: String,
    /// The unit of every time below.
    pub time_unit: TimeUnit,
    /// The latest end of any placed activity.
    pub makespan: i64,
    /// Whether the plan breaks no rule.
    pub valid: bool,
    /// The violations, in time order (those without a time last).
    pub violations: Vec<Violation>,
    /// Every placed activity: where it is, how much earlier it could start, and why not more.
    pub activities: Vec<ActivityTiming>,
    /// The critical chain from 0 to the makespan, in time order.
    pub chain: Vec<ChainStep>,
    /// Every unforced wait, in time order.
    pub waits: Vec<Wait>,
    /// Each agent's time (empty with unlimited agents).
    pub agents: Vec<AgentTime>,
    /// The time lost against the reference, when one is given.
    pub lost: Option<LostTime>,
    /// Against a reference that shares no activities with the plan (a simulated world's two
    /// plans): the loss and the reference's agents' time beside the plan's, since the loss
    /// cannot be split by activity.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub against: Option<Unshared>,
}

/// A reference that shares no activities with the plan, as the explanation compares it: the
/// two makespans and each agent's time in both.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unshared {
    /// The reference's makespan.
    pub reference: i64,
    /// Whether the reference is a proven optimum.
    pub optimal: bool,
    /// `makespan − reference` (negative when the plan is the shorter).
    pub lost: i64,
    /// The reference's agents' time, as [`Explanation::agents`] is the plan's.
    pub agents: Vec<AgentTime>,
}

impl Explanation {
    /// Adds the comparison with `reference`, a schedule of `instance` that shares no
    /// activities with the plan (see [`Explanation::against`]).
    pub fn compare_unshared(&mut self, instance: &Instance, reference: Reference<'_>) {
        let placed = Placements::new(instance, reference.schedule);
        self.against = Some(Unshared {
            reference: reference.makespan,
            optimal: reference.optimal,
            lost: self.makespan - reference.makespan,
            agents: agents::agent_times(&placed),
        });
    }
}

/// One placed activity.
#[derive(Debug, Clone, Serialize)]
pub struct ActivityTiming {
    /// Its id.
    pub activity: String,
    /// Its label, when the instance has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Its agent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent: Option<u32>,
    /// Its start (first piece).
    pub start: i64,
    /// Its end (last piece).
    pub end: i64,
    /// The earliest start with everything else unchanged.
    pub earliest: i64,
    /// `start − earliest`: the unforced wait (0: the activity is where a rule holds it).
    pub wait: i64,
    /// Every rule that forbids starting one unit before `earliest`, the instance's rules first.
    pub reasons: Vec<Reason>,
}

/// An unforced wait: the activity could have started `length` earlier with everything else
/// unchanged.
#[derive(Debug, Clone, Serialize)]
pub struct Wait {
    /// The activity.
    pub activity: String,
    /// Its earliest start.
    pub from: i64,
    /// Its start.
    pub to: i64,
    /// `to − from`.
    pub length: i64,
    /// Whether the wait lies on the critical chain.
    pub on_chain: bool,
}

/// A reference schedule to measure lost time against: an optimal solution, or any solution.
#[derive(Debug, Clone, Copy)]
pub struct Reference<'a> {
    /// Its schedule.
    pub schedule: &'a [ScheduledActivity],
    /// Its makespan (the latest end of its schedule, or what its solution file says).
    pub makespan: i64,
    /// Whether it is proven optimal (only changes the wording).
    pub optimal: bool,
}

/// Why an explanation cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExplainError {
    /// The reference does not place an activity of the plan's critical chain.
    #[error("the reference schedule does not place `{0}`, which lies on the plan's critical chain; give a complete solution of the same instance")]
    ReferenceLacks(String),
}

/// Explains `schedule` (any schedule, valid or not) of `instance`; `violations` are the
/// verifier's (or a benchmark checker's) findings, placed on the timeline as they are.
pub fn explain(
    instance: &Instance,
    schedule: &[ScheduledActivity],
    violations: &[Violation],
    reference: Option<Reference<'_>>,
) -> Result<Explanation, ExplainError> {
    let plan = Placements::new(instance, schedule);
    let earliest = earliest::earliest_starts(&plan);
    let chain = chain::critical_chain(&plan, &earliest);
    let activities: Vec<ActivityTiming> = plan
        .all
        .iter()
        .zip(&earliest)
        .map(|(p, e)| ActivityTiming {
            activity: p.id().to_string(),
            label: p.activity.label.clone(),
            agent: p.agent,
            start: p.start(),
            end: p.end(),
            earliest: e.earliest,
            wait: p.start() - e.earliest,
            reasons: e.binding.iter().map(|(r, _)| r.clone()).collect(),
        })
        .collect();
    let mut waits: Vec<Wait> = activities
        .iter()
        .filter(|a| a.wait > 0)
        .map(|a| Wait {
            activity: a.activity.clone(),
            from: a.earliest,
            to: a.start,
            length: a.wait,
            on_chain: chain.iter().any(|c| c.activity == a.activity),
        })
        .collect();
    waits.sort_by(|x, y| (x.from, &x.activity).cmp(&(y.from, &y.activity)));
    let lost = match reference {
        Some(r) => Some(lost::lost_time(&plan, &chain, r)?),
        None => None,
    };
    let mut violations = violations.to_vec();
    violations.sort_by_key(|v| (v.time.is_none(), v.time));
    Ok(Explanation {
        instance: instance.name.clone(),
        time_unit: instance.time_unit,
        makespan: plan.makespan(),
        valid: violations.is_empty(),
        violations,
        agents: agents::agent_times(&plan),
        activities,
        chain,
        waits,
        lost,
        against: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use makespan_model::instance::{Activity, AgentUse, Precedence};

    /// Chop (4) then sauce (6) on one cook, rice (9) on the other; the sauce starts 2 late.
    fn dinner() -> (Instance, Vec<ScheduledActivity>) {
        let instance = Instance {
            activities: vec![
                Activity::new("chop", 4),
                Activity::new("sauce", 6),
                Activity::new("rice", 9),
            ],
            precedences: vec![Precedence::finish_to_start("chop", "sauce", 0)],
            ..Instance::new("dinner", Some(2))
        };
        let schedule = vec![
            ScheduledActivity::at("chop", Some(0), 0, 4),
            ScheduledActivity::at("sauce", Some(0), 6, 6),
            ScheduledActivity::at("rice", Some(1), 0, 9),
        ];
        (instance, schedule)
    }

    #[test]
    fn a_wait_nothing_forced_is_on_the_chain_and_is_the_lost_time() {
        let (instance, plan) = dinner();
        let optimum = vec![
            ScheduledActivity::at("chop", Some(0), 0, 4),
            ScheduledActivity::at("sauce", Some(0), 4, 6),
            ScheduledActivity::at("rice", Some(1), 0, 9),
        ];
        let reference = Reference {
            schedule: &optimum,
            makespan: 10,
            optimal: true,
        };
        let e = explain(&instance, &plan, &[], Some(reference)).unwrap();
        assert_eq!(e.makespan, 12);
        let ids: Vec<&str> = e.chain.iter().map(|s| s.activity.as_str()).collect();
        assert_eq!(ids, ["chop", "sauce"]);
        assert_eq!(
            (e.chain[1].ready, e.chain[1].start, e.chain[1].wait()),
            (4, 6, 2)
        );
        assert_eq!(e.waits.len(), 1);
        assert!(e.waits[0].on_chain);
        let lost = e.lost.clone().unwrap();
        assert_eq!(
            (lost.lost, lost.waits, lost.ordering_total(), lost.rest),
            (2, 2, 0, 0)
        );
        assert!(e.render_text().contains("unforced wait 2"));
    }

    #[test]
    fn a_reference_that_shares_no_activities_is_compared_agent_by_agent() {
        let (instance, plan) = dinner();
        let mut e = explain(&instance, &plan, &[], None).unwrap();
        // Two activities of the reference's own: cook 0 busy 7, cook 1 busy 3, done at 7.
        let mut both = instance.clone();
        both.activities
            .extend([Activity::new("r: all", 7), Activity::new("r: rice", 3)]);
        let reference = vec![
            ScheduledActivity::at("r: all", Some(0), 0, 7),
            ScheduledActivity::at("r: rice", Some(1), 0, 3),
        ];
        e.compare_unshared(
            &both,
            Reference {
                schedule: &reference,
                makespan: 7,
                optimal: false,
            },
        );
        let against = e.against.clone().unwrap();
        assert_eq!((against.reference, against.lost), (7, 5));
        let busy: Vec<i64> = against.agents.iter().map(|a| a.busy).collect();
        assert_eq!(busy, [7, 3]);
        let text = e.render_text();
        assert!(
            text.contains("lost time against the reference 7: 5"),
            "{text}"
        );
        assert!(
            text.contains("agent 1: 9 / 3 / 0   (reference: 3 / 4 / 0)"),
            "{text}"
        );
    }

    #[test]
    fn the_agent_busy_with_another_activity_is_the_reason() {
        let (instance, mut plan) = dinner();
        // Rice on cook 0 after the sauce: it waits for the cook.
        plan[1] = ScheduledActivity::at("sauce", Some(0), 4, 6);
        plan[2] = ScheduledActivity::at("rice", Some(0), 10, 9);
        let e = explain(&instance, &plan, &[], None).unwrap();
        let rice = e.activities.iter().find(|a| a.activity == "rice").unwrap();
        assert_eq!(rice.wait, 0);
        assert_eq!(
            rice.reasons,
            [Reason::Agent {
                agent: Some(0),
                busy: vec!["sauce".into()]
            }]
        );
        assert_eq!(
            e.agents[1].idle_work_ready, 10,
            "cook 1 idles while the rice is ready"
        );
    }

    #[test]
    fn an_instant_may_not_pause_work_past_its_time_window() {
        // `knead` must run without a pause right after `mix`; `bake` only needs the cook at
        // its start, so starting it inside `knead` would pause `knead` past its window.
        let mut knead = Activity::new("knead", 4);
        knead.preemptible = true;
        let mut bake = Activity::new("bake", 3);
        bake.agent = AgentUse::StartInstant;
        let mut tight = Precedence::finish_to_start("mix", "knead", 0);
        tight.max_lag = Some(0);
        let instance = Instance {
            activities: vec![Activity::new("mix", 1), knead, bake],
            precedences: vec![tight],
            ..Instance::new("bread", Some(1))
        };
        let plan = vec![
            ScheduledActivity::at("mix", Some(0), 0, 1),
            ScheduledActivity::at("knead", Some(0), 1, 4),
            ScheduledActivity::at("bake", Some(0), 5, 3),
        ];
        let e = explain(&instance, &plan, &[], None).unwrap();
        let bake = e.activities.iter().find(|a| a.activity == "bake").unwrap();
        assert_eq!(bake.wait, 0, "{bake:?}");
        assert_eq!(
            bake.reasons,
            [Reason::Agent {
                agent: Some(0),
                busy: vec!["knead".into()]
            }]
        );
    }
}
