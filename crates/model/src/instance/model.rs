//! The unified instance model (`makespan-instance/1`): the one type every importer produces
//! and every solver and the verifier consume. Benchmark rules live here as data, never as
//! special cases in a solver.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

/// The format tag every unified instance file carries; readers reject any other value so a
/// future incompatible version can never be misread.
pub const INSTANCE_FORMAT: &str = "makespan-instance/1";

/// A scheduling instance: what must be done, by whom, with what, in which order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Instance {
    /// Always [`INSTANCE_FORMAT`].
    pub format: String,
    /// Unique name; solution files are named after it.
    pub name: String,
    /// What one integer time unit means (only for display and native export).
    #[serde(default)]
    pub time_unit: TimeUnit,
    /// Number of identical agents; `None` (JSON `null`) means unlimited.
    pub agents: Option<u32>,
    /// Renewable resources (objects, appliances, pools, machines).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<Resource>,
    /// The activities to schedule; each appears exactly once in a complete schedule.
    pub activities: Vec<Activity>,
    /// Temporal constraints between activities, with min and max lags.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub precedences: Vec<Precedence>,
    /// Sequence-dependent setup times between activities on one agent (travel between
    /// stations). The solver supports them with one agent (or unlimited agents, where they
    /// never bind) when they obey the triangle inequality.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub setups: Vec<Setup>,
    /// Resources held across activities: an item that sits on a station from the step that
    /// puts it there until the step that picks it up, whatever happens between.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub holds: Vec<Hold>,
    /// What is optimised (the makespan).
    #[serde(default)]
    pub objective: Objective,
    /// Where the instance came from (benchmark, file, variant); informative only, but part
    /// of the content hash so two variants of one file never share a solution.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
}

impl Instance {
    /// An empty instance with the given name and agents (`None` = unlimited); fill in
    /// activities, resources and precedences with struct-update syntax.
    pub fn new(name: impl Into<String>, agents: Option<u32>) -> Self {
        Instance {
            format: INSTANCE_FORMAT.into(),
            name: name.into(),
            time_unit: TimeUnit::default(),
            agents,
            resources: Vec::new(),
            activities: Vec::new(),
            precedences: Vec::new(),
            setups: Vec::new(),
            holds: Vec::new(),
            objective: Objective::default(),
            source: None,
        }
    }
}

/// The unit of every integer time in an instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TimeUnit {
    /// One unit is a second.
    Second,
    /// One unit is a minute.
    Minute,
    /// One unit is an abstract step (the default).
    #[default]
    Step,
}

impl fmt::Display for TimeUnit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TimeUnit::Second => "second",
            TimeUnit::Minute => "minute",
            TimeUnit::Step => "step",
        })
    }
}

impl TimeUnit {
    /// A time in this unit as people read it, for tables meant for them: seconds as
    /// `HH:MM:SS`, the clock cooks and recipes read (5520 s is 01:32:00, where 5520 says
    /// little), other units as the number. Files for programs keep the number.
    pub fn show(self, value: i64) -> String {
        match self {
            TimeUnit::Second => {
                let sign = if value < 0 { "-" } else { "" };
                let s = value.unsigned_abs();
                format!("{sign}{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
            }
            TimeUnit::Minute | TimeUnit::Step => value.to_string(),
        }
    }
}

/// What is optimised. Only the makespan for now; the enum leaves room for more.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Objective {
    /// Minimise the makespan: the latest end of any activity.
    #[default]
    Makespan,
}

/// Provenance of an imported instance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// Benchmark name, as the registry knows it.
    pub benchmark: String,
    /// The native file the instance was read from, as given on the command line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Free-form notes on the variant (agent count, lo/hi durations, known data errors).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub notes: BTreeMap<String, serde_json::Value>,
}

/// A renewable resource: at most `capacity` units in use at any instant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Resource {
    /// Unique id, referred to by activities' `uses`, holds and `resource.state` keys.
    pub id: String,
    /// Units available at any instant (default 1).
    #[serde(default = "one")]
    pub capacity: u32,
    /// Names of state variables (e.g. `temperature`) that activities set or require.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub states: Vec<String>,
}

