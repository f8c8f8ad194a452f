//! Per-agent ordered lists of activity ids, the answer form of ParaCook (and of any
//! benchmark where an agent only says who does what in which order):
//! `[["subtask2", "subtask3"], ["subtask1"]]`, list `i` being agent `i`.
//!
//! Lists carry no times, so they are decoded semi-actively, as ParaCook's own scorer does:
//! each activity starts at the earliest time its list predecessor (the agent is free after
//! its busy time, plus any setup) and its precedences (`anchor + min_lag` of every
//! predecessor) allow, and not before its release. The decoded schedule then goes through
//! [`verify`], so lists are held to every rule of the instance. Unlike the scorer, this
//! reports unknown ids, missing and repeated activities, lists beyond the agent count and
//! lists that wait on each other, each naming the activities, instead of crashing or
//! accepting them. A list beyond the agent count that holds work is reported as
//! [`Rule::TooManyAgents`] (one violation per extra agent), and so is an empty extra list
//! (at most one list per agent). A repeated activity is checked at its first occurrence
//! (list by list); later occurrences still take their agent's time, as in the scorer.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use makespan_model::instance::{Activity, AgentUse, Instance, LoadError, Precedence, Relation};
use makespan_model::schedule::{Piece, ScheduledActivity};

use makespan_verify::{verify, Report, Rule, Violation};

/// Reads an answer strictly, as a verifier should call the model's
/// answer: outside any `<think>…</think>` block, the first fenced block whatever its language
/// tag and case (```` ``` ````, ```` ```json ````, ```` ```JSON ````), else the bare text, parsed
/// as standard JSON (no comments, no single quotes) into a list of lists of ids. Everything
/// dropped is blanked, not cut, so errors point at the line and column of the original text.
/// Where ParaCook's own `extract_json` reads the text differently, [`original_reading`] says
/// how.
pub fn read_agent_lists(path: &Path, text: &str) -> Result<Vec<Vec<String>>, LoadError> {
    let cleaned = strict_text(text);
    serde_json::from_str(&cleaned).map_err(|e| {
        let mut err = LoadError::json_in(path, &cleaned, &e);
        if let LoadError::Json { message, .. } = &mut err {
            message.push_str("; expected a JSON list of lists of activity ids, one list per agent");
        }
        err
    })
}

/// An answer's JSON value, read strictly as [`read_agent_lists`] reads it (thinking and the
/// text around one fenced block blanked, so line and column still point into the answer).
pub fn read_strict_value(path: &Path, text: &str) -> Result<serde_json::Value, LoadError> {
    let cleaned = strict_text(text);
    serde_json::from_str(&cleaned).map_err(|e| LoadError::json_in(path, &cleaned, &e))
}

/// The answer with thinking and the text around its fenced block blanked out.
fn strict_text(text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    blank_between(&mut bytes, b"<think>", b"</think>");
    if let Some((start, end)) = fenced_any(&bytes) {
        blank(&mut bytes[..start]);
        blank(&mut bytes[end..]);
    }
    // Only ASCII bytes were replaced by ASCII bytes, so the text is still UTF-8.
    String::from_utf8_lossy(&bytes).into_owned()
}

/// What ParaCook's own `extract_json` (`src/utils/utils.py`) and `test_subtasks` make of an
/// answer, exactly: `<think>…</think>` removed; `//` and the rest of its line
/// removed everywhere, inside strings too; the first lower-case ```` ```json ```` block parsed
/// as it is, else the whole text with every `'` turned into `"`. `Err` says why the harness
/// would record `[[""]]` (not done).
pub fn original_reading(text: &str) -> Result<Vec<Vec<String>>, String> {
    let value = original_value(text)?;
    let lists = value
        .as_array()
        .filter(|l| l.iter().all(serde_json::Value::is_array))
        .ok_or("the parsed value is not a list of lists")?;
    lists
        .iter()
        .map(|l| {
            l.as_array()
                .into_iter()
                .flatten()
                .map(|id| {
                    id.as_str()
                        .map(str::to_string)
                        .ok_or_else(|| format!("{id} is not a subtask name"))
                })
                .collect()
        })
        .collect()
}

