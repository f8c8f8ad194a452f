//! The upstream AsyncHow pickles, `{async,para,seq}_benchmark.pkl`: a dict of
//! parallel lists, one entry per task. Only `titles`, `steps`, `step_deps`, `time_dic` and
//! `task_time` are read; the rest (paths, matrices, prompts) is derived from them.
//! `task_time` (the gold) holds `datetime.timedelta` objects, which the unpickler keeps as
//! the call `timedelta(days, seconds, microseconds)`.

use std::collections::BTreeMap;
use std::path::Path;

use super::unpickle::{unpickle, Py};
use super::{check_edge, instances, Step, Task};
use crate::ImportOptions;
use makespan_model::instance::{Instance, LoadError};

/// Appended to errors about the pickle's shape.
const EXPECTED: &str = "expected an AsyncHow benchmark pickle: a dict of the parallel lists \
     titles, steps, step_deps, time_dic and task_time";

/// An error: `(place in the pickle, message)`.
type Wrong = (String, String);

/// The per-task lists of a benchmark pickle, all of one length.
struct Columns {
    titles: Vec<Py>,
    steps: Vec<Py>,
    /// A set or a list of `(before, after)` step numbers as strings; both occur.
    step_deps: Vec<Py>,
    time_dic: Vec<Py>,
    task_time: Vec<Py>,
}

/// Every instance of one benchmark pickle. The split (`async`, `para`, `seq`) is the file
/// name's prefix before `_benchmark`, and task `i` is `<split>-<i:04>`, as in
/// `instances.json`.
pub fn import_pickle(
    path: &Path,
    bytes: &[u8],
    opts: &ImportOptions,
) -> Result<Vec<Instance>, LoadError> {
    let root = unpickle(bytes)
        .map_err(|e| LoadError::format(path, format!("pickle byte {}", e.at), e.message))?;
    let columns = columns(&root).map_err(|(at, message)| LoadError::format(path, at, message))?;
    check_expansion(&columns, bytes.len())
        .map_err(|(at, message)| LoadError::format(path, at, message))?;
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let split = stem.strip_suffix("_benchmark").unwrap_or(&stem).to_string();
    let mut out = Vec::new();
    for index in 0..columns.titles.len() {
        let checked = task(&split, index, &columns)
            .map_err(|(at, message)| LoadError::format(path, at, message))?;
        let built = instances(&checked, path, opts);
        // Name the pickle's task, not a field of the instance built from it (which the
        // user never wrote).
        for instance in &built {
            instance.validate().map_err(|invalid| {
                LoadError::format(
                    path,
                    format!("task {index} ({})", instance.name),
                    format!("its steps make an invalid instance: {invalid}"),
                )
            })?;
        }
        out.extend(built);
    }
    Ok(out)
}

/// The five lists, checked to be parallel.
fn columns(root: &Py) -> Result<Columns, Wrong> {
    let entries = root
        .entries()
        .ok_or_else(|| wrong("top level".into(), root, "a dict"))?;
    let column = |key: &str| -> Result<Vec<Py>, Wrong> {
        let value = entries
            .iter()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(_, v)| v)
            .ok_or_else(|| (key.to_string(), format!("is missing; {EXPECTED}")))?;
        value
            .items()
            .ok_or_else(|| wrong(key.to_string(), value, "a list"))
    };
    let columns = Columns {
        titles: column("titles")?,
        steps: column("steps")?,
        step_deps: column("step_deps")?,
        time_dic: column("time_dic")?,
        task_time: column("task_time")?,
    };
    let count = columns.titles.len();
    for (key, len) in [
        ("steps", columns.steps.len()),
        ("step_deps", columns.step_deps.len()),
        ("time_dic", columns.time_dic.len()),
        ("task_time", columns.task_time.len()),
    ] {
        if len != count {
            return Err((
                key.to_string(),
                format!("has {len} entries but titles has {count}; the lists must be parallel"),
            ));
        }
    }
    Ok(columns)
}

/// How many bytes of task text a pickle may stand for, per byte of the file: the benchmark's
/// pickles stand for less than their own size (0.09 to 0.36), but a pickle can name one
/// memoised string or list again and again for two bytes each (230 KB became 9,001
/// instances and 177 MB of output files).
const MAX_EXPANSION: usize = 16;

