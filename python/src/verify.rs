//! `verify`: any plan `makespan verify` reads (a benchmark's native answer, even the raw
//! LLM response; a unified plan; a solution) checked against its instance, optionally
//! compared with a reference solution.

use std::path::{Path, PathBuf};

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::convert::json_text;
use crate::errors;
use crate::objects::{Instance, Report, Solution, Verdict};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    Ok(())
}

/// Texts at most this long that name an existing file are read as that file.
const LONGEST_PATH: usize = 4096;

/// The plan's text and the name errors give it: a path (``os.PathLike``, or a one-line
/// string naming an existing file) is read; a dict or list is JSON; any other string is
/// the answer itself.
pub(crate) fn plan_text(plan: &Bound<'_, PyAny>) -> PyResult<(PathBuf, String)> {
    let read = |path: PathBuf| -> PyResult<(PathBuf, String)> {
        let text = makespan::input::read_text(&path).map_err(errors::load)?;
        Ok((path, text))
    };
    if plan.is_instance_of::<PyDict>() || plan.is_instance_of::<PyList>() {
        return Ok(("<plan>".into(), json_text(plan)?));
    }
    if plan.is_instance_of::<PyString>() {
        let text: String = plan.extract()?;
        let one_line = text.len() <= LONGEST_PATH && !text.contains('\n');
        if one_line && Path::new(&text).is_file() {
            return read(text.into());
        }
        return Ok(("<answer>".into(), text));
    }
    read(plan.extract::<PathBuf>()?)
}

/// Checks a plan against every rule of its instance and names each violation.
///
/// ``plan``: a benchmark's native answer (ParaCook's per-agent lists, also inside the raw
/// LLM response; TimeArena decisions or trajectories; Recipe2Plan ``Step(…)`` lines;
/// Robotouille actions; AsyncTool turns), which needs ``instance``; or a unified plan or
/// solution (a dict, or JSON text), which names or embeds its instance (``instance``
/// overrides it). A ``pathlib.Path``, or a one-line string naming an existing file, is
/// read. ``solution``: a ``Solution`` of the same instance; the report then has
/// ``optimum``, ``ratio`` and ``lost_time``.
///
/// >>> rep = makespan.verify('[["chop", "serve"], ["boil"]]', inst)   # doctest: +SKIP
/// >>> rep.valid, rep.makespan, [v.rule for v in rep.violations]      # doctest: +SKIP
#[pyfunction]
#[pyo3(signature = (plan, instance=None, solution=None))]
fn verify(
    py: Python<'_>,
    plan: &Bound<'_, PyAny>,
    instance: Option<PyRef<'_, Instance>>,
    solution: Option<PyRef<'_, Solution>>,
) -> PyResult<Report> {
    let (path, text) = plan_text(plan)?;
    let instance = instance.as_ref().map(|i| &i.0);
    let reference = solution.as_ref().map(|s| &s.0);
    py.detach(|| {
        let checked = makespan::verify_plan(&path, &text, instance, None).map_err(errors::load)?;
        let comparison = reference
            .map(|r| makespan::compare_to(&checked.answer.report, &checked.instance, r))
            .transpose()
            .map_err(errors::reference)?;
        let metrics = checked.metrics();
        Ok(Report(Verdict {
            benchmark: checked.benchmark.map(|b| b.name().to_owned()),
            metrics,
            comparison,
            report: checked.answer.report,
        }))
    })
}