/// The JSON value ParaCook's `extract_json` makes of an answer (see [`original_reading`]),
/// or why `json.loads` fails on it.
pub fn original_value(text: &str) -> Result<serde_json::Value, String> {
    let mut bytes = text.as_bytes().to_vec();
    blank_between(&mut bytes, b"<think>", b"</think>");
    blank_all_line_comments(&mut bytes);
    let candidate = match fenced_json(&bytes) {
        Some((start, end)) => bytes[start..end].to_vec(),
        None => bytes
            .iter()
            .map(|&b| if b == b'\'' { b'"' } else { b })
            .collect(),
    };
    serde_json::from_slice(&candidate).map_err(|e| format!("json.loads fails ({e})"))
}

/// Where the strict reading and ParaCook's `extract_json` disagree on an answer's text: a
/// note for the report, or `None` when both read the same lists (or both fail).
pub fn reading_difference(
    strict: &Result<Vec<Vec<String>>, LoadError>,
    text: &str,
) -> Option<String> {
    match (strict, original_reading(text)) {
        (Ok(a), Ok(b)) if *a == b => None,
        (Err(_), Err(_)) => None,
        (Ok(_), Ok(b)) => Some(format!(
            "ParaCook's extract_json reads other lists from this text: {}",
            serde_json::to_string(&b).unwrap_or_default()
        )),
        (Ok(_), Err(why)) => Some(format!(
            "ParaCook's extract_json cannot read this text ({why}): its harness records [[\"\"]], not done"
        )),
        (Err(_), Ok(b)) => Some(format!(
            "ParaCook's extract_json accepts this text (comments or single quotes, which strict JSON refuses) and reads {}",
            serde_json::to_string(&b).unwrap_or_default()
        )),
    }
}

/// The lists turned into a schedule, with what decoding itself found wrong.
#[derive(Debug, Clone)]
pub struct Decoded {
    /// One entry per listed activity that could be decoded (its first occurrence), on the
    /// agent of its list.
    pub schedule: Vec<ScheduledActivity>,
    /// Unknown ids, repeated activities and deadlocks.
    pub violations: Vec<Violation>,
    /// Listed activities that were never reached because their list is stuck.
    pub stuck: Vec<String>,
}