/// Refuses a pickle whose tasks, once their shared values are spelled out, would be far
/// larger than the file: counted on the shared values, before any task is copied out.
fn check_expansion(columns: &Columns, file_bytes: usize) -> Result<(), Wrong> {
    let limit = file_bytes
        .saturating_mul(MAX_EXPANSION)
        .saturating_add(1 << 20);
    let text = |value: &Py| value.as_str().map_or(0, str::len);
    let mut total = 0usize;
    for index in 0..columns.titles.len() {
        total += text(&columns.titles[index]);
        total += columns.steps[index]
            .items()
            .map_or(0, |steps| steps.iter().map(|s| text(s) + 16).sum());
        total += columns.time_dic[index].entries().map_or(0, |entries| {
            entries.iter().map(|(k, v)| text(k) + text(v)).sum()
        });
        total += columns.step_deps[index]
            .items()
            .map_or(0, |deps| deps.len() * 16);
        if total > limit {
            return Err((
                format!("task {index}"),
                format!(
                    "the tasks up to here spell out to more than {limit} bytes, {MAX_EXPANSION} times \
                     the file's size (values repeated by reference): not a benchmark pickle"
                ),
            ));
        }
    }
    Ok(())
}

/// Checks and reads task `index`.
fn task(split: &str, index: usize, columns: &Columns) -> Result<Task, Wrong> {
    let title = string(&columns.titles[index], || format!("titles[{index}]"))?;
    let texts = items(&columns.steps[index], || format!("steps[{index}]"))?;
    let n = texts.len();
    let mut times = BTreeMap::new();
    let time_dic = &columns.time_dic[index];
    let entries = time_dic
        .entries()
        .ok_or_else(|| wrong(format!("time_dic[{index}]"), time_dic, "a dict"))?;
    for (key, text) in &entries {
        let key = string(key, || format!("time_dic[{index}] key"))?;
        let text = string(text, || format!("time_dic[{index}][\"{key}\"]"))?;
        times.insert(key, text);
    }
    let mut steps = Vec::with_capacity(n);
    for (i, text) in texts.iter().enumerate() {
        let text = string(text, || format!("steps[{index}][{i}]"))?;
        let key = (i + 1).to_string();
        let at = format!("time_dic[{index}][\"{key}\"]");
        let duration_text = times.remove(&key).ok_or_else(|| {
            (
                at.clone(),
                format!("is missing: step {key} has no duration"),
            )
        })?;
        steps.push(Step::new(text, duration_text).map_err(|message| (at, message))?);
    }
    if let Some(extra) = times.keys().next() {
        return Err((
            format!("time_dic[{index}][\"{extra}\"]"),
            format!("names no step; task {index} has steps 1 to {n}"),
        ));
    }
    let mut edges = Vec::new();
    for (i, dep) in items(&columns.step_deps[index], || format!("step_deps[{index}]"))?
        .iter()
        .enumerate()
    {
        let at = || format!("step_deps[{index}] item {i}");
        let pair = items(dep, at)?;
        let [before, after] = pair.as_slice() else {
            return Err((
                at(),
                format!(
                    "has {} items; a dependency is a (before, after) pair",
                    pair.len()
                ),
            ));
        };
        let number = |step: &Py| -> Result<usize, Wrong> {
            let text = string(step, at)?;
            text.parse()
                .map_err(|_| (at(), format!("'{text}' is not a step number")))
        };
        let edge = (number(before)?, number(after)?);
        check_edge(edge, n).map_err(|message| (at(), message))?;
        edges.push(edge);
    }
    let at = || format!("task_time[{index}]");
    let gold = items(&columns.task_time[index], at)?;
    let [lo, hi] = gold.as_slice() else {
        return Err((
            at(),
            format!("has {} items; the gold is a [lo, hi] pair", gold.len()),
        ));
    };
    Ok(Task {
        id: format!("{split}-{index:04}"),
        split: split.to_string(),
        index,
        title,
        steps,
        edges,
        gold: Some((timedelta_seconds(lo, at)?, timedelta_seconds(hi, at)?)),
    })
}

