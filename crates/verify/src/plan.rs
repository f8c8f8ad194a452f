//! Unified plan files (`makespan-plan/1`) and solution files read as plans.
//!
//! A plan names its instance (a path relative to the plan, optionally with the instance's
//! content hash) or embeds it, so `makespan verify plan.json` works alone:
//!
//! ```json
//! {"format": "makespan-plan/1", "instance": "inst.json", "instance_hash": "sha256:…",
//!  "schedule": [{"activity": "a", "agent": 0, "pieces": [[0, 4]]},
//!               {"activity": "b", "agent": 1, "start": 2}]}
//! ```
//!
//! An entry gives `pieces` or the shorthand `start` (one piece of the activity's full
//! duration), which can only be expanded once the instance is known: reading a plan
//! ([`read_plan`]) and resolving it against its instance ([`PlanInput::resolve`]) are two
//! steps, so `--instance` can replace the named instance.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;

use makespan_model::instance::{
    content_hash, parse_instance, Instance, LoadError, INSTANCE_FORMAT,
};
use makespan_model::schedule::{Piece, ScheduledActivity};
use makespan_model::setting::Setting;
use makespan_model::solution::{Solution, SOLUTION_FORMAT};

/// The format tag of unified plan files.
pub const PLAN_FORMAT: &str = "makespan-plan/1";

/// A plan as read from its file, before it is tied to an instance.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanInput {
    /// The plan file: named in errors, and the base of a relative instance path.
    pub path: PathBuf,
    /// The instance the plan embeds or names, if any.
    pub instance: PlanInstance,
    /// The content hash (`sha256:…`) the plan's author saw; checked against the instance.
    pub instance_hash: Option<String>,
    /// The schedule entries, in file order.
    pub entries: Vec<PlanEntry>,
}

/// Where a plan's instance is.
#[derive(Debug, Clone, PartialEq)]
pub enum PlanInstance {
    /// The instance itself, embedded in the plan (or in a solution file); already validated.
    Embedded(Box<Instance>),
    /// An instance file, already resolved against the plan's directory.
    File(PathBuf),
    /// The plan names none; the caller must supply one.
    Unnamed,
}

/// One schedule entry of a plan.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "EntryRepr")]
pub struct PlanEntry {
    /// Id of the instance's activity.
    pub activity: String,
    /// The agent (0-based) that performs it, if the plan names one.
    pub agent: Option<u32>,
    /// When it runs: explicit pieces or a `start` shorthand.
    pub timing: Timing,
}

/// When an entry runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Timing {
    /// Explicit half-open pieces `[start, end)`.
    Pieces(Vec<Piece>),
    /// Shorthand for one piece `[start, start + duration)`.
    Start(i64),
}

/// A plan tied to its instance, ready for [`crate::verify`].
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedPlan {
    /// The instance the plan is checked against.
    pub instance: Instance,
    /// The plan's entries as a schedule, `start` shorthands expanded to pieces.
    pub schedule: Vec<ScheduledActivity>,
}

