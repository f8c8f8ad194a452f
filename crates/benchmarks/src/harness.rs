//! A benchmark's harness: how the output files of a whole model run are read and scored
//! the way the benchmark's own scorer does ([`Harness`]), and the data of the run report
//! (`makespan score`) that every harness fills.
//!
//! A benchmark user runs a model over the benchmark with the benchmark's own harness and
//! holds its output files (a ParaCook results file, a folder of TimeArena trajectories, a
//! folder of Recipe2Plan logs). The run report has one [`Row`] per answer, keyed by the
//! harness's own key, with the strict verdict beside the benchmark's own; the
//! [`Headline`] metrics of the whole run, each twice (as the benchmark's original scorer
//! computes it, and corrected); and every answer whose two verdicts differ, with the
//! reason ([`Difference`]).
//!
//! These are plain data (serde both ways, stable field names), so the CLI's table, CSV and
//! JSON, an HTML page and a Python binding all read the same values. The facade's
//! `makespan::score` fills them; each benchmark's folder knows its harness's files, its
//! original scorer and its headline metrics.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use makespan_model::instance::{Instance, LoadError, TimeUnit};
use makespan_model::schedule::ScheduledActivity;
use makespan_model::setting::Setting;
use makespan_verify::Report;

/// The `format` tag of a serialised [`RunReport`].
pub const RUN_REPORT_FORMAT: &str = "makespan-run-report/1";

/// A scored model run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    /// Always [`RUN_REPORT_FORMAT`].
    pub format: String,
    /// The benchmark whose harness wrote the run (`paracook`, `timearena`, `recipe2plan`).
    pub benchmark: String,
    /// The run as given: a results file or a folder of trajectories or logs.
    pub run: String,
    /// The root of the benchmark checkout the instances were read from.
    pub data: String,
    /// What [`Row::original_score`] and [`Row::corrected_score`] measure for this benchmark
    /// (e.g. `time`, `progress score`, `relative efficiency`).
    pub score_name: String,
    /// One row per answer, in the harness's order (sorted by key where it has none).
    pub rows: Vec<Row>,
    /// The benchmark's headline metrics over the whole run, original and corrected.
    pub headline: Headline,
    /// Every answer whose original and strict verdicts differ, with the reason.
    pub differences: Vec<Difference>,
    /// The checkout's keys in the run's scope that have no entry in the run (a harness that
    /// drops an answer it cannot parse leaves no trace of it but this), sorted; empty where
    /// the harness's keys are the user's own names.
    #[serde(default)]
    pub unanswered: Vec<String>,
    /// The unit of the rows' makespans and optima (the run's instances share it), for
    /// showing them as people read them ([`TimeUnit::show`]).
    #[serde(default)]
    pub time_unit: TimeUnit,
}

impl RunReport {
    /// The rows that could not be scored (each has an [`Row::error`]).
    pub fn unscored(&self) -> usize {
        self.rows.iter().filter(|r| r.error.is_some()).count()
    }

    /// The scored rows whose answer breaks a rule.
    pub fn invalid(&self) -> usize {
        self.rows.iter().filter(|r| r.valid == Some(false)).count()
    }
}

/// One answer of the run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The harness's own key for the entry (`burger/seed_42/agent_num_2/orders_num_4`, a
    /// trajectory's file name, a log's `<Recipe1>_<Recipe2>`).
    pub key: String,
    /// The name of the makespan instance the answer was checked against, when it was found.
    pub instance: Option<String>,
    /// The strict verdict: `Some(true)` when the answer breaks no rule; `None` when the entry
    /// could not be scored (see [`Row::error`]).
    pub valid: Option<bool>,
    /// Number of violations per rule (the rules' snake_case names).
    pub violations: BTreeMap<String, usize>,
    /// One line per violation: `rule: message`.
    pub messages: Vec<String>,
    /// The answer's makespan (latest end of what it placed); meaningful when valid.
    pub makespan: Option<i64>,
    /// The optimum (or best known makespan) of the instance.
    pub optimum: Option<i64>,
    /// Whether [`Row::optimum`] is proven optimal.
    pub proven: Option<bool>,
    /// The proven lower bound on the instance's optimum (equal to [`Row::optimum`] when
    /// that is proven).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound: Option<i64>,
    /// makespan / optimum, for a valid answer with a known optimum.
    pub ratio: Option<f64>,
    /// Whether the benchmark's original scorer accepts the answer as a success.
    pub original_valid: Option<bool>,
    /// The benchmark's own score of the answer, as its original scorer computes it.
    pub original_score: Option<f64>,
    /// The same score, computed from the strict verdict.
    pub corrected_score: Option<f64>,
    /// Remarks that change no verdict (a normalisation applied, a text the original
    /// environment would read differently).
    pub notes: Vec<String>,
    /// Why the entry could not be scored (an instance the data folder lacks, a key in an
    /// unknown form, a truncated log); the other fields are then mostly empty.
    pub error: Option<String>,
    /// Why the benchmark's own environment cannot complete this entry whatever the answer
    /// (TimeArena's container restriction); the fair metrics leave it out.
    #[serde(default)]
    pub unfinishable: Option<String>,
}