/// The whole seconds of a `datetime.timedelta(days, seconds, microseconds)`.
fn timedelta_seconds(value: &Py, at: impl Fn() -> String) -> Result<i64, Wrong> {
    let Py::Call { callee, args } = value else {
        return Err(wrong(at(), value, "a datetime.timedelta"));
    };
    let parts: Vec<Option<i64>> = args.iter().map(Py::as_int).collect();
    match (&**callee, parts.as_slice()) {
        ("datetime.timedelta", [Some(days), Some(seconds), Some(0)]) => days
            .checked_mul(86_400)
            .and_then(|d| d.checked_add(*seconds))
            .ok_or_else(|| {
                (
                    at(),
                    "the duration does not fit in 64-bit seconds".to_string(),
                )
            }),
        ("datetime.timedelta", [_, _, Some(_)]) => Err((
            at(),
            "has a fraction of a second; makespan works in whole seconds".to_string(),
        )),
        _ => Err((
            at(),
            format!(
                "is a call of {callee} with {} arguments, expected a datetime.timedelta",
                args.len()
            ),
        )),
    }
}

fn string(value: &Py, at: impl Fn() -> String) -> Result<String, Wrong> {
    value
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| wrong(at(), value, "a string"))
}

fn items(value: &Py, at: impl Fn() -> String) -> Result<Vec<Py>, Wrong> {
    value.items().ok_or_else(|| wrong(at(), value, "a list"))
}