/// Decodes per-agent lists semi-actively (see the module docs). Never fails: every
/// problem becomes a violation.
pub fn decode(instance: &Instance, lists: &[Vec<String>]) -> Decoded {
    let activities: HashMap<&str, &Activity> = instance
        .activities
        .iter()
        .map(|a| (a.id.as_str(), a))
        .collect();
    let mut violations = Vec::new();
    let mut first: HashMap<&str, (usize, usize)> = HashMap::new();
    let mut places: HashMap<&str, Vec<(usize, usize)>> = HashMap::new();
    let mut repeated = Vec::new();
    for (l, list) in lists.iter().enumerate() {
        for (pos, id) in list.iter().enumerate() {
            let Some(a) = activities.get(id.as_str()) else {
                violations.push(unknown(instance, l, pos, id));
                continue;
            };
            let id = a.id.as_str();
            first.entry(id).or_insert((l, pos));
            let at = places.entry(id).or_default();
            if at.len() == 1 {
                repeated.push(id);
            }
            at.push((l, pos));
        }
    }
    for id in repeated {
        violations.push(repeated_activity(id, &places[id]));
    }
    // Lists beyond the agent count that hold work are placed on agents that do not exist
    // and reported by the verifier; empty ones would pass unseen, so they are named here.
    let agents = instance.agents.map_or(usize::MAX, |m| m as usize);
    for (l, list) in lists.iter().enumerate().skip(agents) {
        if list.is_empty() {
            violations.push(extra_empty_list(instance, l, lists.len()));
        }
    }

    let mut into: HashMap<&str, Vec<&Precedence>> = HashMap::new();
    for p in &instance.precedences {
        if first.contains_key(p.before.as_str()) {
            into.entry(p.after.as_str()).or_default().push(p);
        }
    }
    let setups: HashMap<(&str, &str), i64> = instance
        .setups
        .iter()
        .map(|s| ((s.from.as_str(), s.to.as_str()), s.time))
        .collect();

    // Decoded (start, end) of each activity's first occurrence.
    let mut times: HashMap<&str, (i64, i64)> = HashMap::new();
    let mut cursor = vec![0usize; lists.len()];
    let mut agents: Vec<AgentState> = vec![AgentState::default(); lists.len()];
    let mut schedule = Vec::new();
    loop {
        let mut progress = false;
        for (l, list) in lists.iter().enumerate() {
            while let Some(id) = list.get(cursor[l]) {
                let pos = cursor[l];
                let Some(&a) = activities.get(id.as_str()) else {
                    cursor[l] += 1;
                    continue;
                };
                let preds = into.get(a.id.as_str()).map(Vec::as_slice).unwrap_or(&[]);
                let Some(ready) = earliest(a, preds, &times) else {
                    break;
                };
                let (start, agent_free) = agents[l].place(a, ready, &setups);
                let end = start.saturating_add(a.duration);
                agents[l] = agent_free;
                if first.get(a.id.as_str()) == Some(&(l, pos)) {
                    times.insert(a.id.as_str(), (start, end));
                    schedule.push(ScheduledActivity {
                        activity: a.id.clone(),
                        agent: Some(u32::try_from(l).unwrap_or(u32::MAX)),
                        pieces: vec![Piece(start, end)],
                    });
                }
                cursor[l] += 1;
                progress = true;
            }
        }
        if !progress {
            break;
        }
    }

    let mut stuck = Vec::new();
    for (l, list) in lists.iter().enumerate() {
        let Some(head) = list.get(cursor[l]) else {
            continue;
        };
        stuck.extend(
            list[cursor[l]..]
                .iter()
                .filter(|id| {
                    activities.contains_key(id.as_str()) && !times.contains_key(id.as_str())
                })
                .cloned(),
        );
        let waits: Vec<&str> = into
            .get(head.as_str())
            .into_iter()
            .flatten()
            .map(|p| p.before.as_str())
            .filter(|b| !times.contains_key(b))
            .collect();
        violations.push(deadlock(
            lists,
            &cursor,
            &first,
            l,
            head,
            &waits,
            agents[l].free_at,
        ));
    }
    stuck.sort();
    stuck.dedup();
    Decoded {
        schedule,
        violations,
        stuck,
    }
}

/// Decodes the lists and verifies the result. Decoding's own findings come first; missing
/// activities that are listed but stuck behind a deadlock are not reported twice.
pub fn verify_agent_lists(instance: &Instance, lists: &[Vec<String>]) -> Report {
    check_agent_lists(instance, lists).1
}

/// [`verify_agent_lists`], with the decoded schedule.
pub fn check_agent_lists(
    instance: &Instance,
    lists: &[Vec<String>],
) -> (Vec<ScheduledActivity>, Report) {
    let decoded = decode(instance, lists);
    let mut report = verify(instance, &decoded.schedule);
    let stuck: HashSet<&str> = decoded.stuck.iter().map(String::as_str).collect();
    report.violations.retain(|v| {
        !(v.rule == Rule::MissingActivity
            && v.activities.iter().any(|a| stuck.contains(a.as_str())))
    });
    let mut violations = decoded.violations;
    violations.append(&mut report.violations);
    report.valid = violations.is_empty();
    report.violations = violations;
    if report.deadlocked_at().is_some() {
        // Lists that never finish have no makespan (nor idle time up to one): the end of the
        // part they placed looked like one, in text, CSV and JSON alike.
        report.makespan = None;
        report.agent_idle_time = None;
    }
    (decoded.schedule, report)
}

