//! What we know about a task's upstream data: its gold answer and the known errors in it,
//! found by computation, never from a list of instance ids, so a new or corrected copy of
//! the data is judged on its own content.
//!
//! - **Compound-duration bug**: upstream kept only the last `N unit` of texts like
//!   `"2 hours 30 minutes"`; such steps are listed in `upstream_misread_steps`.
//! - **Gold errors** (`gold_error`): the gold interval differs from the longest path with
//!   the durations the prompt shows, because of the misread steps and/or because
//!   upstream's path enumeration left `lo` too low.
//! - **Mislabelled plan type** (`plan_type_error`): a `seq` task whose graph is not a chain.
//!   Its gold is still right (the longest path), only the label is wrong.

use serde_json::Value;

use super::{Notes, Task};

/// The notes of a task: provenance, gold, and every upstream error found. `edges` are the
/// task's edges without repeats.
pub(super) fn notes(task: &Task, edges: &[(usize, usize)]) -> Notes {
    let mut notes = Notes::new();
    notes.insert("id".into(), Value::from(task.id.clone()));
    notes.insert("split".into(), Value::from(task.split.clone()));
    notes.insert("index".into(), Value::from(task.index));
    notes.insert("title".into(), Value::from(task.title.clone()));
    if let Some((lo, hi)) = task.gold {
        notes.insert("gold_seconds_lo".into(), Value::from(lo));
        notes.insert("gold_seconds_hi".into(), Value::from(hi));
    }
    let misread: Vec<usize> = (1..=task.steps.len())
        .filter(|&k| task.steps[k - 1].full != task.steps[k - 1].upstream)
        .collect();
    if !misread.is_empty() {
        let ids: Vec<String> = misread.iter().map(usize::to_string).collect();
        notes.insert("upstream_misread_steps".into(), Value::from(ids));
    }
    if let Some(error) = gold_error(task, edges, &misread) {
        notes.insert("gold_error".into(), Value::from(error));
    }
    if task.split == "seq" {
        if let Some(error) = not_a_chain(task.steps.len(), edges) {
            notes.insert(
                "plan_type_error".into(),
                Value::from(format!(
                    "listed as seq (one chain of steps) but {error}; the gold is still the \
                     longest path, not the sum of the durations"
                )),
            );
        }
    }
    notes
}

/// Why the gold differs from the longest path with the durations the prompt shows, or
/// `None` if it does not (or there is no gold, or the steps form a cycle).
fn gold_error(task: &Task, edges: &[(usize, usize)], misread: &[usize]) -> Option<String> {
    let (gold_lo, gold_hi) = task.gold?;
    let path = |duration: &dyn Fn(usize) -> i64| longest_path(task.steps.len(), edges, duration);
    let steps = &task.steps;
    let true_lo = path(&|k| steps[k].full.0)?;
    let true_hi = path(&|k| steps[k].full.1)?;
    let upstream_lo = path(&|k| steps[k].upstream.0)?;
    let upstream_hi = path(&|k| steps[k].upstream.1)?;
    if (gold_lo, gold_hi) == (true_lo, true_hi) {
        return None;
    }
    let mut causes = Vec::new();
    if (upstream_lo, upstream_hi) != (true_lo, true_hi) {
        let readings: Vec<String> = misread
            .iter()
            .map(|&k| {
                let s = &steps[k - 1];
                format!(
                    "step {k} \"{}\" as {} instead of {}",
                    s.duration_text,
                    seconds(s.upstream),
                    seconds(s.full)
                )
            })
            .collect();
        causes.push(format!(
            "compound-duration bug: upstream read only the last component of {}, so the \
             critical path is {} with the durations the prompt shows",
            readings.join(" and "),
            seconds((true_lo, true_hi))
        ));
    }
    if gold_lo != upstream_lo {
        causes.push(format!(
            "lower-bound quirk: upstream's path enumeration set gold_lo to {gold_lo} s, but the \
             longest path with its own lo durations is {upstream_lo} s"
        ));
    }
    if gold_hi != upstream_hi {
        causes.push(format!(
            "unexplained: gold_hi is {gold_hi} s, but the longest path with upstream's own hi \
             durations is {upstream_hi} s"
        ));
    }
    Some(format!(
        "the gold [{gold_lo}, {gold_hi}] s is wrong; correct: [{true_lo}, {true_hi}] s; {}",
        causes.join("; ")
    ))
}

/// `"9000 s"`, or `"2419200..2678400 s"` for an interval.
fn seconds((lo, hi): (i64, i64)) -> String {
    if lo == hi {
        format!("{hi} s")
    } else {
        format!("{lo}..{hi} s")
    }
}