fn wrong(at: String, value: &Py, expected: &str) -> Wrong {
    (at, format!("is {}, expected {expected}", value.kind()))
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    use super::*;

    fn s(text: &str) -> Py {
        Py::Str(text.into())
    }

    fn list(items: Vec<Py>) -> Py {
        Py::List(Rc::new(RefCell::new(items)))
    }

    fn td(days: i64, seconds: i64, micros: i64) -> Py {
        let args = [Py::Int(days), Py::Int(seconds), Py::Int(micros)];
        Py::Call {
            callee: "datetime.timedelta".into(),
            args: args.into(),
        }
    }

    /// One task with the given step durations and dependencies.
    fn columns(times: &[(&str, &str)], deps: &[(&str, &str)], gold: Py) -> Columns {
        let texts = (0..times.len()).map(|i| s(&format!("step {i}"))).collect();
        let time_dic = times.iter().map(|(k, v)| (s(k), s(v))).collect();
        let deps = deps
            .iter()
            .map(|(a, b)| Py::Tuple(Rc::from([s(a), s(b)])))
            .collect();
        Columns {
            titles: vec![s("How to")],
            steps: vec![list(texts)],
            step_deps: vec![list(deps)],
            time_dic: vec![Py::Dict(Rc::new(RefCell::new(time_dic)))],
            task_time: vec![gold],
        }
    }

    fn gold(seconds: i64) -> Py {
        list(vec![
            td(seconds / 86_400, seconds % 86_400, 0),
            td(seconds / 86_400, seconds % 86_400, 0),
        ])
    }

    #[test]
    fn a_task_reads_steps_edges_and_gold() {
        let c = columns(
            &[("1", "1 day"), ("2", "3 min")],
            &[("2", "1")],
            gold(86_580),
        );
        let t = task("seq", 0, &c).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(t.id, "seq-0000");
        assert_eq!(t.title, "How to");
        assert_eq!(t.edges, vec![(2, 1)]);
        assert_eq!(t.gold, Some((86_580, 86_580)));
        assert_eq!(t.steps[0].full, (86_400, 86_400));
    }

    #[test]
    fn missing_and_extra_durations_and_bad_edges_are_placed() {
        let err = |c: Columns| task("async", 0, &c).err().unwrap();
        let mut c = columns(&[("1", "1 min")], &[], gold(1));
        c.steps = vec![list(vec![s("a"), s("b")])];
        let (at, message) = err(c);
        assert_eq!(at, "time_dic[0][\"2\"]");
        assert!(message.contains("step 2 has no duration"), "{message}");
        let mut c = columns(&[("1", "1 min"), ("2", "1 min")], &[], gold(1));
        c.steps = vec![list(vec![s("a")])];
        assert!(err(c).1.contains("names no step"));
        let (at, message) = err(columns(
            &[("1", "1 min"), ("2", "1 min")],
            &[("1", "x")],
            gold(1),
        ));
        assert_eq!(
            (at.as_str(), message.as_str()),
            ("step_deps[0] item 0", "'x' is not a step number")
        );
        let (_, message) = err(columns(
            &[("1", "1 min"), ("2", "1 min")],
            &[("1", "3")],
            gold(1),
        ));
        assert!(message.contains("step 3 does not exist"), "{message}");
        let (at, message) = err(columns(&[("1", "1 fortnight")], &[], gold(1)));
        assert_eq!(at, "time_dic[0][\"1\"]");
        assert!(message.contains("unknown time unit"), "{message}");
    }

    #[test]
    fn the_gold_must_be_two_whole_second_timedeltas() {
        let err = |g: Py| {
            task("para", 0, &columns(&[("1", "1 min")], &[], g))
                .err()
                .unwrap()
        };
        let (at, message) = err(list(vec![td(0, 1, 5), td(0, 1, 0)]));
        assert_eq!(at, "task_time[0]");
        assert!(message.contains("fraction of a second"), "{message}");
        assert!(err(list(vec![td(0, 1, 0)])).1.contains("[lo, hi] pair"));
        assert!(err(list(vec![s("1 min"), s("2 min")]))
            .1
            .contains("is a string, expected a datetime.timedelta"));
    }

    #[test]
    fn a_task_repeated_by_reference_is_refused_before_it_is_copied() {
        let one = columns(&[("1", "5 min")], &[], gold(300));
        // One long step shared by 9,001 tasks: a few bytes each in a pickle.
        let step = list(vec![s(&"x".repeat(20_000))]);
        let repeated = Columns {
            titles: vec![one.titles[0].clone(); 9_001],
            steps: vec![step; 9_001],
            step_deps: vec![one.step_deps[0].clone(); 9_001],
            time_dic: vec![one.time_dic[0].clone(); 9_001],
            task_time: vec![one.task_time[0].clone(); 9_001],
        };
        let (at, message) = check_expansion(&repeated, 230_000).unwrap_err();
        // 20,028 bytes a task against 16 × 230,000 + 1 MiB: the 237th task crosses it.
        assert_eq!(at, "task 236");
        assert!(message.contains("16 times the file's size"), "{message}");
        assert!(check_expansion(&one, 100).is_ok());
    }

    #[test]
    fn the_benchmarks_pickles_spell_out_to_less_than_their_size() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/benchmarks/asynchow");
        let mut read = 0;
        for name in [
            "async_benchmark.pkl",
            "para_benchmark.pkl",
            "seq_benchmark.pkl",
        ] {
            let Ok(bytes) = std::fs::read(dir.join(name)) else {
                continue;
            };
            let root = unpickle(&bytes).unwrap_or_else(|e| panic!("{name}: {e:?}"));
            let columns = super::columns(&root).unwrap_or_else(|e| panic!("{name}: {e:?}"));
            // Well inside the limit: the benchmark's own files are never near it.
            check_expansion(&columns, bytes.len() / MAX_EXPANSION)
                .unwrap_or_else(|e| panic!("{name}: {e:?}"));
            read += 1;
        }
        if read < 3 {
            eprintln!(
                "skipped {} of 3 AsyncHow pickles: ../shared is missing",
                3 - read
            );
        }
    }

    #[test]
    fn non_benchmark_pickles_are_explained() {
        let import = |bytes: &[u8]| {
            import_pickle(
                Path::new("x_benchmark.pkl"),
                bytes,
                &ImportOptions::default(),
            )
        };
        // pickle.dumps({"titles": []}, protocol=4)
        let err =
            import(b"\x80\x04\x95\x0f\x00\x00\x00\x00\x00\x00\x00}\x94\x8c\x06titles\x94]\x94s.")
                .unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("x_benchmark.pkl: steps: is missing; {EXPECTED}")
        );
        // pickle.dumps([1], protocol=4)
        let err = import(b"\x80\x04\x95\x06\x00\x00\x00\x00\x00\x00\x00]\x94K\x01a.").unwrap_err();
        assert!(
            err.to_string()
                .contains("top level: is a list or set, expected a dict"),
            "{err}"
        );
        let err = import(b"\x80\x04garbage").unwrap_err().to_string();
        assert!(
            err.starts_with("x_benchmark.pkl: pickle byte 2: unsupported pickle opcode 0x67"),
            "{err}"
        );
    }
}