/// Where one list's agent stands: free from `free_at`, last busy at `station`.
#[derive(Debug, Clone, Copy, Default)]
struct AgentState<'a> {
    free_at: i64,
    station: Option<&'a str>,
}

impl<'a> AgentState<'a> {
    /// The start of `a` on this agent, not before `ready`, and the agent's state after it.
    fn place(
        self,
        a: &'a Activity,
        ready: i64,
        setups: &HashMap<(&str, &str), i64>,
    ) -> (i64, AgentState<'a>) {
        let busy = match a.agent {
            AgentUse::Whole => a.duration,
            AgentUse::BusyFor(k) => k,
            AgentUse::StartInstant | AgentUse::None => 0,
        };
        let setup = match (self.station, a.station.as_deref()) {
            (Some(from), Some(to)) if busy > 0 => setups.get(&(from, to)).copied().unwrap_or(0),
            _ => 0,
        };
        let start = ready.max(self.free_at.saturating_add(setup));
        let after = if busy > 0 {
            AgentState {
                free_at: start.saturating_add(busy),
                station: a.station.as_deref(),
            }
        } else {
            AgentState {
                free_at: start,
                station: self.station,
            }
        };
        (start, after)
    }
}

/// The earliest start the precedences and the release allow, or `None` while a listed
/// predecessor has not been decoded yet.
fn earliest(a: &Activity, preds: &[&Precedence], times: &HashMap<&str, (i64, i64)>) -> Option<i64> {
    let mut t = a.release.unwrap_or(0);
    for p in preds {
        let &(start, end) = times.get(p.before.as_str())?;
        let anchor = match p.relation {
            Relation::FinishToStart => end,
            Relation::StartToStart => start,
        };
        t = t.max(anchor.saturating_add(p.min_lag));
    }
    Some(t)
}

fn unknown(instance: &Instance, l: usize, pos: usize, id: &str) -> Violation {
    Violation::new(
        Rule::UnknownActivity,
        vec![id.to_string()],
        None,
        format!(
            "list {l} names `{id}` at position {pos}, which is not an activity of instance `{}`",
            instance.name
        ),
        format!("remove `{id}` from list {l} or correct its name"),
    )
}

fn extra_empty_list(instance: &Instance, l: usize, n: usize) -> Violation {
    let m = instance.agents.unwrap_or(0);
    Violation::new(
        Rule::TooManyAgents,
        Vec::new(),
        None,
        format!("the answer has {n} lists for {m} agent(s): list {l} is one too many (it is empty); the benchmark asks for one list per agent"),
        format!("give exactly {m} list(s), one per agent"),
    )
}

fn repeated_activity(id: &str, at: &[(usize, usize)]) -> Violation {
    let where_: Vec<String> = at
        .iter()
        .map(|(l, p)| format!("list {l} position {p}"))
        .collect();
    Violation::new(
        Rule::DuplicateActivity,
        vec![id.to_string()],
        None,
        format!(
            "`{id}` appears {} times ({}); it must be done exactly once",
            at.len(),
            where_.join(", ")
        ),
        format!("keep `{id}` in one list only, once (the first occurrence is the one checked)"),
    )
}

/// A stuck list: its head waits for activities that can never finish before it.
fn deadlock(
    lists: &[Vec<String>],
    cursor: &[usize],
    first: &HashMap<&str, (usize, usize)>,
    l: usize,
    head: &str,
    waits: &[&str],
    since: i64,
) -> Violation {
    let pos = cursor[l];
    let mut reasons = Vec::new();
    let mut hints = Vec::new();
    for &w in waits {
        let Some(&(k, j)) = first.get(w) else {
            continue;
        };
        if k == l {
            reasons.push(format!(
                "`{w}`, which comes later in the same list (position {j})"
            ));
            hints.push(format!("move `{w}` before `{head}` in list {l}"));
        } else {
            let blocker = lists[k]
                .get(cursor[k])
                .map_or("its end".to_string(), |b| format!("`{b}`"));
            reasons.push(format!("`{w}` (list {k}, position {j}), which list {k} never reaches: it is stuck at {blocker}"));
            hints.push(format!(
                "reorder the lists so that `{w}` can run before `{head}`"
            ));
        }
    }
    let mut activities = vec![head.to_string()];
    activities.extend(waits.iter().map(|w| w.to_string()));
    Violation::new(
        Rule::Deadlock,
        activities,
        Some(since),
        format!(
            "list {l} cannot go on at `{head}` (position {pos}): it waits for {}",
            reasons.join(" and ")
        ),
        hints.join("; "),
    )
}

