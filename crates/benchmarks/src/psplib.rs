//! PSPLIB single-mode RCPSP files (`.sm`; Kolisch & Sprecher, EJOR 96(1), 1997).
//!
//! Sections are separated by lines of `*`. The importer reads the job count and the number
//! of renewable resources from the header, the successor lists from `PRECEDENCE RELATIONS:`,
//! durations and demands from `REQUESTS/DURATIONS:` and the capacities from
//! `RESOURCEAVAILABILITIES:`. Precedences are finish-to-start with lag 0.
//!
//! Job 1 (supersource) and job n+2 (supersink) are dropped when they are the usual dummies
//! (duration 0, no demand): they change neither the feasible schedules nor the makespan
//! (the latest end), and keeping them would only add MILP columns. Activities are named
//! `j<jobnr>` with PSPLIB's job numbers, resources `R1`…`RK`. Instance names are
//! `psplib-<file stem>` (PSPLIB names such as `j301_1` are unique across the library).
//! Multi-mode files and non-renewable resources are refused with a clear message.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use super::classic;
use super::line_fields::{Line, Reader};
use makespan_model::instance::{Activity, Instance, LoadError, Precedence};

/// `source.benchmark` of every PSPLIB instance.
pub const BENCHMARK: &str = "psplib";

/// Whether `text` looks like a PSPLIB file (a line of stars, then PSPLIB's header keys).
pub fn looks_like(text: &str) -> bool {
    text.trim_start().starts_with("****") && text.contains("PRECEDENCE RELATIONS")
}

/// Reads one PSPLIB single-mode file into one instance.
pub fn import(path: &Path, text: &str) -> Result<Vec<Instance>, LoadError> {
    let mut r = Reader::new(path, text, |l| {
        l.starts_with("****") || l.starts_with("----")
    });
    let jobs_line = r.seek("\"jobs (incl. supersource/sink ):\" line", |l| {
        l.starts_with("jobs")
    })?;
    let jobs = header_value(&r, &jobs_line, "job count")?;
    if jobs < 2 {
        return Err(r.error(
            format!("line {}", jobs_line.number),
            format!("the file declares {jobs} jobs; PSPLIB files have a source, a sink and the real jobs"),
        ));
    }
    let jobs = jobs as usize;
    let renewable_line = r.seek("\"- renewable\" line", |l| l.starts_with("- renewable"))?;
    let resources = header_value(&r, &renewable_line, "renewable resource count")? as usize;
    for kind in ["- nonrenewable", "- doubly constrained"] {
        let line = r.seek(&format!("\"{kind}\" line"), |l| l.starts_with(kind))?;
        if header_value(&r, &line, "resource count")? != 0 {
            return Err(r.error(
                format!("line {}", line.number),
                "non-renewable and doubly constrained resources belong to multi-mode PSPLIB \
                 sets, which makespan does not read; only single-mode (.sm) files are supported",
            ));
        }
    }

    r.seek("PRECEDENCE RELATIONS: section", |l| {
        l.starts_with("PRECEDENCE RELATIONS")
    })?;
    r.line("the precedence header row")?;
    let mut successors: Vec<Vec<usize>> = Vec::with_capacity(jobs);
    for expected in 0..jobs {
        let line = r.line(&format!("the precedence row of job {}", expected + 1))?;
        job_number(&r, &line, expected)?;
        let modes = r.int(&line, 1, "mode count", 1)?;
        if modes != 1 {
            return Err(r.error(
                format!("line {}, field 2", line.number),
                format!(
                    "job {} has {modes} modes; only single-mode (.sm) files are supported",
                    expected + 1
                ),
            ));
        }
        let count = r.int(&line, 2, "successor count", 0)? as usize;
        r.expect_fields(
            &line,
            3 + count,
            &format!("the row of job {}", expected + 1),
        )?;
        let row: Result<Vec<usize>, LoadError> = (0..count)
            .map(|k| r.index(&line, 3 + k, "successor", 1, jobs))
            .collect();
        successors.push(row?);
    }

    r.seek("REQUESTS/DURATIONS: section", |l| {
        l.starts_with("REQUESTS/DURATIONS")
    })?;
    r.line("the request header row")?;
    let mut durations = Vec::with_capacity(jobs);
    let mut demands = Vec::with_capacity(jobs);
    for expected in 0..jobs {
        let line = r.line(&format!("the request row of job {}", expected + 1))?;
        job_number(&r, &line, expected)?;
        r.expect_fields(
            &line,
            3 + resources,
            &format!("the request row of job {}", expected + 1),
        )?;
        durations.push(r.int(&line, 2, "duration", 0)?);
        let row: Result<Vec<i64>, LoadError> = (0..resources)
            .map(|k| r.int(&line, 3 + k, &format!("demand for R{}", k + 1), 0))
            .collect();
        demands.push(row?);
    }

    r.seek("RESOURCEAVAILABILITIES: section", |l| {
        l.starts_with("RESOURCEAVAILABILITIES")
    })?;
    r.line("the resource header row")?;
    let line = r.line("the resource capacities")?;
    r.expect_fields(&line, resources, "the capacity row")?;
    let capacities: Result<Vec<i64>, LoadError> = (0..resources)
        .map(|k| r.int(&line, k, &format!("capacity of R{}", k + 1), 0))
        .collect();
    let capacities = capacities?;

    let is_dummy = |j: usize| durations[j] == 0 && demands[j].iter().all(|&d| d == 0);
    let keep: Vec<bool> = (0..jobs)
        .map(|j| !((j == 0 || j == jobs - 1) && is_dummy(j)))
        .collect();
    let id = |j: usize| format!("j{}", j + 1);
    let activities = (0..jobs)
        .filter(|&j| keep[j])
        .map(|j| Activity {
            uses: classic::demands(&demands[j]),
            ..Activity::new(id(j), durations[j])
        })
        .collect();
    let precedences = (0..jobs)
        .flat_map(|i| successors[i].iter().map(move |&j| (i, j)))
        .filter(|&(i, j)| keep[i] && keep[j])
        .map(|(i, j)| Precedence::finish_to_start(id(i), id(j), 0))
        .collect();
    let stem = super::file_stem(path);
    let mut notes = BTreeMap::new();
    notes.insert("jobs".to_string(), Value::from(jobs - 2));
    Ok(vec![Instance {
        resources: classic::renewable(&capacities),
        activities,
        precedences,
        ..classic::instance(BENCHMARK, path, format!("{BENCHMARK}-{stem}"), notes)
    }])
}