/// Reads a unified plan or a solution file; `path` is named in errors and anchors a
/// relative instance path. Malformed JSON, unknown fields and wrong types are errors with
/// the line and column.
pub fn read_plan(path: &Path, text: &str) -> Result<PlanInput, LoadError> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| LoadError::json_in(path, text, &e))?;
    let format = match &value {
        Value::Object(map) => map.get("format").and_then(Value::as_str).map(str::to_owned),
        Value::Array(_) => {
            return Err(LoadError::format(
                path,
                "top level",
                format!(
                    "is a list; a plan is an object {{\"format\": \"{PLAN_FORMAT}\", ...}} (per-agent lists of \
                     activity ids are a native answer: read them as one, with the instance given separately)"
                ),
            ))
        }
        _ => None,
    };
    match format.as_deref() {
        Some(PLAN_FORMAT) => {
            let file: PlanFile =
                serde_json::from_str(text).map_err(|e| LoadError::json_in(path, text, &e))?;
            let instance = match file.instance {
                None => PlanInstance::Unnamed,
                Some(InstanceRef::Embedded(inst)) => {
                    validate(path, &inst)?;
                    PlanInstance::Embedded(inst)
                }
                Some(InstanceRef::Path(p)) if p.trim().is_empty() => {
                    return Err(LoadError::format(
                        path,
                        "instance",
                        "the instance path is empty; give the instance file (relative to the plan) or embed the instance",
                    ))
                }
                Some(InstanceRef::Path(p)) => {
                    PlanInstance::File(path.parent().unwrap_or(Path::new("")).join(p))
                }
            };
            Ok(PlanInput {
                path: path.to_path_buf(),
                instance,
                instance_hash: file.instance_hash,
                entries: file.schedule,
            })
        }
        Some(SOLUTION_FORMAT) => {
            let solution = Solution::parse(path, text)?;
            // The verdict is about the schedule; a `makespan` field that says otherwise would
            // be reported as if it were checked.
            let ends = makespan_model::schedule::makespan(&solution.schedule);
            if let Some(claimed) = solution.makespan.filter(|&m| m != ends) {
                if !solution.schedule.is_empty() {
                    return Err(LoadError::format(
                        path,
                        "makespan",
                        format!("the file claims {claimed}, but its schedule ends at {ends}; a solution's makespan is its schedule's end (solve it again, or remove the field)"),
                    ));
                }
            }
            let record = solution.instance;
            validate(path, &record.instance)?;
            let entries = solution
                .schedule
                .into_iter()
                .map(|s| PlanEntry {
                    activity: s.activity,
                    agent: s.agent,
                    timing: Timing::Pieces(s.pieces),
                })
                .collect();
            Ok(PlanInput {
                path: path.to_path_buf(),
                instance: PlanInstance::Embedded(Box::new(record.instance)),
                instance_hash: Some(record.hash),
                entries,
            })
        }
        Some(INSTANCE_FORMAT) => Err(LoadError::format(
            path,
            "format",
            format!(
                "this is an instance, not a plan; pass it with {} and give the plan file to verify",
                Setting::Instance
            ),
        )),
        Some(other) => Err(LoadError::format(
            path,
            "format",
            format!("\"{other}\" is not a plan format; expected \"{PLAN_FORMAT}\" or \"{SOLUTION_FORMAT}\""),
        )),
        None => Err(LoadError::format(
            path,
            "format",
            format!("missing; a plan file starts with \"format\": \"{PLAN_FORMAT}\""),
        )),
    }
}

impl PlanInput {
    /// Ties the plan to its instance: `instance_override` if given (the CLI's
    /// `--instance`), else the embedded or named one. Checks the instance hash and expands
    /// `start` shorthands.
    pub fn resolve(self, instance_override: Option<Instance>) -> Result<ResolvedPlan, LoadError> {
        let instance = match (instance_override, &self.instance) {
            (Some(inst), _) => inst,
            (None, PlanInstance::Embedded(inst)) => (**inst).clone(),
            (None, PlanInstance::File(file)) => {
                self.check_inside_plan_folder(file)?;
                let text = makespan_model::input::read_text(file)?;
                parse_instance(file, &text)?
            }
            (None, PlanInstance::Unnamed) => {
                return Err(LoadError::format(
                    &self.path,
                    "instance",
                    format!(
                        "the plan names no instance; add \"instance\" (a path or the instance itself) or pass {}",
                        Setting::Instance
                    ),
                ))
            }
        };
        let schedule = self.schedule_for(&instance)?;
        Ok(ResolvedPlan { instance, schedule })
    }