fn one() -> u32 {
    1
}

/// One thing to do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Activity {
    /// Unique id, referred to by precedences, holds and schedules.
    pub id: String,
    /// Processing time in time units; zero is allowed (milestones such as "Enjoy!").
    pub duration: i64,
    /// How the activity occupies an agent; default: for its whole duration.
    #[serde(default, skip_serializing_if = "AgentUse::is_whole")]
    pub agent: AgentUse,
    /// May be split into pieces of whole time units.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub preemptible: bool,
    /// Resources held for the whole duration (every piece, if preemptible).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uses: Vec<ResourceUse>,
    /// State values this activity sets at its start, keyed `resource.state`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sets: BTreeMap<String, serde_json::Value>,
    /// State values that must hold at its start, keyed `resource.state`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub requires: BTreeMap<String, serde_json::Value>,
    /// Earliest start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub release: Option<i64>,
    /// Latest end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<i64>,
    /// Station where the activity happens, for sequence-dependent setups.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub station: Option<String>,
    /// Human-readable text from the benchmark (step text, action string).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

impl Activity {
    /// An activity with the given id and duration and every other field at its default.
    pub fn new(id: impl Into<String>, duration: i64) -> Self {
        Activity {
            id: id.into(),
            duration,
            agent: AgentUse::Whole,
            preemptible: false,
            uses: Vec::new(),
            sets: BTreeMap::new(),
            requires: BTreeMap::new(),
            release: None,
            deadline: None,
            station: None,
            label: None,
        }
    }
}

/// How an activity uses an agent.
///
/// JSON: `"whole"` (default), `"none"`, `"start"` (needs the agent at its start instant
/// only: steps that run on their own once started), or `{"busy_for": k}` (busy for the
/// first `k` units, then the process runs alone).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AgentUse {
    /// The agent is busy over every piece of the activity (JSON `"whole"`, the default).
    #[default]
    Whole,
    /// The agent is busy for the first `k` units of processing, then the process runs
    /// alone (JSON `{"busy_for": k}`).
    BusyFor(i64),
    /// The agent is needed at the start instant only (JSON `"start"`).
    StartInstant,
    /// No agent is needed (JSON `"none"`).
    None,
}

impl AgentUse {
    fn is_whole(&self) -> bool {
        matches!(self, AgentUse::Whole)
    }

    /// The span `[start + from, start + to)` during which the agent is busy, for an activity
    /// of the given duration; `None` when the agent is not occupied for any positive time.
    pub fn busy_span(&self, duration: i64) -> Option<(i64, i64)> {
        match *self {
            AgentUse::Whole if duration > 0 => Some((0, duration)),
            AgentUse::BusyFor(k) if k > 0 && duration > 0 => Some((0, k.min(duration))),
            _ => None,
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum AgentUseRepr {
    Word(String),
    BusyFor { busy_for: i64 },
}

impl Serialize for AgentUse {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let repr = match *self {
            AgentUse::Whole => AgentUseRepr::Word("whole".into()),
            AgentUse::None => AgentUseRepr::Word("none".into()),
            AgentUse::StartInstant => AgentUseRepr::Word("start".into()),
            AgentUse::BusyFor(k) => AgentUseRepr::BusyFor { busy_for: k },
        };
        repr.serialize(s)
    }
}

impl<'de> Deserialize<'de> for AgentUse {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        match AgentUseRepr::deserialize(d).map_err(|_| {
            D::Error::custom(r#"agent must be "whole", "none", "start" or {"busy_for": k}"#)
        })? {
            AgentUseRepr::Word(w) => match w.as_str() {
                "whole" => Ok(AgentUse::Whole),
                "none" => Ok(AgentUse::None),
                "start" => Ok(AgentUse::StartInstant),
                other => Err(D::Error::custom(format!(
                    r#"unknown agent use "{other}": expected "whole", "none", "start" or {{"busy_for": k}}"#
                ))),
            },
            AgentUseRepr::BusyFor { busy_for } => Ok(AgentUse::BusyFor(busy_for)),
        }
    }
}

/// `amount` units of a resource, held for the activity's whole duration.
///
/// JSON: `"oven"` (one unit) or `{"resource": "pot", "amount": 2}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceUse {
    /// Id of the [`Resource`] used.
    pub resource: String,
    /// Units held (1 when the JSON gives only the id).
    pub amount: u32,
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum ResourceUseRepr {
    Id(String),
    Full {
        resource: String,
        #[serde(default = "one")]
        amount: u32,
    },
}

impl Serialize for ResourceUse {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.amount == 1 {
            ResourceUseRepr::Id(self.resource.clone()).serialize(s)
        } else {
            ResourceUseRepr::Full {
                resource: self.resource.clone(),
                amount: self.amount,
            }
            .serialize(s)
        }
    }
}

impl<'de> Deserialize<'de> for ResourceUse {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        match ResourceUseRepr::deserialize(d).map_err(|_| {
            D::Error::custom(
                r#"a resource use must be a resource id or {"resource": id, "amount": n} with n ≥ 0"#,
            )
        })? {
            ResourceUseRepr::Id(resource) => Ok(ResourceUse {
                resource,
                amount: 1,
            }),
            ResourceUseRepr::Full { resource, amount } => Ok(ResourceUse { resource, amount }),
        }
    }
}