/// Longest path through the steps (1-based `edges`), node-weighted by `duration` (0-based
/// step index): the makespan with unlimited agents. `None` if the steps form a cycle.
fn longest_path(
    steps: usize,
    edges: &[(usize, usize)],
    duration: &dyn Fn(usize) -> i64,
) -> Option<i64> {
    let mut successors = vec![Vec::new(); steps];
    let mut waiting = vec![0usize; steps];
    for &(a, b) in edges {
        successors[a - 1].push(b - 1);
        waiting[b - 1] += 1;
    }
    let mut ready: Vec<usize> = (0..steps).filter(|&k| waiting[k] == 0).collect();
    let mut start = vec![0i64; steps];
    let (mut done, mut longest) = (0, 0);
    while let Some(k) = ready.pop() {
        done += 1;
        let end = start[k] + duration(k);
        longest = longest.max(end);
        for &next in &successors[k] {
            start[next] = start[next].max(end);
            waiting[next] -= 1;
            if waiting[next] == 0 {
                ready.push(next);
            }
        }
    }
    (done == steps).then_some(longest)
}

/// Why the steps do not form one chain, or `None` if they do.
fn not_a_chain(steps: usize, edges: &[(usize, usize)]) -> Option<String> {
    let mut successors = vec![0usize; steps + 1];
    let mut predecessors = vec![0usize; steps + 1];
    for &(a, b) in edges {
        successors[a] += 1;
        predecessors[b] += 1;
    }
    if let Some(k) = (1..=steps).find(|&k| successors[k] > 1) {
        return Some(format!("step {k} has {} successors", successors[k]));
    }
    if let Some(k) = (1..=steps).find(|&k| predecessors[k] > 1) {
        return Some(format!("step {k} has {} predecessors", predecessors[k]));
    }
    let acyclic = longest_path(steps, edges, &|_| 0).is_some();
    if edges.len() + 1 != steps.max(1) || !acyclic {
        return Some("the steps do not form one connected chain".into());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::tests::task;
    use super::*;

    #[test]
    fn longest_path_ignores_step_order_and_detects_cycles() {
        let d = [5, 1, 2];
        assert_eq!(longest_path(3, &[(3, 1), (2, 1)], &|k| d[k]), Some(7));
        assert_eq!(longest_path(3, &[], &|k| d[k]), Some(5));
        assert_eq!(longest_path(2, &[(1, 2), (2, 1)], &|_| 1), None);
    }

    #[test]
    fn a_misread_step_on_the_critical_path_is_a_gold_error() {
        let mut t = task(&["30 min", "2 hours 30 minutes", "1 hour"], &[(1, 2)]);
        t.gold = Some((3_600, 3_600));
        let notes = notes(&t, &t.edges);
        assert_eq!(notes["upstream_misread_steps"], serde_json::json!(["2"]));
        let error = notes["gold_error"].as_str().unwrap();
        assert!(
            error.starts_with("the gold [3600, 3600] s is wrong; correct: [10800, 10800] s"),
            "{error}"
        );
        assert!(
            error.contains("step 2 \"2 hours 30 minutes\" as 1800 s instead of 9000 s"),
            "{error}"
        );
        assert!(!error.contains("lower-bound"), "{error}");
    }

    #[test]
    fn a_misread_step_off_the_critical_path_is_no_gold_error() {
        let mut t = task(&["1 day", "1 hours 30 minutes"], &[]);
        t.gold = Some((86_400, 86_400));
        let notes = notes(&t, &t.edges);
        assert_eq!(notes["upstream_misread_steps"], serde_json::json!(["2"]));
        assert!(!notes.contains_key("gold_error"));
    }

    #[test]
    fn a_too_low_gold_lo_is_the_lower_bound_quirk() {
        let mut t = task(&["1 month", "1 month"], &[(1, 2)]);
        t.gold = Some((50 * 86_400, 62 * 86_400));
        let error = notes(&t, &t.edges)["gold_error"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(error.contains("lower-bound quirk"), "{error}");
        assert!(!error.contains("compound"), "{error}");
    }

    #[test]
    fn a_correct_gold_has_no_error_note() {
        let mut t = task(&["1 month", "1 day"], &[(1, 2)]);
        t.gold = Some((29 * 86_400, 32 * 86_400));
        let notes = notes(&t, &t.edges);
        assert!(!notes.contains_key("gold_error"));
        assert!(!notes.contains_key("upstream_misread_steps"));
        assert_eq!(notes["gold_seconds_hi"], 32 * 86_400);
    }

    #[test]
    fn seq_tasks_that_are_not_chains_are_flagged() {
        let mut t = task(
            &["1 min", "1 min", "1 min", "1 min"],
            &[(1, 2), (1, 3), (2, 4), (3, 4)],
        );
        t.split = "seq".into();
        let note = notes(&t, &t.edges)["plan_type_error"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(note.contains("step 1 has 2 successors"), "{note}");
        t.edges = vec![(3, 1), (1, 2), (2, 4)];
        assert!(!notes(&t, &t.edges).contains_key("plan_type_error"));
        t.edges = vec![(1, 2), (3, 4)];
        assert!(notes(&t, &t.edges)["plan_type_error"]
            .as_str()
            .unwrap()
            .contains("connected"));
    }
}