/// Blanks every `open … close` region (the first `close` after each `open`); an `open`
/// without a `close` is left alone, as Python's non-greedy regex does.
fn blank_between(bytes: &mut [u8], open: &[u8], close: &[u8]) {
    let mut from = 0;
    while let Some(s) = find(&bytes[from..], open).map(|i| i + from) {
        let Some(e) =
            find(&bytes[s + open.len()..], close).map(|i| i + s + open.len() + close.len())
        else {
            return;
        };
        blank(&mut bytes[s..e]);
        from = e;
    }
}

/// The content of the first lower-case ```` ```json ```` … ```` ``` ```` block, as a byte
/// range (ParaCook's `extract_json`).
fn fenced_json(bytes: &[u8]) -> Option<(usize, usize)> {
    let open = b"```json";
    let start = find(bytes, open)? + open.len();
    let end = start + find(&bytes[start..], b"```")?;
    Some((start, end))
}

/// The content of the first fenced block whatever its language tag (the rest of the opening
/// line), as a byte range (the strict reading).
fn fenced_any(bytes: &[u8]) -> Option<(usize, usize)> {
    let open = find(bytes, b"```")? + 3;
    let tag = bytes[open..]
        .iter()
        .position(|b| !b.is_ascii_alphanumeric())
        .map_or(bytes.len(), |n| open + n);
    let end = tag + find(&bytes[tag..], b"```")?;
    Some((tag, end))
}