/// Which event of `before` the lags are measured from; `after` is always constrained at its
/// start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Relation {
    /// `start(after) ≥ end(before) + min_lag` (and `≤ end(before) + max_lag`).
    #[default]
    FinishToStart,
    /// `start(after) ≥ start(before) + min_lag` (and `≤ start(before) + max_lag`).
    StartToStart,
}

impl Relation {
    fn is_default(&self) -> bool {
        *self == Relation::FinishToStart
    }
}

/// A temporal constraint between two activities.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Precedence {
    /// Id of the predecessor, the activity the lags are measured from.
    pub before: String,
    /// Id of the successor, constrained at its start.
    pub after: String,
    /// Which event of `before` the lags count from (default: its finish).
    #[serde(default, skip_serializing_if = "Relation::is_default")]
    pub relation: Relation,
    /// Minimum lag; may be negative for generalised precedences.
    #[serde(default)]
    pub min_lag: i64,
    /// Maximum lag (a time window), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_lag: Option<i64>,
}

impl Precedence {
    /// A finish-to-start precedence with the given minimum lag and no maximum.
    pub fn finish_to_start(
        before: impl Into<String>,
        after: impl Into<String>,
        min_lag: i64,
    ) -> Self {
        Precedence {
            before: before.into(),
            after: after.into(),
            relation: Relation::FinishToStart,
            min_lag,
            max_lag: None,
        }
    }

    /// The offset from `before`'s start that `min_lag`/`max_lag` are measured from.
    pub fn anchor(&self, before_duration: i64) -> i64 {
        match self.relation {
            Relation::FinishToStart => before_duration,
            Relation::StartToStart => 0,
        }
    }
}

/// Setup time an agent needs between an activity at station `from` and one at station `to`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// Station of the earlier activity.
    pub from: String,
    /// Station of the later activity.
    pub to: String,
    /// Time units the agent needs between the two.
    pub time: i64,
}

/// `amount` units of `resource` held from the start of activity `from` (time 0 when absent)
/// to the end of activity `until` (the end of the schedule when absent). Unlike
/// [`Activity::uses`], the span is decided by two activities, so it covers whatever the agents
/// do in between: the item on the board between its `put` and its `pick`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hold {
    /// Id of the [`Resource`] held.
    pub resource: String,
    /// Units held (default 1).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub amount: u32,
    /// Activity whose start begins the hold; `None`: from time 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Activity whose end ends the hold; `None`: until the end of the schedule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<String>,
}

fn is_one(v: &u32) -> bool {
    *v == 1
}
