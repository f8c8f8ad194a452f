//! Validation against published optima: solve classic instances (PSPLIB, RCPSP/max, job
//! shop) with the ordinary [`solve()`](crate::solve()) pipeline and compare every result with a table
//! of known optima, so a wrong proof can never go unnoticed.
//!
//! A table is CSV with the header `problem,optimum`; `optimum` is an integer (proven
//! optimum), `lb..ub` (open; either end may be empty) or `unsat` (no schedule exists). Keys
//! are file names, compared case-insensitively (`PSP1.SCH` and `psp1.sch` are the same key).
//! Sets reuse file names (every ProGen/max set has a `PSP1`), so each table is tied to its
//! folder: an instance is looked up first in the tables of the folders that contain it,
//! nearest first, and only then in the others, in the order given ([`Optima`]).
//!
//! Only a *proven* claim can disagree: an optimum that differs from a published exact
//! value or lies outside a published range, infeasibility where a schedule is known, a
//! verified schedule where the table says `unsat`, or a bound or schedule on the wrong side
//! of the published value. An unproven result that brackets the published value is
//! consistent, not wrong.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use makespan_benchmarks::{self as benchmarks, ImportOptions};
use makespan_model::instance::{Instance, LoadError};
use makespan_model::solution::{Solution, Status};
use makespan_solve::{solve_detailed, Run, SolveOptions};

/// A published result for one instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Published {
    /// The proven optimum.
    Exact(i64),
    /// Open: the optimum lies in `[lb, ub]`; a missing end is unknown.
    Range {
        /// Best published lower bound.
        lb: Option<i64>,
        /// Best published makespan.
        ub: Option<i64>,
    },
    /// No feasible schedule exists.
    Unsat,
}

impl fmt::Display for Published {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let end = |v: Option<i64>| v.map(|x| x.to_string()).unwrap_or_default();
        match *self {
            Published::Exact(v) => write!(f, "{v}"),
            Published::Range { lb, ub } => write!(f, "{}..{}", end(lb), end(ub)),
            Published::Unsat => f.write_str("unsat"),
        }
    }
}

/// Published results by lower-cased file name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OptimaTable {
    entries: HashMap<String, Published>,
}

