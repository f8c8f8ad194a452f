//! The project's normalised AsyncHow file, `instances.json`.
//!
//! Its precomputed seconds are not trusted but checked: each step's `seconds_full_*` must
//! agree with our reading of its `duration_text`, and `seconds_*` with upstream's, so a
//! hand-edited or stale file is caught instead of silently solving a different problem.

use std::path::Path;

use serde::Deserialize;

use super::{check_edge, instances, Step, Task};
use crate::ImportOptions;
use makespan_model::instance::{Instance, LoadError};

#[derive(Deserialize)]
struct InstancesFile {
    instances: Vec<JsonTask>,
}

#[derive(Deserialize)]
struct JsonTask {
    id: String,
    split: String,
    index: usize,
    title: String,
    steps: Vec<JsonStep>,
    edges: Vec<(usize, usize)>,
    gold_seconds_lo: Option<i64>,
    gold_seconds_hi: Option<i64>,
}

#[derive(Deserialize)]
struct JsonStep {
    id: usize,
    text: String,
    duration_text: String,
    seconds_lo: Option<i64>,
    seconds_hi: Option<i64>,
    seconds_full_lo: Option<i64>,
    seconds_full_hi: Option<i64>,
}

/// Every instance of `instances.json` (the variants are described in [`super`]).
pub fn import_json(
    path: &Path,
    text: &str,
    opts: &ImportOptions,
) -> Result<Vec<Instance>, LoadError> {
    let file: InstancesFile =
        serde_json::from_str(text).map_err(|e| LoadError::json_in(path, text, &e))?;
    let mut out = Vec::new();
    for (i, raw) in file.instances.into_iter().enumerate() {
        let at = format!("instances[{i}] ({})", raw.id);
        let checked = task(raw)
            .map_err(|(place, message)| LoadError::format(path, format!("{at}{place}"), message))?;
        out.extend(instances(&checked, path, opts));
    }
    Ok(out)
}

/// Checks one entry; an error is `(place inside the entry, message)`.
fn task(raw: JsonTask) -> Result<Task, (String, String)> {
    let mut steps = Vec::with_capacity(raw.steps.len());
    for (i, s) in raw.steps.into_iter().enumerate() {
        let at = format!(".steps[{i}]");
        if s.id != i + 1 {
            return Err((
                format!("{at}.id"),
                format!(
                    "is {}; steps must be numbered 1, 2, 3, … in list order",
                    s.id
                ),
            ));
        }
        let step = Step::new(s.text, s.duration_text)
            .map_err(|message| (format!("{at}.duration_text"), message))?;
        for (field, given, ours) in [
            ("seconds_full_lo", s.seconds_full_lo, step.full.0),
            ("seconds_full_hi", s.seconds_full_hi, step.full.1),
            ("seconds_lo", s.seconds_lo, step.upstream.0),
            ("seconds_hi", s.seconds_hi, step.upstream.1),
        ] {
            if given.is_some_and(|given| given != ours) {
                return Err((
                    format!("{at}.{field}"),
                    format!(
                        "is {} but duration_text \"{}\" gives {ours}; correct one of them \
                         (or drop {field}: the text is what counts)",
                        given.unwrap_or_default(),
                        step.duration_text
                    ),
                ));
            }
        }
        steps.push(step);
    }
    for (i, &edge) in raw.edges.iter().enumerate() {
        check_edge(edge, steps.len()).map_err(|message| (format!(".edges[{i}]"), message))?;
    }
    let gold = match (raw.gold_seconds_lo, raw.gold_seconds_hi) {
        (Some(lo), Some(hi)) => Some((lo, hi)),
        (None, None) => None,
        _ => {
            return Err((
                String::new(),
                "has only one of gold_seconds_lo and gold_seconds_hi; give both or neither".into(),
            ))
        }
    };
    Ok(Task {
        id: raw.id,
        split: raw.split,
        index: raw.index,
        title: raw.title,
        steps,
        edges: raw.edges,
        gold,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = r#"{"counts": {"async": 1}, "instances": [{
        "id": "async-0163", "split": "async", "index": 163, "title": "How to start a book club",
        "steps": [
            {"id": 1, "text": "Find friends.", "duration_text": "30 minutes",
             "seconds_lo": 1800, "seconds_hi": 1800, "seconds_full_lo": 1800, "seconds_full_hi": 1800},
            {"id": 2, "text": "Meet.", "duration_text": "2 hours 30 minutes",
             "seconds_lo": 1800, "seconds_hi": 1800, "seconds_full_lo": 9000, "seconds_full_hi": 9000}
        ],
        "edges": [[1, 2]],
        "gold_seconds_lo": 3600, "gold_seconds_hi": 3600
    }]}"#;

    fn import_text(text: &str) -> Result<Vec<Instance>, String> {
        import_json(Path::new("instances.json"), text, &ImportOptions::default())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn reads_steps_edges_gold_and_flags_the_compound_bug() {
        let insts = import_text(FILE).unwrap();
        assert_eq!(insts.len(), 1);
        assert_eq!(insts[0].name, "asynchow-async-0163");
        assert_eq!(insts[0].activities[1].duration, 9_000);
        let notes = &insts[0].source.as_ref().unwrap().notes;
        assert_eq!(notes["title"], "How to start a book club");
        assert_eq!(notes["gold_seconds_lo"], 3_600);
        assert!(notes["gold_error"]
            .as_str()
            .unwrap()
            .contains("compound-duration bug"));
    }

    #[test]
    fn unknown_unit_names_the_instance_and_step() {
        let err = import_text(&FILE.replace("30 minutes\"", "30 fortnights\"")).unwrap_err();
        assert!(err.starts_with("instances.json: instances[0] (async-0163).steps[0].duration_text: unknown time unit \"fortnights\""), "{err}");
    }

    #[test]
    fn seconds_that_disagree_with_the_text_are_reported() {
        let err =
            import_text(&FILE.replace("\"seconds_full_hi\": 9000", "\"seconds_full_hi\": 1800"))
                .unwrap_err();
        assert!(err.contains("steps[1].seconds_full_hi: is 1800 but duration_text \"2 hours 30 minutes\" gives 9000"), "{err}");
    }

    #[test]
    fn edges_to_missing_steps_are_reported() {
        let err = import_text(&FILE.replace("[[1, 2]]", "[[1, 5]]")).unwrap_err();
        assert!(
            err.contains("(async-0163).edges[0]: step 5 does not exist"),
            "{err}"
        );
    }

    #[test]
    fn truncated_file_names_the_line() {
        let err = import_text(&FILE[..200]).unwrap_err();
        assert!(err.starts_with("instances.json: line 4"), "{err}");
        assert!(err.contains("truncated"), "{err}");
    }
}