/// The number after the colon of a `key : value` header line.
fn header_value(r: &Reader<'_>, line: &Line<'_>, what: &str) -> Result<i64, LoadError> {
    let k = line
        .fields
        .iter()
        .position(|f| f.ends_with(':'))
        .map_or(line.fields.len(), |k| k + 1);
    // "jobs (incl. supersource/sink ):  32" splits the colon off as its own field.
    r.int(line, k, what, 0)
}

/// An error unless the row starts with job number `expected + 1` (rows are in job order).
fn job_number(r: &Reader<'_>, line: &Line<'_>, expected: usize) -> Result<(), LoadError> {
    let found = r.int(line, 0, "job number", 1)?;
    if found != expected as i64 + 1 {
        return Err(r.error(
            format!("line {}, field 1", line.number),
            format!(
                "expected the row of job {}, found job {found}; rows must list jobs 1..n in order",
                expected + 1
            ),
        ));
    }
    Ok(())
}

/// PSPLIB single-mode RCPSP (`.sm`): instances only, for validation against published optima.
pub const PSPLIB: crate::classic::Classic = crate::classic::Classic {
    name: BENCHMARK,
    extensions: &["sm"],
    description: "PSPLIB .sm",
    looks_like,
    read: import,
};

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "\
************************************************************************
jobs (incl. supersource/sink ):  4
RESOURCES
  - renewable                 :  1   R
  - nonrenewable              :  0   N
  - doubly constrained        :  0   D
************************************************************************
PRECEDENCE RELATIONS:
jobnr.    #modes  #successors   successors
   1        1          2           2   3
   2        1          1           4
   3        1          1           4
   4        1          0
************************************************************************
REQUESTS/DURATIONS:
jobnr. mode duration  R 1
------------------------------------------------------------------------
  1      1     0       0
  2      1     3       2
  3      1     4       1
  4      1     0       0
************************************************************************
RESOURCEAVAILABILITIES:
  R 1
    2
************************************************************************
";

    #[test]
    fn reads_jobs_demands_and_capacities_and_drops_the_dummies() {
        let inst = &import(Path::new("tiny.sm"), SMALL).unwrap()[0];
        assert_eq!(inst.name, "psplib-tiny");
        assert_eq!(inst.agents, None);
        let ids: Vec<&str> = inst.activities.iter().map(|a| a.id.as_str()).collect();
        assert_eq!(ids, ["j2", "j3"]);
        assert_eq!(inst.activities[0].uses[0].amount, 2);
        assert_eq!(inst.resources[0].capacity, 2);
        assert!(inst.precedences.is_empty());
        inst.validate().unwrap();
    }

    #[test]
    fn malformed_rows_name_the_line() {
        let bad = SMALL.replace("  2      1     3       2", "  2      1     x       2");
        let err = import(Path::new("t.sm"), &bad).unwrap_err().to_string();
        assert!(
            err.starts_with("t.sm: line 19, field 3: the duration is \"x\""),
            "{err}"
        );
        let bad = SMALL.replace(
            "   2        1          1           4",
            "   2        1          1           9",
        );
        let err = import(Path::new("t.sm"), &bad).unwrap_err().to_string();
        assert!(
            err.contains("line 11, field 4: the successor is 9"),
            "{err}"
        );
        let cut = &SMALL[..SMALL.find("RESOURCEAVAIL").unwrap()];
        let err = import(Path::new("t.sm"), cut).unwrap_err().to_string();
        assert!(err.contains("RESOURCEAVAILABILITIES"), "{err}");
        let multi = SMALL.replace("   3        1          1", "   3        2          1");
        let err = import(Path::new("t.sm"), &multi).unwrap_err().to_string();
        assert!(err.contains("only single-mode"), "{err}");
    }
}