    /// A plan may name an instance file in its own folder or below it; anything else (an
    /// absolute path, `..`, a link out of it) could make the verifier read any file the user
    /// can read, so it must be given explicitly with `--instance`.
    fn check_inside_plan_folder(&self, file: &Path) -> Result<(), LoadError> {
        let parent = self.path.parent().unwrap_or(Path::new(""));
        let folder = if parent.as_os_str().is_empty() {
            Path::new(".")
        } else {
            parent
        };
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| LoadError::Io { path, source }
        };
        let inside = match file.canonicalize() {
            Ok(real) => real.starts_with(folder.canonicalize().map_err(io(folder))?),
            // A missing file: outside when its path climbs out or starts at the root.
            Err(e) => {
                // (The file was joined to the plan's own folder, "" for the current one.)
                let climbs = file.strip_prefix(parent).map_or(true, |rest| {
                    rest.components()
                        .any(|c| !matches!(c, std::path::Component::Normal(_)))
                });
                if !climbs {
                    return Err(io(file)(e));
                }
                false
            }
        };
        if inside {
            Ok(())
        } else {
            Err(LoadError::format(
                &self.path,
                "instance",
                format!(
                    "{} is outside the plan's folder; a plan may only name an instance beside it or below it: pass the instance with {} instead",
                    file.display(),
                    Setting::Instance
                ),
            ))
        }
    }

    /// The schedule against a given instance: the hash must match (the declared one, or
    /// the embedded instance's) and each `start`
    /// shorthand becomes one piece of the activity's duration. An unknown activity's
    /// `start` becomes an empty piece; the verifier reports the activity as unknown.
    pub fn schedule_for(&self, instance: &Instance) -> Result<Vec<ScheduledActivity>, LoadError> {
        if let Some(expected) = self.expected_hash() {
            let actual = content_hash(instance);
            if expected != actual {
                return Err(LoadError::format(
                    &self.path,
                    "instance_hash",
                    format!(
                        "the plan was made for instance {expected}, but instance `{}` is {actual}: the instance \
                         changed since the plan was written; re-plan it, or update instance_hash if the change \
                         does not matter",
                        instance.name
                    ),
                ));
            }
        }
        let durations = instance.activity_index();
        Ok(self
            .entries
            .iter()
            .map(|e| ScheduledActivity {
                activity: e.activity.clone(),
                agent: e.agent,
                pieces: match &e.timing {
                    Timing::Pieces(pieces) => pieces.clone(),
                    Timing::Start(s) => {
                        let d = durations
                            .get(e.activity.as_str())
                            .map_or(0, |&i| instance.activities[i].duration);
                        vec![Piece(*s, s.saturating_add(d))]
                    }
                },
            })
            .collect())
    }

    /// The hash the plan's instance must have: the declared one, else that of the
    /// embedded instance (so `--instance` cannot silently swap an embedded instance).
    fn expected_hash(&self) -> Option<String> {
        match (&self.instance_hash, &self.instance) {
            (Some(h), _) => Some(h.clone()),
            (None, PlanInstance::Embedded(inst)) => Some(content_hash(inst)),
            (None, _) => None,
        }
    }
}