/// The benchmark's headline metrics over the whole run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Headline {
    /// Each metric, in the order the benchmark's paper reports them.
    pub metrics: Vec<Metric>,
}

/// One headline metric, as the original scorer computes it and corrected.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Metric {
    /// Short name as the benchmark's paper uses it (`SR`, `nOCT`, `AS`, `CT`, …).
    pub name: String,
    /// What it measures, in a few words.
    pub about: String,
    /// As the benchmark's original scorer computes it; `None` when it cannot (e.g. no
    /// reference run) or the original would crash.
    pub original: Option<f64>,
    /// From the strict verdicts (and the proven optima where the metric needs one).
    pub corrected: Option<f64>,
    /// The corrected figure over the entries the benchmark's own environment can complete
    /// ([`Row::unfinishable`] left out); `None` when every entry can be completed.
    #[serde(default)]
    pub fair: Option<f64>,
    /// Why the original figure is missing or is not what the benchmark's script prints
    /// (the script crashes, or has a known bug), and the value it meant where known.
    #[serde(default)]
    pub note: Option<String>,
}

impl Metric {
    /// A metric with its original and corrected figures, no fair figure and no note.
    pub fn new(name: &str, about: &str, original: Option<f64>, corrected: Option<f64>) -> Metric {
        Metric {
            name: name.into(),
            about: about.into(),
            original,
            corrected,
            fair: None,
            note: None,
        }
    }
}

/// An answer whose original and strict verdicts differ.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Difference {
    /// The row's key.
    pub key: String,
    /// The original scorer's verdict.
    pub original_valid: bool,
    /// The strict verdict.
    pub valid: bool,
    /// Why they differ: the known fault of the original scorer (e.g. ParaCook's
    /// unchecked list count, Recipe2Plan's incomplete plans counted as executed).
    pub reason: String,
}

/// A benchmark's harness outputs: how its whole runs are read, tied to their instances and
/// scored the way its original scorer does. The facade (`makespan::score`) adds the optima and
/// builds the [`RunReport`].
pub trait Harness: Sync {
    /// Whether `run` (a results file, or a folder of trajectories or logs) is this harness's
    /// output. Cheap: a look at the name, the folder or the first file's keys.
    fn recognises(&self, run: &Path) -> bool;

    /// What [`Row::original_score`] and [`Row::corrected_score`] measure.
    fn score_name(&self) -> &'static str;

    /// The run this harness reads, as a user would look for it (for the error that lists
    /// what `makespan score` accepts).
    fn run_form(&self) -> &'static str;

    /// Every answer of the run, tied to its instance under the checkout `data`, checked
    /// strictly and by the original's rules. An entry that cannot be scored is an `Err` row;
    /// only a run that cannot be read at all is an error.
    fn read(&self, run: &Path, data: &Path) -> Result<Vec<Entry>, LoadError>;

    /// The headline metrics, original and corrected, over the rows (optima filled in) and
    /// their entries, in the same order.
    fn headline(&self, rows: &[Row], entries: &[Entry]) -> Headline;

    /// The keys of the checkout the run was meant to answer, given the keys it has (`run`'s
    /// entries), and the headline's success metric, so that an answer the harness never
    /// recorded is listed and counted as a failure. `None` where the keys are names the user
    /// chose (they cannot be matched with the checkout).
    fn scope(&self, run: &Path, data: &Path, entries: &[Entry]) -> Option<Scope> {
        let _ = (run, data, entries);
        None
    }
}

