//! ProGen/max RCPSP/max files (`.SCH`/`.sch`; the sm_j10…j30 and UBO test sets of TU
//! Clausthal): renewable resources and generalised precedences with minimum and maximum
//! time lags.
//!
//! Layout (whitespace-separated, no section markers): a line `n K 0 0`; n+2 lines
//! `j #modes #succ s1 … sk [l1] … [lk]` (jobs 0-based, 0 the source, n+1 the sink), where
//! `[l]` means `S(s) ≥ S(j) + l` — a start-to-start lag, and a negative one is a maximum lag
//! `S(j) ≤ S(s) − l`; then n+2 lines `j mode duration r1 … rK`; then the K capacities.
//! Every arc becomes a start-to-start precedence with `min_lag = l` (negative allowed), so
//! infeasible instances are found by the temporal network's positive-cycle check, or by
//! search when resources cause it.
//!
//! The dummy source is dropped when it has duration 0, no demand and no incoming arc (a
//! positive lag from it becomes a release); the dummy sink is dropped when it has duration
//! 0, no demand, no outgoing arc and every arc into it carries its predecessor's duration,
//! which ProGen/max always writes: then the latest end equals `S(sink)`, the published
//! makespan. Otherwise they stay as zero-duration activities. Activities are `a<j>` with the
//! file's job numbers, resources `R1`…`RK`. ProGen/max file names repeat across sets (every
//! set has `PSP1`), so instances are named `rcpsp-max-<folder>-<file stem>`.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use super::classic;
use super::line_fields::{Line, Reader, MAX_VALUE};
use makespan_model::instance::{Activity, Instance, LoadError, Precedence, Relation};

/// `source.benchmark` of every RCPSP/max instance.
pub const BENCHMARK: &str = "rcpsp-max";

/// An arc `S(to) ≥ S(from) + lag`.
struct Arc {
    from: usize,
    to: usize,
    lag: i64,
}

/// Reads one ProGen/max file into one instance.
pub fn import(path: &Path, text: &str) -> Result<Vec<Instance>, LoadError> {
    let mut r = Reader::new(path, text, |_| false);
    let header = r.line("the header line \"n K 0 0\"")?;
    let n = r.int(&header, 0, "number of real activities", 0)? as usize;
    let resources = r.int(&header, 1, "number of renewable resources", 0)? as usize;
    let jobs = n + 2;
    if jobs > 1_000_000 || resources > 10_000 {
        return Err(r.error(
            format!("line {}", header.number),
            "the activity or resource count is implausibly large; is this a ProGen/max file?",
        ));
    }

    let mut arcs = Vec::new();
    for expected in 0..jobs {
        let line = r.line(&format!("the successor row of job {expected}"))?;
        job_number(&r, &line, expected)?;
        let modes = r.int(&line, 1, "mode count", 1)?;
        if modes != 1 {
            return Err(r.error(
                format!("line {}, field 2", line.number),
                format!("job {expected} has {modes} modes; only single-mode RCPSP/max files are supported"),
            ));
        }
        let count = r.int(&line, 2, "successor count", 0)? as usize;
        r.expect_fields(
            &line,
            3 + 2 * count,
            &format!("the successor row of job {expected}"),
        )?;
        for k in 0..count {
            let to = r.index(&line, 3 + k, "successor", 0, jobs)?;
            let lag = lag(&r, &line, 3 + count + k)?;
            arcs.push(Arc {
                from: expected,
                to,
                lag,
            });
        }
    }

    let mut durations = Vec::with_capacity(jobs);
    let mut demands = Vec::with_capacity(jobs);
    for expected in 0..jobs {
        let line = r.line(&format!("the duration row of job {expected}"))?;
        job_number(&r, &line, expected)?;
        r.expect_fields(
            &line,
            3 + resources,
            &format!("the duration row of job {expected}"),
        )?;
        durations.push(r.int(&line, 2, "duration", 0)?);
        let row: Result<Vec<i64>, LoadError> = (0..resources)
            .map(|k| r.int(&line, 3 + k, &format!("demand for R{}", k + 1), 0))
            .collect();
        demands.push(row?);
    }
    let line = r.line("the resource capacities")?;
    r.expect_fields(&line, resources, "the capacity row")?;
    let capacities: Result<Vec<i64>, LoadError> = (0..resources)
        .map(|k| r.int(&line, k, &format!("capacity of R{}", k + 1), 0))
        .collect();
    let capacities = capacities?;
    if let Some(extra) = r.peek() {
        return Err(r.error(
            format!("line {}", extra.number),
            "unexpected text after the capacity row; a ProGen/max file ends there",
        ));
    }

    let (source, sink) = (0, jobs - 1);
    let idle = |j: usize| durations[j] == 0 && demands[j].iter().all(|&d| d == 0);
    let drop_source = idle(source) && arcs.iter().all(|a| a.to != source);
    let drop_sink = idle(sink)
        && arcs.iter().all(|a| a.from != sink)
        && arcs
            .iter()
            .filter(|a| a.to == sink)
            .all(|a| a.lag == durations[a.from]);
    let kept = |j: usize| !(j == source && drop_source || j == sink && drop_sink);
    let id = |j: usize| format!("a{j}");

    let mut activities: Vec<Activity> = (0..jobs)
        .map(|j| Activity {
            uses: classic::demands(&demands[j]),
            ..Activity::new(id(j), durations[j])
        })
        .collect();
    let mut precedences = Vec::new();
    for a in &arcs {
        if a.from == source && drop_source {
            if a.lag > 0 {
                let release = &mut activities[a.to].release;
                *release = Some(release.unwrap_or(0).max(a.lag));
            }
        } else if kept(a.from) && kept(a.to) {
            precedences.push(Precedence {
                before: id(a.from),
                after: id(a.to),
                relation: Relation::StartToStart,
                min_lag: a.lag,
                max_lag: None,
            });
        }
    }
    let activities: Vec<Activity> = activities
        .into_iter()
        .enumerate()
        .filter(|&(j, _)| kept(j))
        .map(|(_, a)| a)
        .collect();
    let stem = super::file_stem(path);
    let name = match path
        .parent()
        .and_then(Path::file_name)
        .map(|f| f.to_string_lossy())
    {
        Some(folder) => format!("{BENCHMARK}-{folder}-{stem}"),
        None => format!("{BENCHMARK}-{stem}"),
    };
    let mut notes = BTreeMap::new();
    notes.insert("jobs".to_string(), Value::from(n));
    Ok(vec![Instance {
        resources: classic::renewable(&capacities),
        activities,
        precedences,
        ..classic::instance(BENCHMARK, path, name, notes)
    }])
}

