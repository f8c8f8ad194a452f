//! Job shop files in the kobe-scheduling `.jss` format (Fisher & Thompson `ft*`, Lawrence
//! `la*`, …): `#` comment lines, a line `n_jobs n_machines`, then one line per job with
//! `machine duration` pairs in route order, machines 0-based.
//!
//! Each job is a chain of finish-to-start precedences; each machine is a resource of
//! capacity 1 that its operations hold for their whole duration. Operations are named
//! `j<job>o<k>` (both 0-based, as in the file), machines `m<machine>`, instances
//! `jobshop-<file stem>` (the classic names are unique).

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use super::classic;
use super::line_fields::Reader;
use makespan_model::instance::{Activity, Instance, LoadError, Precedence, Resource, ResourceUse};

/// `source.benchmark` of every job shop instance.
pub const BENCHMARK: &str = "jobshop";

/// Reads one `.jss` file into one instance.
pub fn import(path: &Path, text: &str) -> Result<Vec<Instance>, LoadError> {
    let mut r = Reader::new(path, text, |l| l.starts_with('#'));
    let header = r.line("the header line \"n_jobs n_machines\"")?;
    r.expect_fields(&header, 2, "the header line \"n_jobs n_machines\"")?;
    let jobs = r.int(&header, 0, "number of jobs", 1)? as usize;
    let machines = r.int(&header, 1, "number of machines", 1)? as usize;
    if jobs.saturating_mul(machines) > 10_000_000 {
        return Err(r.error(
            format!("line {}", header.number),
            "the job and machine counts are implausibly large; is this a job shop file?",
        ));
    }
    let mut activities = Vec::with_capacity(jobs * machines);
    let mut precedences = Vec::new();
    for job in 0..jobs {
        let line = r.line(&format!("the route of job {job}"))?;
        let fields = line.fields.len();
        if fields == 0 || fields % 2 != 0 || fields > 2 * machines {
            return Err(r.error(
                format!("line {}", line.number),
                format!(
                    "the route of job {job} has {fields} numbers; expected pairs \"machine duration\", \
                     at most {machines} of them"
                ),
            ));
        }
        for k in 0..fields / 2 {
            let machine = r.index(&line, 2 * k, "machine", 0, machines)?;
            let duration = r.int(&line, 2 * k + 1, "duration", 0)?;
            let id = format!("j{job}o{k}");
            if k > 0 {
                precedences.push(Precedence::finish_to_start(
                    format!("j{job}o{}", k - 1),
                    id.clone(),
                    0,
                ));
            }
            activities.push(Activity {
                uses: vec![ResourceUse {
                    resource: format!("m{machine}"),
                    amount: 1,
                }],
                ..Activity::new(id, duration)
            });
        }
    }
    if let Some(extra) = r.peek() {
        return Err(r.error(
            format!("line {}", extra.number),
            format!("unexpected text after the {jobs} job routes the header declares"),
        ));
    }
    let resources = (0..machines)
        .map(|m| Resource {
            id: format!("m{m}"),
            capacity: 1,
            states: Vec::new(),
        })
        .collect();
    let mut notes = BTreeMap::new();
    notes.insert("jobs".to_string(), Value::from(jobs));
    notes.insert("machines".to_string(), Value::from(machines));
    let name = format!("{BENCHMARK}-{}", super::file_stem(path));
    Ok(vec![Instance {
        resources,
        activities,
        precedences,
        ..classic::instance(BENCHMARK, path, name, notes)
    }])
}

/// Job shop (`.jss`, the kobe format): instances only, for validation against published optima.
pub const JOB_SHOP: crate::classic::Classic = crate::classic::Classic {
    name: BENCHMARK,
    extensions: &["jss"],
    description: "job shop .jss",
    looks_like: |_| false,
    read: import,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_become_chains_on_unary_machines() {
        let text = "# two jobs\n2 2\n0 3 1 2\n1 4 0 1\n";
        let inst = &import(Path::new("tiny.jss"), text).unwrap()[0];
        assert_eq!(inst.name, "jobshop-tiny");
        assert_eq!(inst.activities.len(), 4);
        assert_eq!(inst.activities[2].uses[0].resource, "m1");
        assert_eq!(inst.activities[2].duration, 4);
        assert_eq!(inst.precedences.len(), 2);
        assert_eq!(inst.precedences[1].before, "j1o0");
        inst.validate().unwrap();
    }

    #[test]
    fn malformed_routes_name_the_line() {
        let err = import(Path::new("b.jss"), "# c\n2 2\n0 3 1\n")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("b.jss: line 3: the route of job 0 has 3 numbers"),
            "{err}"
        );
        let err = import(Path::new("b.jss"), "2 2\n0 3 2 2\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("line 2, field 3: the machine is 2"), "{err}");
        let err = import(Path::new("b.jss"), "2 2\n0 3 1 2\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("ends before the route of job 1"), "{err}");
    }
}