fn validate(path: &Path, instance: &Instance) -> Result<(), LoadError> {
    instance.validate().map_err(|source| LoadError::Invalid {
        path: path.to_path_buf(),
        source,
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlanFile {
    #[serde(rename = "format")]
    _format: de::IgnoredAny,
    #[serde(default)]
    instance: Option<InstanceRef>,
    #[serde(default)]
    instance_hash: Option<String>,
    schedule: Vec<PlanEntry>,
}

/// `"instance"`: a path string or the instance object. A hand-written visitor keeps
/// serde_json's line and column for errors inside the embedded instance.
enum InstanceRef {
    Path(String),
    Embedded(Box<Instance>),
}

impl<'de> Deserialize<'de> for InstanceRef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct RefVisitor;
        impl<'de> Visitor<'de> for RefVisitor {
            type Value = InstanceRef;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a path to the instance file or the instance object")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<InstanceRef, E> {
                Ok(InstanceRef::Path(v.to_owned()))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<InstanceRef, A::Error> {
                let inst = Instance::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(InstanceRef::Embedded(Box::new(inst)))
            }
        }
        d.deserialize_any(RefVisitor)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryRepr {
    activity: String,
    #[serde(default)]
    agent: Option<u32>,
    #[serde(default)]
    pieces: Option<Vec<Piece>>,
    #[serde(default)]
    start: Option<i64>,
}

impl TryFrom<EntryRepr> for PlanEntry {
    type Error = String;
    fn try_from(r: EntryRepr) -> Result<Self, String> {
        let timing = match (r.pieces, r.start) {
            (Some(pieces), None) => Timing::Pieces(pieces),
            (None, Some(start)) => Timing::Start(start),
            (Some(_), Some(_)) => {
                return Err(format!(
                    "the entry of `{}` has both \"pieces\" and \"start\"; give one of them",
                    r.activity
                ))
            }
            (None, None) => {
                return Err(format!(
                    "the entry of `{}` has neither \"pieces\" nor \"start\"; add \"start\": t or \"pieces\": [[s, e]]",
                    r.activity
                ))
            }
        };
        Ok(PlanEntry {
            activity: r.activity,
            agent: r.agent,
            timing,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{testkit, verify, Rule};

    fn embedded_plan(schedule: &str) -> String {
        let inst = testkit::instance(Some(2), &[("a", 4), ("b", 3)], &[("a", "b", 1)]);
        format!(
            r#"{{"format": "makespan-plan/1", "instance": {}, "schedule": {schedule}}}"#,
            serde_json::to_string(&inst).unwrap()
        )
    }

    fn resolve(text: &str) -> Result<ResolvedPlan, LoadError> {
        read_plan(Path::new("plans/p.json"), text)?.resolve(None)
    }

    #[test]
    fn start_shorthand_expands_to_the_full_duration() {
        let text = embedded_plan(
            r#"[{"activity": "a", "agent": 0, "start": 0}, {"activity": "b", "agent": 1, "pieces": [[5, 8]]}]"#,
        );
        let plan = resolve(&text).unwrap();
        assert_eq!(plan.schedule[0].pieces, [Piece(0, 4)]);
        assert!(verify(&plan.instance, &plan.schedule).valid);
    }

    #[test]
    fn truncated_plan_names_file_line_and_column() {
        let text = embedded_plan(r#"[{"activity": "a", "agent": 0, "start": 0}]"#);
        let cut = &text[..text.len() - 20];
        let err = read_plan(Path::new("p.json"), cut).unwrap_err();
        match &err {
            LoadError::Json {
                line,
                column,
                message,
                ..
            } => {
                assert_eq!(*line, 1);
                assert!(*column > 0);
                assert!(message.contains("truncated"), "{message}");
            }
            other => panic!("expected a JSON error, got {other}"),
        }
        assert!(
            err.to_string().starts_with("p.json: line 1, column"),
            "{err}"
        );
    }

    #[test]
    fn wrong_type_names_the_position() {
        let text = "{\"format\": \"makespan-plan/1\",\n \"schedule\": [{\"activity\": \"a\", \"start\": \"soon\"}]}";
        let err = read_plan(Path::new("p.json"), text).unwrap_err();
        assert!(
            err.to_string().starts_with("p.json: line 2, column"),
            "{err}"
        );
        assert!(err.to_string().contains("invalid type"), "{err}");
    }

    #[test]
    fn unknown_field_is_an_error() {
        let text = embedded_plan(r#"[{"activity": "a", "agent": 0, "begin": 0}]"#);
        let err = read_plan(Path::new("p.json"), &text).unwrap_err();
        assert!(err.to_string().contains("unknown field `begin`"), "{err}");
    }

    #[test]
    fn error_inside_an_embedded_instance_keeps_its_position() {
        let text = "{\"format\": \"makespan-plan/1\", \"instance\": {\n\"format\": \"makespan-instance/1\", \"nam\": \"x\"},\n\"schedule\": []}";
        let err = read_plan(Path::new("p.json"), text).unwrap_err();
        assert!(
            err.to_string().starts_with("p.json: line 2, column"),
            "{err}"
        );
        assert!(err.to_string().contains("unknown field `nam`"), "{err}");
    }

    #[test]
    fn entry_with_both_or_neither_timing_is_an_error() {
        for entry in [
            r#"{"activity": "a", "start": 0, "pieces": [[0, 4]]}"#,
            r#"{"activity": "a"}"#,
        ] {
            let err =
                read_plan(Path::new("p.json"), &embedded_plan(&format!("[{entry}]"))).unwrap_err();
            assert!(err.to_string().contains("\"pieces\""), "{err}");
        }
    }

    #[test]
    fn unknown_activity_is_a_violation_not_an_error() {
        let text = embedded_plan(
            r#"[{"activity": "a", "start": 0}, {"activity": "b", "start": 5}, {"activity": "ghost", "start": 1}]"#,
        );
        let plan = resolve(&text).unwrap();
        let report = verify(&plan.instance, &plan.schedule);
        let rules: Vec<Rule> = report.violations.iter().map(|v| v.rule).collect();
        assert_eq!(rules, [Rule::UnknownActivity]);
    }

    #[test]
    fn hash_mismatch_is_reported_with_both_hashes() {
        let text = embedded_plan("[]").replacen('{', r#"{"instance_hash": "sha256:00", "#, 1);
        let err = resolve(&text).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("instance_hash") && msg.contains("sha256:00") && msg.contains("changed"),
            "{msg}"
        );
    }

    #[test]
    fn matching_hash_is_accepted() {
        let inst = testkit::instance(Some(1), &[("a", 4)], &[]);
        let text = format!(
            r#"{{"format": "makespan-plan/1", "instance_hash": "{}", "schedule": [{{"activity": "a", "start": 0}}]}}"#,
            content_hash(&inst)
        );
        let plan = read_plan(Path::new("p.json"), &text)
            .unwrap()
            .resolve(Some(inst))
            .unwrap();
        assert_eq!(plan.schedule[0].pieces, [Piece(0, 4)]);
    }

    #[test]
    fn overriding_an_embedded_instance_with_another_is_refused() {
        let other = testkit::instance(Some(3), &[("a", 4)], &[]);
        let err = read_plan(Path::new("p.json"), &embedded_plan("[]"))
            .unwrap()
            .resolve(Some(other))
            .unwrap_err();
        assert!(
            err.to_string()
                .contains("changed since the plan was written"),
            "{err}"
        );
    }

    #[test]
    fn instance_path_is_relative_to_the_plan() {
        let dir = tempfile::tempdir().unwrap();
        let inst = testkit::instance(Some(1), &[("a", 4)], &[]);
        std::fs::write(
            dir.path().join("inst.json"),
            serde_json::to_string(&inst).unwrap(),
        )
        .unwrap();
        let text = r#"{"format": "makespan-plan/1", "instance": "inst.json", "schedule": [{"activity": "a", "start": 1}]}"#;
        let plan = read_plan(&dir.path().join("p.json"), text).unwrap();
        assert_eq!(
            plan.instance,
            PlanInstance::File(dir.path().join("inst.json"))
        );
        let resolved = plan.resolve(None).unwrap();
        assert_eq!(resolved.instance, inst);
    }

    /// A plan in the current folder naming a missing file below it was told the file is
    /// "outside the plan's folder": it is missing, and the error says so.
    #[test]
    fn a_missing_instance_below_a_plan_in_the_current_folder_is_missing_not_outside() {
        let text =
            r#"{"format": "makespan-plan/1", "instance": "below/none.json", "schedule": []}"#;
        let err = read_plan(Path::new("p.json"), text)
            .unwrap()
            .resolve(None)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("below/none.json: cannot read the file"),
            "{err}"
        );
        let text = text.replace("below/none.json", "../none.json");
        let err = read_plan(Path::new("p.json"), &text)
            .unwrap()
            .resolve(None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("outside the plan's folder"), "{err}");
    }

    #[test]
    fn plan_without_instance_needs_one() {
        let text = r#"{"format": "makespan-plan/1", "schedule": []}"#;
        let err = resolve(text).unwrap_err();
        assert!(err.to_string().contains("--instance"), "{err}");
    }

    #[test]
    fn solution_files_are_plans() {
        use makespan_model::solution::{InstanceRecord, Solution, Status};
        let inst = testkit::instance(Some(1), &[("a", 4)], &[]);
        let solution = Solution {
            format: SOLUTION_FORMAT.into(),
            instance: InstanceRecord {
                name: inst.name.clone(),
                hash: content_hash(&inst),
                instance: inst.clone(),
            },
            status: Status::Optimal,
            makespan: Some(4),
            lower_bound: Some(4),
            bound_source: None,
            gap: Some(0.0),
            reason: None,
            method: "test".into(),
            solver: "makespan".into(),
            seconds: 0.0,
            nodes: None,
            schedule: vec![ScheduledActivity::at("a", Some(0), 0, 4)],
            check: None,
            solved_with: None,
            certificate: None,
        };
        let plan = resolve(&serde_json::to_string(&solution).unwrap()).unwrap();
        assert_eq!(plan.instance, inst);
        assert!(verify(&plan.instance, &plan.schedule).valid);
    }

    #[test]
    fn other_formats_are_explained() {
        let err = read_plan(Path::new("p.json"), r#"[["a"]]"#).unwrap_err();
        assert!(err.to_string().contains("native answer"), "{err}");
        let err =
            read_plan(Path::new("p.json"), r#"{"format": "makespan-instance/1"}"#).unwrap_err();
        assert!(err.to_string().contains("--instance"), "{err}");
        let err = read_plan(Path::new("p.json"), r#"{"schedule": []}"#).unwrap_err();
        assert!(err.to_string().contains("missing"), "{err}");
    }
}
