//! A benchmark's own baselines: its "oracle" replayed on an instance ([`Baseline`],
//! `solve --method`), and files of its baseline plans read for `compare --baseline FILE`
//! ([`BaselineFile`]). A baseline's schedule is verified and never repaired: it is reported
//! `feasible` or `invalid`, never `optimal`.

use std::path::Path;

use makespan_model::instance::{Instance, LoadError};
use makespan_model::schedule::ScheduledActivity;
use makespan_model::solution::Solution;

/// A benchmark's own method of building a schedule (its "oracle"), replayed so its schedule
/// can be verified and compared with the proven optimum.
#[derive(Debug)]
pub struct Baseline {
    /// The name `solve --method` takes, e.g. `timearena-greedy`.
    pub name: &'static str,
    /// One line on what it is.
    pub about: &'static str,
    /// Runs it: status `feasible` (a valid schedule), `invalid` (the schedule breaks rules;
    /// `reason` names each) or `error` (it cannot run on this instance).
    pub run: fn(&Instance) -> Solution,
}

/// Baselines are one static each: the same one is the one of the same name.
impl PartialEq for Baseline {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for Baseline {}

impl Baseline {
    /// Runs the baseline on `instance`.
    pub fn solve(&self, instance: &Instance) -> Solution {
        (self.run)(instance)
    }
}

/// A reader of a file of a benchmark's baseline plans (`compare --baseline FILE`).
#[derive(Debug, Clone, Copy)]
pub struct BaselineFile {
    /// What the file is, for the error that lists the accepted ones.
    pub description: &'static str,
    /// Reads it.
    pub open: fn(&Path) -> Result<Box<dyn BaselinePlans>, LoadError>,
}

/// A benchmark's baseline plans, read from its file.
pub trait BaselinePlans {
    /// The plan's schedule for `instance`, or why the file has none.
    fn schedule(&self, instance: &Instance) -> Result<Vec<ScheduledActivity>, crate::BadValue>;
}