/// Why a table could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    #[error(transparent)]
    /// A table could not be read (the bounded reader's error names the file).
    Read(#[from] LoadError),
    #[error("{}: line {line}: {message}", path.display())]
    /// A line of a table is not `instance,value`.
    Format {
        /// The table.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

impl OptimaTable {
    /// Reads a table file and adds its rows; a key already present with another value is an
    /// error (two tables must not contradict each other).
    pub fn read(&mut self, path: &Path) -> Result<(), TableError> {
        let text = crate::input::read_text(path)?;
        self.parse(path, &text)
    }

    /// Adds the rows of a table's text; `path` is used in error messages only.
    pub fn parse(&mut self, path: &Path, text: &str) -> Result<(), TableError> {
        let error = |line: usize, message: String| TableError::Format {
            path: path.to_path_buf(),
            line,
            message,
        };
        let mut rows = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        match rows.next() {
            Some((_, header)) if header.trim().eq_ignore_ascii_case("problem,optimum") => {}
            Some((i, header)) => {
                return Err(error(
                    i + 1,
                    format!("the header is \"{header}\"; expected \"problem,optimum\""),
                ))
            }
            None => return Err(error(1, "the table is empty".into())),
        }
        for (i, row) in rows {
            let (key, value) = row
                .split_once(',')
                .ok_or_else(|| error(i + 1, format!("\"{row}\" is not \"problem,optimum\"")))?;
            let published = parse_published(value.trim()).ok_or_else(|| {
                error(
                    i + 1,
                    format!(
                        "the optimum \"{}\" is not an integer, \"lb..ub\" or \"unsat\"",
                        value.trim()
                    ),
                )
            })?;
            let key = key.trim().to_lowercase();
            if let Some(old) = self.entries.insert(key.clone(), published) {
                if old != published {
                    return Err(error(
                        i + 1,
                        format!("\"{key}\" is listed as {published} here but as {old} before"),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The published result for a file name, ignoring case.
    pub fn get(&self, file_name: &str) -> Option<Published> {
        self.entries.get(&file_name.to_lowercase()).copied()
    }

    /// Entries in the table.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the table has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Several tables, each tied to the folder it lies in.
#[derive(Debug, Clone, Default)]
pub struct Optima {
    tables: Vec<(PathBuf, OptimaTable)>,
}

impl Optima {
    /// Reads a table file and ties it to its folder.
    pub fn read(&mut self, path: &Path) -> Result<(), TableError> {
        let mut table = OptimaTable::default();
        table.read(path)?;
        let folder = path.parent().unwrap_or(Path::new("."));
        self.add(folder, table);
        Ok(())
    }

    /// Adds a table tied to `folder`.
    pub fn add(&mut self, folder: &Path, table: OptimaTable) {
        self.tables.push((absolute(folder), table));
    }

    /// The published result for an instance file: from the nearest table whose folder holds
    /// the file, else from the first other table that lists its name.
    pub fn get(&self, file: &Path) -> Option<Published> {
        let name = file.file_name()?.to_string_lossy();
        let file = absolute(file);
        let mut scoped: Vec<&(PathBuf, OptimaTable)> = self
            .tables
            .iter()
            .filter(|(folder, _)| file.starts_with(folder))
            .collect();
        scoped.sort_by_key(|(folder, _)| std::cmp::Reverse(folder.components().count()));
        let others = self
            .tables
            .iter()
            .filter(|(folder, _)| !file.starts_with(folder));
        scoped
            .into_iter()
            .chain(others)
            .find_map(|(_, table)| table.get(&name))
    }
}

/// The path made absolute and resolved where it exists, so `a/../b` and `./b` compare equal.
fn absolute(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| {
        std::env::current_dir()
            .map(|d| d.join(path))
            .unwrap_or_else(|_| path.to_path_buf())
    })
}

fn parse_published(value: &str) -> Option<Published> {
    if value.eq_ignore_ascii_case("unsat") {
        return Some(Published::Unsat);
    }
    if let Some((lb, ub)) = value.split_once("..") {
        let end = |s: &str| -> Option<Option<i64>> {
            let s = s.trim();
            if s.is_empty() {
                Some(None)
            } else {
                s.parse().ok().map(Some)
            }
        };
        let (lb, ub) = (end(lb)?, end(ub)?);
        if let (Some(l), Some(u)) = (lb, ub) {
            if l > u {
                return None;
            }
        }
        return Some(Published::Range { lb, ub });
    }
    value.parse().ok().map(Published::Exact)
}

/// One instance to validate and the file it came from (the table's key).
#[derive(Debug, Clone)]
pub struct Case {
    /// File the instance came from.
    pub file: PathBuf,
    /// The instance.
    pub instance: Instance,
}

impl Case {
    /// The table key: the file name.
    pub fn key(&self) -> String {
        self.file
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    /// The sample set: the name of the folder the file is in.
    pub fn set(&self) -> String {
        self.file
            .parent()
            .and_then(Path::file_name)
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| ".".into())
    }
}

/// Every instance in the given files and folders (walked like `solve` does), in order.
pub fn load_cases(inputs: &[PathBuf]) -> Result<Vec<Case>, LoadError> {
    let mut cases = Vec::new();
    for input in inputs {
        for file in benchmarks::input_files(input)? {
            for instance in benchmarks::import(&file, &ImportOptions::default())? {
                cases.push(Case {
                    file: file.clone(),
                    instance,
                });
            }
        }
    }
    Ok(cases)
}

/// How our result relates to the published one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// A proven result (optimum or infeasibility) that matches the table.
    Agree,
    /// Not proven, but the bound and the schedule (if any) bracket the published value.
    Consistent,
    /// A proven result, bound or verified schedule that contradicts the table; says how.
    Disagree(String),
    /// The table has no entry for the file.
    NoEntry,
}

impl Verdict {
    /// The table cell.
    pub fn label(&self) -> &'static str {
        match self {
            Verdict::Agree => "agree",
            Verdict::Consistent => "consistent",
            Verdict::Disagree(_) => "DISAGREE",
            Verdict::NoEntry => "no entry",
        }
    }
}

/// Compares a solution with the published result.
pub fn judge(published: Option<Published>, solution: &Solution) -> Verdict {
    let Some(published) = published else {
        return Verdict::NoEntry;
    };
    let (lo, hi, known_feasible) = match published {
        Published::Unsat => {
            return match solution.status {
                Status::Optimal | Status::Feasible => Verdict::Disagree(format!(
                    "the table says unsat, but we found a verified schedule of makespan {}",
                    cell(solution.makespan)
                )),
                Status::Infeasible => Verdict::Agree,
                Status::Error | Status::Invalid => Verdict::Consistent,
            }
        }
        Published::Exact(v) => (Some(v), Some(v), true),
        Published::Range { lb, ub } => (lb, ub, ub.is_some()),
    };
    if solution.status == Status::Infeasible {
        return if known_feasible {
            Verdict::Disagree(format!(
                "we proved it infeasible, but the table has {published}"
            ))
        } else {
            Verdict::Consistent
        };
    }
    // Our lower bound must not exceed the published optimum (or upper end) …
    if let (Some(bound), Some(hi)) = (solution.lower_bound, hi) {
        if bound > hi {
            return Verdict::Disagree(format!(
                "our lower bound {bound} is above the published {published}"
            ));
        }
    }
    // … and a verified schedule must not beat it.
    if let (Some(makespan), Some(lo)) = (solution.makespan, lo) {
        if makespan < lo {
            return Verdict::Disagree(format!(
                "our verified schedule of makespan {makespan} beats the published {published}"
            ));
        }
    }
    if solution.status == Status::Optimal {
        // Both checks above passed with bound = makespan, so the optimum lies in [lo, hi].
        return Verdict::Agree;
    }
    Verdict::Consistent
}

/// One validated instance.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The validation set (the folder).
    pub set: String,
    /// Key of the instance in the published table.
    pub key: String,
    /// Instance name.
    pub instance: String,
    /// The published optimum or bounds, if the table has the instance.
    pub published: Option<Published>,
    /// What makespan established.
    pub status: Status,
    /// Makespan found.
    pub makespan: Option<i64>,
    /// Lower bound proven.
    pub lower_bound: Option<i64>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Method that produced the schedule.
    pub method: String,
    /// Agreement with the published value.
    pub verdict: Verdict,
}

impl Outcome {
    /// Proven: optimal or infeasible.
    pub fn proven(&self) -> bool {
        matches!(self.status, Status::Optimal | Status::Infeasible)
    }
}

/// Solves every case with [`solve()`](crate::solve()) in `run` (`jobs` at once) and judges it
/// against `optima`, in the order of `cases`; `done` is called after each instance (for a
/// progress bar).
pub fn run(
    cases: &[Case],
    optima: &Optima,
    options: &SolveOptions,
    run: &Run,
    jobs: usize,
    done: &(dyn Fn(&Outcome) + Sync),
) -> Result<Vec<Outcome>, crate::batch::BatchError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .stack_size(crate::batch::WORKER_STACK)
        .build()
        .map_err(|e| crate::batch::BatchError::Workers {
            jobs,
            message: e.to_string(),
        })?;
    Ok(pool.install(|| {
        cases
            .par_iter()
            .map(|case| {
                let solution = solve_detailed(&case.instance, options, run).0;
                let published = optima.get(&case.file);
                let outcome = Outcome {
                    set: case.set(),
                    key: case.key(),
                    instance: case.instance.name.clone(),
                    published,
                    status: solution.status,
                    makespan: solution.makespan,
                    lower_bound: solution.lower_bound,
                    seconds: solution.seconds,
                    method: solution.method.clone(),
                    verdict: judge(published, &solution),
                };
                done(&outcome);
                outcome
            })
            .collect()
    }))
}

/// Per-set figures for the summary and the benchmark.
#[derive(Debug, Clone, PartialEq)]
pub struct SetSummary {
    /// The validation set.
    pub set: String,
    /// Instances in it.
    pub count: usize,
    /// Optimal or infeasible.
    pub proven: usize,
    /// Results that contradict the published table.
    pub disagreements: usize,
    /// Median solve time.
    pub median_seconds: f64,
    /// Slowest solve time.
    pub max_seconds: f64,
}

/// One summary per set, in order of first appearance.
pub fn summarise(outcomes: &[Outcome]) -> Vec<SetSummary> {
    let mut sets: Vec<String> = Vec::new();
    for o in outcomes {
        if !sets.contains(&o.set) {
            sets.push(o.set.clone());
        }
    }
    sets.into_iter()
        .map(|set| {
            let of_set: Vec<&Outcome> = outcomes.iter().filter(|o| o.set == set).collect();
            let mut seconds: Vec<f64> = of_set.iter().map(|o| o.seconds).collect();
            seconds.sort_by(f64::total_cmp);
            SetSummary {
                count: of_set.len(),
                proven: of_set.iter().filter(|o| o.proven()).count(),
                disagreements: of_set
                    .iter()
                    .filter(|o| matches!(o.verdict, Verdict::Disagree(_)))
                    .count(),
                median_seconds: median(&seconds),
                max_seconds: seconds.last().copied().unwrap_or(0.0),
                set,
            }
        })
        .collect()
}

/// The median of sorted values (mean of the middle two for an even count).
fn median(sorted: &[f64]) -> f64 {
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

fn cell(v: Option<i64>) -> String {
    v.map_or_else(|| "-".into(), |x| x.to_string())
}

/// The result table, one line per instance, then every disagreement spelled out, then the
/// per-set summary.
pub fn render(outcomes: &[Outcome]) -> String {
    let width = outcomes
        .iter()
        .map(|o| o.instance.len())
        .max()
        .unwrap_or(8)
        .max(8);
    let mut out = format!(
        "{:<width$}  {:>9} {:>10} {:<10} {:>7} {:>8}  verdict\n",
        "instance", "published", "ours", "status", "bound", "seconds"
    );
    for o in outcomes {
        let ours = match o.status {
            Status::Infeasible => "unsat".into(),
            _ => cell(o.makespan),
        };
        out.push_str(&format!(
            "{:<width$}  {:>9} {:>10} {:<10} {:>7} {:>8.2}  {}\n",
            o.instance,
            o.published.map_or_else(|| "-".into(), |p| p.to_string()),
            ours,
            o.status.to_string(),
            cell(o.lower_bound),
            o.seconds,
            o.verdict.label()
        ));
    }
    for o in outcomes {
        if let Verdict::Disagree(why) = &o.verdict {
            out.push_str(&format!("DISAGREE {} ({}): {why}\n", o.instance, o.key));
        }
    }
    out.push('\n');
    out.push_str(&format!(
        "{:<16} {:>5} {:>7} {:>9} {:>9} {:>9}\n",
        "set", "count", "proven", "disagree", "median s", "max s"
    ));
    for s in summarise(outcomes) {
        out.push_str(&format!(
            "{:<16} {:>5} {:>7} {:>9} {:>9.2} {:>9.2}\n",
            s.set, s.count, s.proven, s.disagreements, s.median_seconds, s.max_seconds
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(text: &str) -> Result<OptimaTable, String> {
        let mut t = OptimaTable::default();
        t.parse(Path::new("t.csv"), text)
            .map_err(|e| e.to_string())?;
        Ok(t)
    }

    fn solution(status: Status, makespan: Option<i64>, bound: Option<i64>) -> Solution {
        Solution {
            makespan,
            lower_bound: bound,
            ..Solution::new(&Instance::new("x", None), status, "")
        }
    }

    #[test]
    fn tables_read_exact_open_and_unsat_rows_case_insensitively() {
        let t = table("problem,optimum\nPSP1.SCH,26\nPSP2.SCH,unsat\nj601_1.sm,..77\nx,3..5\n")
            .unwrap();
        assert_eq!(t.get("psp1.sch"), Some(Published::Exact(26)));
        assert_eq!(t.get("Psp2.sch"), Some(Published::Unsat));
        assert_eq!(
            t.get("J601_1.SM"),
            Some(Published::Range {
                lb: None,
                ub: Some(77)
            })
        );
        assert_eq!(t.get("x").unwrap().to_string(), "3..5");
        assert_eq!(t.get("y"), None);
    }

    #[test]
    fn tables_apply_to_their_own_folder_first() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        let mut optima = Optima::default();
        optima.add(&a, table("problem,optimum\nPSP1.SCH,26\n").unwrap());
        optima.add(
            &b,
            table("problem,optimum\npsp1.sch,unsat\nx.sm,4\n").unwrap(),
        );
        assert_eq!(optima.get(&a.join("PSP1.SCH")), Some(Published::Exact(26)));
        assert_eq!(optima.get(&b.join("psp1.sch")), Some(Published::Unsat));
        assert_eq!(optima.get(&a.join("x.sm")), Some(Published::Exact(4)));
        assert_eq!(optima.get(&dir.path().join("y.sm")), None);
    }

    #[test]
    fn malformed_tables_name_the_line() {
        let err = table("problem,optimum\na,1\nb,abc\n").unwrap_err();
        assert_eq!(
            err,
            "t.csv: line 3: the optimum \"abc\" is not an integer, \"lb..ub\" or \"unsat\""
        );
        assert!(table("name,value\n")
            .unwrap_err()
            .contains("line 1: the header"));
        assert!(table("problem,optimum\na,5..3\n").is_err());
        let err = table("problem,optimum\na,1\nA,2\n").unwrap_err();
        assert!(
            err.contains("line 3: \"a\" is listed as 2 here but as 1"),
            "{err}"
        );
    }

    #[test]
    fn proven_results_must_match_and_unproven_ones_must_bracket() {
        use Status::*;
        let exact = Some(Published::Exact(10));
        let agree = |v: Verdict| v == Verdict::Agree;
        let disagree = |v: Verdict| matches!(v, Verdict::Disagree(_));
        assert!(agree(judge(exact, &solution(Optimal, Some(10), Some(10)))));
        assert!(disagree(judge(
            exact,
            &solution(Optimal, Some(11), Some(11))
        )));
        assert!(disagree(judge(exact, &solution(Optimal, Some(9), Some(9)))));
        assert!(disagree(judge(exact, &solution(Infeasible, None, None))));
        let open = judge(exact, &solution(Feasible, Some(12), Some(8)));
        assert_eq!(open, Verdict::Consistent);
        assert!(disagree(judge(
            exact,
            &solution(Feasible, Some(12), Some(11))
        )));
        assert!(disagree(judge(
            exact,
            &solution(Feasible, Some(9), Some(8))
        )));

        let unsat = Some(Published::Unsat);
        assert!(agree(judge(unsat, &solution(Infeasible, None, None))));
        assert!(disagree(judge(
            unsat,
            &solution(Feasible, Some(5), Some(3))
        )));
        assert_eq!(
            judge(unsat, &solution(Error, None, Some(3))),
            Verdict::Consistent
        );

        let range = Some(Published::Range {
            lb: None,
            ub: Some(20),
        });
        assert!(agree(judge(range, &solution(Optimal, Some(15), Some(15)))));
        assert!(disagree(judge(
            range,
            &solution(Optimal, Some(21), Some(21))
        )));
        assert!(disagree(judge(range, &solution(Infeasible, None, None))));
        assert_eq!(
            judge(None, &solution(Optimal, Some(1), Some(1))),
            Verdict::NoEntry
        );
    }

    #[test]
    fn summaries_count_proofs_and_take_medians() {
        let outcome = |set: &str, status, seconds| Outcome {
            set: set.into(),
            key: "k".into(),
            instance: "i".into(),
            published: None,
            status,
            makespan: None,
            lower_bound: None,
            seconds,
            method: String::new(),
            verdict: Verdict::NoEntry,
        };
        let outcomes = [
            outcome("a", Status::Optimal, 1.0),
            outcome("a", Status::Feasible, 4.0),
            outcome("b", Status::Infeasible, 2.0),
            outcome("a", Status::Optimal, 3.0),
        ];
        let s = summarise(&outcomes);
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].count, s[0].proven), (3, 2));
        assert_eq!((s[0].median_seconds, s[0].max_seconds), (3.0, 4.0));
        assert_eq!((s[1].set.as_str(), s[1].proven), ("b", 1));
        assert!(render(&outcomes).contains("set "));
    }
}