/// A lag field `[l]`.
fn lag(r: &Reader<'_>, line: &Line<'_>, k: usize) -> Result<i64, LoadError> {
    let text = line.fields[k];
    let at = || format!("line {}, field {}", line.number, k + 1);
    let inner = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or_else(|| {
            r.error(
                at(),
                format!("the lag is \"{text}\"; lags are written in brackets, e.g. [5] or [-3]"),
            )
        })?;
    let value: i64 = inner
        .parse()
        .map_err(|_| r.error(at(), format!("the lag \"{text}\" is not a whole number")))?;
    if value.abs() > MAX_VALUE {
        return Err(r.error(
            at(),
            format!("the lag is {value}; lags must lie within ±{MAX_VALUE}"),
        ));
    }
    Ok(value)
}

/// An error unless the row starts with job number `expected` (rows are in job order).
fn job_number(r: &Reader<'_>, line: &Line<'_>, expected: usize) -> Result<(), LoadError> {
    let found = r.int(line, 0, "job number", 0)?;
    if found != expected as i64 {
        return Err(r.error(
            format!("line {}, field 1", line.number),
            format!(
                "expected the row of job {expected}, found job {found}; rows must list jobs 0..n+1 in order"
            ),
        ));
    }
    Ok(())
}

/// RCPSP/max (ProGen/max `.sch`): instances only, for validation against published optima.
pub const RCPSP_MAX: crate::classic::Classic = crate::classic::Classic {
    name: BENCHMARK,
    extensions: &["sch"],
    description: "RCPSP/max .sch",
    looks_like: |_| false,
    read: import,
};

#[cfg(test)]
mod tests {
    use super::*;

    /// Two activities; a1 must start 2 after a2 at the latest (a max lag), a2 at least 1
    /// after a1 starts.
    const SMALL: &str = "2\t1\t0\t0\n\
        0\t1\t2\t1\t2\t[0]\t[3]\n\
        1\t1\t2\t2\t3\t[1]\t[4]\n\
        2\t1\t2\t1\t3\t[-2]\t[5]\n\
        3\t1\t0\n\
        0\t1\t0\t0\n\
        1\t1\t4\t1\n\
        2\t1\t5\t1\n\
        3\t1\t0\t0\n\
        1\n";

    #[test]
    fn lags_become_start_to_start_precedences_and_dummies_go() {
        let inst = &import(Path::new("set/PSP9.SCH"), SMALL).unwrap()[0];
        assert_eq!(inst.name, "rcpsp-max-set-PSP9");
        let ids: Vec<&str> = inst.activities.iter().map(|a| a.id.as_str()).collect();
        assert_eq!(ids, ["a1", "a2"]);
        assert_eq!(inst.activities[1].release, Some(3));
        let lags: Vec<(&str, &str, i64)> = inst
            .precedences
            .iter()
            .map(|p| (p.before.as_str(), p.after.as_str(), p.min_lag))
            .collect();
        assert_eq!(lags, [("a1", "a2", 1), ("a2", "a1", -2)]);
        assert!(inst
            .precedences
            .iter()
            .all(|p| p.relation == Relation::StartToStart));
        inst.validate().unwrap();
    }

    #[test]
    fn a_sink_lag_other_than_the_duration_keeps_the_sink() {
        let text = SMALL.replace("[4]", "[6]");
        let inst = &import(Path::new("x.sch"), &text).unwrap()[0];
        assert_eq!(inst.name, "rcpsp-max-x");
        assert!(inst.activities.iter().any(|a| a.id == "a3"));
    }

    #[test]
    fn malformed_input_names_the_line() {
        let bad = SMALL.replace("[-2]", "-2");
        let err = import(Path::new("b.sch"), &bad).unwrap_err().to_string();
        assert!(
            err.starts_with("b.sch: line 4, field 6: the lag is \"-2\""),
            "{err}"
        );
        let bad = SMALL.replace("2\t1\t5\t1", "2\t1\t5");
        let err = import(Path::new("b.sch"), &bad).unwrap_err().to_string();
        assert!(
            err.contains("line 8: the duration row of job 2 has 3 fields"),
            "{err}"
        );
        let err = import(Path::new("b.sch"), &SMALL[..30])
            .unwrap_err()
            .to_string();
        assert!(err.contains("ends before"), "{err}");
        let err = import(Path::new("b.sch"), &format!("{SMALL}7\n"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("line 11: unexpected text"), "{err}");
    }
}