/// The checkout's keys a run was meant to answer ([`Harness::scope`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope {
    /// Every key, in the harness's own form.
    pub keys: Vec<String>,
    /// The name of the headline metric that is a success rate (`SR`, `pass`): its twin over
    /// every key of the scope is added beside it.
    pub success_metric: &'static str,
    /// What the scope is, in a few words (`the checkout's task files for 2 and 3 cooks`).
    pub about: String,
}

/// One answer of a run as the harness wrote it.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The harness's own key for it.
    pub key: String,
    /// The answer checked, or why it cannot be (the row's error).
    pub scored: Result<Scored, String>,
}

impl Entry {
    /// An entry that cannot be scored.
    pub fn error(key: impl Into<String>, why: impl Into<String>) -> Entry {
        Entry {
            key: key.into(),
            scored: Err(why.into()),
        }
    }
}

/// An answer checked against its instance.
#[derive(Debug, Clone)]
pub struct Scored {
    /// The instance it answers.
    pub instance: Instance,
    /// The strict verdict.
    pub report: Report,
    /// The answer as a schedule of the instance (for explanations and pictures; empty when
    /// the answer could not be read).
    pub schedule: Vec<ScheduledActivity>,
    /// Whether the original scorer counts it a success.
    pub original_valid: Option<bool>,
    /// The benchmark's own score of it, as the original computes it.
    pub original_score: Option<f64>,
    /// The same score from the strict verdict.
    pub corrected_score: Option<f64>,
    /// Why the original's verdict differs from the strict one (a known fault of the original), when
    /// it does.
    pub difference: Option<String>,
    /// Remarks that change no verdict.
    pub notes: Vec<String>,
    /// What the benchmark's headline needs beyond the row (a reference time, a time series).
    pub extra: serde_json::Value,
    /// Why the benchmark's own environment cannot complete this entry whatever the answer.
    pub unfinishable: Option<String>,
}

/// The first of `candidates` (paths relative to the checkout `data`) that exists, so a
/// checkout as cloned, the data folder itself and a folder of several benchmarks all work;
/// else an error naming every place looked at.
pub fn find_in_checkout(
    data: &Path,
    candidates: &[&str],
    what: &str,
) -> Result<PathBuf, LoadError> {
    candidates
        .iter()
        .map(|c| data.join(c))
        .find(|p| p.exists())
        .ok_or_else(|| {
            let looked: Vec<String> = candidates
                .iter()
                .map(|c| data.join(c).display().to_string())
                .collect();
            LoadError::usage(
                data,
                format!(
                    "no {what} in this checkout (looked for {}); pass {} with the root of your checkout of the benchmark",
                    looked.join(", "),
                    Setting::Data
                ),
            )
        })
}

/// The mean of the values, `None` for none.
pub fn mean(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values
        .into_iter()
        .fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    (n > 0).then(|| sum / n as f64)
}