/// Blanks `//` and the rest of its line everywhere, inside strings too, as ParaCook's
/// `extract_json` does.
fn blank_all_line_comments(bytes: &mut [u8]) {
    let mut i = 0;
    while let Some(at) = find(&bytes[i..], b"//").map(|n| n + i) {
        let end = bytes[at..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(bytes.len(), |n| at + n);
        blank(&mut bytes[at..end]);
        i = end;
    }
}

/// Replaces bytes by spaces, keeping line breaks so positions stay valid.
fn blank(bytes: &mut [u8]) {
    for b in bytes.iter_mut().filter(|b| **b != b'\n') {
        *b = b' ';
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use makespan_testkit::instance;

    fn lists(v: &[&[&str]]) -> Vec<Vec<String>> {
        v.iter()
            .map(|l| l.iter().map(|s| s.to_string()).collect())
            .collect()
    }

    fn rules(report: &Report) -> Vec<Rule> {
        report.violations.iter().map(|v| v.rule).collect()
    }

    /// ParaCook-like: a → b (lag 2), c independent.
    fn kitchen(agents: u32) -> Instance {
        instance(
            Some(agents),
            &[("a", 3), ("b", 2), ("c", 4)],
            &[("a", "b", 2)],
        )
    }

    #[test]
    fn decoding_is_semi_active_like_the_scorer() {
        let inst = kitchen(2);
        let decoded = decode(&inst, &lists(&[&["c", "b"], &["a"]]));
        let at: HashMap<&str, Vec<Piece>> = decoded
            .schedule
            .iter()
            .map(|s| (s.activity.as_str(), s.pieces.clone()))
            .collect();
        assert_eq!(at["a"], [Piece(0, 3)]);
        assert_eq!(at["c"], [Piece(0, 4)]);
        // b waits for its list predecessor c (4) and for a's end + lag (5).
        assert_eq!(at["b"], [Piece(5, 7)]);
        let report = verify_agent_lists(&inst, &lists(&[&["c", "b"], &["a"]]));
        assert!(report.valid, "{}", report.render_text());
        assert_eq!(report.makespan, Some(7));
    }

    #[test]
    fn paracook_quirk_b_reports_the_missing_and_the_repeated_task() {
        let inst = instance(Some(2), &[("a", 1), ("b", 1), ("c", 1)], &[]);
        let report = verify_agent_lists(&inst, &lists(&[&["a", "b"], &["a", "a"]]));
        assert_eq!(
            rules(&report),
            [Rule::DuplicateActivity, Rule::MissingActivity],
            "{}",
            report.render_text()
        );
        assert_eq!(report.violations[0].activities, ["a"]);
        assert!(report.violations[0].message.contains("3 times"));
        assert_eq!(report.violations[1].activities, ["c"]);
    }

    #[test]
    fn four_lists_for_two_agents_are_reported() {
        let inst = instance(Some(2), &[("a", 1), ("b", 1), ("c", 1), ("d", 1)], &[]);
        let report = verify_agent_lists(&inst, &lists(&[&["a"], &["b"], &["c"], &["d"]]));
        assert_eq!(
            rules(&report),
            [Rule::TooManyAgents, Rule::TooManyAgents],
            "{}",
            report.render_text()
        );
        assert_eq!(report.violations[0].activities, ["c"]);
        assert_eq!(report.violations[1].activities, ["d"]);
    }

    #[test]
    fn unknown_names_are_violations_not_crashes() {
        let inst = kitchen(1);
        let report = verify_agent_lists(&inst, &lists(&[&["a", "ghost", "b", "c"]]));
        assert_eq!(rules(&report), [Rule::UnknownActivity]);
        assert!(report.violations[0].message.contains("position 1"));
    }

    #[test]
    fn decoder_deadlock_successor_before_predecessor_in_one_list() {
        let inst = kitchen(1);
        let report = verify_agent_lists(&inst, &lists(&[&["b", "a", "c"]]));
        assert_eq!(rules(&report), [Rule::Deadlock], "{}", report.render_text());
        let v = &report.violations[0];
        assert_eq!(v.activities, ["b", "a"]);
        assert_eq!(v.hint, "move `a` before `b` in list 0");
    }

    /// A deadlocked answer was reported with the end of what it placed as its "makespan".
    #[test]
    fn a_deadlocked_answer_has_no_makespan_only_the_time_it_stops() {
        let inst = kitchen(1);
        let report = verify_agent_lists(&inst, &lists(&[&["c", "b", "a"]]));
        assert_eq!(rules(&report), [Rule::Deadlock], "{}", report.render_text());
        assert_eq!((report.makespan, report.agent_idle_time), (None, None));
        assert_eq!(report.deadlocked_at(), Some(4));
        let text = report.render_text();
        assert!(text.contains("deadlocked at 4, so no makespan"), "{text}");
        assert!(!text.contains("makespan 4"), "{text}");
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["makespan"], serde_json::Value::Null);
    }

    #[test]
    fn decoder_deadlock_lists_waiting_on_each_other() {
        let inst = instance(
            Some(2),
            &[("a", 1), ("b", 1), ("c", 1), ("d", 1)],
            &[("a", "b", 0), ("c", "d", 0)],
        );
        let report = verify_agent_lists(&inst, &lists(&[&["b", "c"], &["d", "a"]]));
        assert_eq!(
            rules(&report),
            [Rule::Deadlock, Rule::Deadlock],
            "{}",
            report.render_text()
        );
        assert_eq!(report.violations[0].activities, ["b", "a"]);
        assert!(
            report.violations[0].message.contains("stuck at `d`"),
            "{}",
            report.violations[0].message
        );
        assert_eq!(report.violations[1].activities, ["d", "c"]);
    }

    #[test]
    fn an_empty_list_beyond_the_agent_count_is_reported() {
        let inst = kitchen(1);
        let report = verify_agent_lists(&inst, &lists(&[&["a", "b", "c"], &[]]));
        assert_eq!(
            rules(&report),
            [Rule::TooManyAgents],
            "{}",
            report.render_text()
        );
        assert!(report.violations[0].message.contains("2 lists for 1 agent"));
        assert!(verify_agent_lists(&kitchen(2), &lists(&[&["a", "b", "c"], &[]])).valid);
    }

    #[test]
    fn reads_a_bare_list_and_a_fenced_llm_answer_strictly() {
        let p = Path::new("answer.txt");
        assert_eq!(
            read_agent_lists(p, r#"[["a", "b"], ["c"]]"#).unwrap(),
            lists(&[&["a", "b"], &["c"]])
        );
        let answer = "<think>maybe ```json [[\"x\"]] ``` no</think>Here:\n```json\n[[\"a\"],\n [\"b\"]]\n```\nDone.";
        assert_eq!(
            read_agent_lists(p, answer).unwrap(),
            lists(&[&["a"], &["b"]])
        );
        assert_eq!(original_reading(answer).unwrap(), lists(&[&["a"], &["b"]]));
        assert!(reading_difference(&read_agent_lists(p, answer), answer).is_none());
    }

    #[test]
    fn plain_and_upper_case_fences_are_read_strictly_but_fail_in_extract_json() {
        let p = Path::new("answer.txt");
        for answer in [
            "```\n[[\"a\"], [\"b\"]]\n```",
            "Plan:\n```JSON\n[[\"a\"], [\"b\"]]\n```",
        ] {
            let strict = read_agent_lists(p, answer);
            assert_eq!(strict.as_ref().unwrap(), &lists(&[&["a"], &["b"]]));
            assert!(original_reading(answer).is_err(), "{answer}");
            let note = reading_difference(&strict, answer).unwrap();
            assert!(note.contains("cannot read this text"), "{note}");
        }
    }

    #[test]
    fn single_quotes_and_comments_are_malformed_strictly_but_pass_extract_json() {
        let p = Path::new("answer.txt");
        for answer in ["[['a'], ['b']]", "[[\"a\"], // first cook\n [\"b\"]]"] {
            let strict = read_agent_lists(p, answer);
            assert!(strict.is_err(), "{answer}");
            assert_eq!(original_reading(answer).unwrap(), lists(&[&["a"], &["b"]]));
            let note = reading_difference(&strict, answer).unwrap();
            assert!(note.contains("accepts this text"), "{note}");
        }
    }

    #[test]
    fn prose_before_a_bare_list_is_malformed_in_both_readings() {
        let p = Path::new("answer.txt");
        let answer = "The plan is:\n[[\"a\"], [\"b\"]]";
        assert!(read_agent_lists(p, answer).is_err());
        assert!(original_reading(answer).is_err());
    }

    #[test]
    fn extract_json_removes_comments_inside_strings_too() {
        // `//` inside a name cuts the line in the original; the strict reading keeps it.
        let answer = "[[\"a//b\"]]";
        assert!(original_reading(answer).is_err());
        assert_eq!(
            read_agent_lists(Path::new("a"), answer).unwrap(),
            lists(&[&["a//b"]])
        );
    }

    #[test]
    fn malformed_answer_names_the_original_line_and_column() {
        let answer = "<think>\nlong\nthoughts\n</think>\n```json\n[[\"a\", 3]]\n```";
        let err = read_agent_lists(Path::new("answer.txt"), answer).unwrap_err();
        let text = err.to_string();
        assert!(text.starts_with("answer.txt: line 6, column"), "{text}");
        assert!(text.contains("list of lists"), "{text}");
        let err = read_agent_lists(Path::new("answer.txt"), "[[\"a\"], [\"b\"").unwrap_err();
        assert!(err.to_string().contains("truncated"), "{err}");
    }
}