/// Each rule's violations counted, as `rule ×n` joined by commas (for reasons).
pub fn rule_counts(report: &Report) -> String {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for v in &report.violations {
        *counts.entry(v.rule.name()).or_default() += 1;
    }
    counts
        .iter()
        .map(|(r, n)| format!("{r} ×{n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The files of a run kept one per answer (TimeArena trajectories, Recipe2Plan logs): the
/// file itself, or every `.json` file of the folder (not below it), by name.
pub(crate) fn json_files(run: &Path) -> Vec<PathBuf> {
    if run.is_file() {
        return vec![run.to_path_buf()];
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(run)
        .into_iter()
        .flatten()
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

/// The deepest nesting serde_json reads (its recursion limit); a value nested deeper is an
/// error of that value alone once a results file is split into its entries.
pub const JSON_DEPTH_LIMIT: usize = 128;

/// A results file's top-level object split into its entries without parsing them: each key
/// (decoded) with its value's text and nesting depth, in the file's order (a repeated key keeps
/// its first place and its last value, as Python's `json.load` and serde_json do). The split is
/// one pass with a depth counter, never recursion, so one entry nested beyond
/// [`JSON_DEPTH_LIMIT`] is that entry's error, not the whole file's.
pub(crate) fn object_entries<'t>(
    path: &Path,
    text: &'t str,
) -> Result<Vec<(String, &'t str, usize)>, LoadError> {
    let bytes = text.as_bytes();
    let mut at = 0;
    let skip_space = |at: &mut usize| {
        while *at < bytes.len() && bytes[*at].is_ascii_whitespace() {
            *at += 1;
        }
    };
    let broken = |at: usize, what: &str| {
        LoadError::format(
            path,
            format!("byte {at}"),
            format!("{what}; a results file is one JSON object of entries"),
        )
    };
    // The end of the string opening at `start` (just past its closing quote).
    let string_end = |start: usize| -> Option<usize> {
        let mut i = start + 1;
        while i < bytes.len() {
            match bytes[i] {
                b'\\' => i += 2,
                b'"' => return Some(i + 1),
                _ => i += 1,
            }
        }
        None
    };
    skip_space(&mut at);
    if bytes.get(at) != Some(&b'{') {
        return Err(broken(at, "expected `{` (the top level is not an object)"));
    }
    at += 1;
    let mut entries: Vec<(String, &str, usize)> = Vec::new();
    let mut place: HashMap<String, usize> = HashMap::new();
    loop {
        skip_space(&mut at);
        match bytes.get(at) {
            Some(b'}') if entries.is_empty() => break,
            Some(b'"') => {}
            _ => return Err(broken(at, "expected a key in double quotes")),
        }
        let key_end = string_end(at).ok_or_else(|| broken(at, "a key's string never ends"))?;
        let key: String = serde_json::from_str(&text[at..key_end])
            .map_err(|e| broken(at, &format!("the key is not a JSON string ({e})")))?;
        at = key_end;
        skip_space(&mut at);
        if bytes.get(at) != Some(&b':') {
            return Err(broken(at, "expected `:` after the key"));
        }
        at += 1;
        skip_space(&mut at);
        let start = at;
        let (mut depth, mut deepest) = (0usize, 0usize);
        while at < bytes.len() {
            match bytes[at] {
                b'"' => {
                    at = string_end(at).ok_or_else(|| broken(at, "a string never ends"))?;
                    if depth == 0 {
                        break;
                    }
                    continue;
                }
                b'{' | b'[' => {
                    depth += 1;
                    deepest = deepest.max(depth);
                }
                b'}' | b']' if depth > 0 => {
                    depth -= 1;
                    if depth == 0 {
                        at += 1;
                        break;
                    }
                }
                b',' | b'}' | b']' if depth == 0 => break,
                _ => {}
            }
            at += 1;
        }
        if depth > 0 || at == start {
            return Err(broken(start, &format!("the value of {key:?} never ends")));
        }
        let value = text[start..at].trim_end();
        match place.get(&key) {
            Some(&i) => entries[i] = (key, value, deepest),
            None => {
                place.insert(key.clone(), entries.len());
                entries.push((key, value, deepest));
            }
        }
        skip_space(&mut at);
        match bytes.get(at) {
            Some(b',') => at += 1,
            Some(b'}') => break,
            _ => return Err(broken(at, "expected `,` or `}` after an entry")),
        }
    }
    at += 1;
    skip_space(&mut at);
    if at < bytes.len() {
        return Err(broken(at, "text after the object's end"));
    }
    Ok(entries)
}

/// A results file's entry: its key, and its value or why that entry alone cannot be read.
pub(crate) type ResultsEntry = (String, Result<serde_json::Value, String>);

/// Each entry of a results file ([`object_entries`]) parsed on its own: its value, or why that
/// entry alone cannot be read (nested beyond [`JSON_DEPTH_LIMIT`], not JSON).
pub(crate) fn results_entries(path: &Path) -> Result<Vec<ResultsEntry>, LoadError> {
    let text = makespan_model::input::read_text(path)?;
    Ok(object_entries(path, &text)?
        .into_iter()
        .map(|(key, value, depth)| {
            let parsed = if depth > JSON_DEPTH_LIMIT {
                Err(format!(
                    "the entry is nested {depth} levels deep, over the JSON reader's limit of {JSON_DEPTH_LIMIT}; an answer is a list of lists of names (3 levels with its entry)"
                ))
            } else {
                serde_json::from_str(value).map_err(|e| format!("the entry is not JSON: {e}"))
            };
            (key, parsed)
        })
        .collect())
}
