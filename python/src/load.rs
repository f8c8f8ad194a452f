//! `load` and `load_instance`: the benchmarks' own files (or unified instances) as
//! `Instance` objects, with the CLI's import options.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::PyDict;

use makespan::inputs::Inputs;

use crate::convert::import_options;
use crate::errors;
use crate::objects::Instance;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(load_instance, m)?)?;
    Ok(())
}

/// Every instance a file describes (a unified instance or any benchmark's native file,
/// recognised by its content, each validated), or every instance of a folder's files, read
/// as ``makespan solve FOLDER`` reads them: a benchmark's checkout as cloned, or any folder
/// of instances, walked recursively; files no benchmark reads as instances (configuration,
/// assets, results, a benchmark's baseline plans) are skipped. Raises ``ReadError`` for a
/// folder with no instance at all.
///
/// Options as the CLI's: ``agents`` (a count, ``"unlimited"``/``None``, or a list of them;
/// default: the benchmark's own), and each benchmark's own as keywords: ``combine``
/// (TimeArena tasks per run), ``level`` (Recipe2Plan ``"easy"``/``"medium"``),
/// ``constraint`` (TimeArena's one pot, fryer and oven).
///
/// >>> insts = makespan.load("instances/two-cooks-breakfast.json")
/// >>> insts[0].name
/// 'two-cooks-breakfast'
#[pyfunction]
#[pyo3(signature = (path, *, agents=None, **options))]
fn load(
    py: Python<'_>,
    path: PathBuf,
    agents: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<Instance>> {
    let options = import_options(agents, options)?;
    let mut inputs = Inputs::default();
    py.detach(|| inputs.add(&path, &options, None))
        .map_err(errors::load)?;
    if inputs.instances.is_empty() && path.is_dir() {
        return Err(errors::ReadError::new_err(format!(
            "{}: no instances found ({} file(s) skipped: no benchmark reads them as instances{})",
            path.display(),
            inputs.unrelated.len(),
            match inputs.baselines.len() {
                0 => String::new(),
                n => format!("; {n} benchmark baseline file(s)"),
            }
        )));
    }
    Ok(inputs
        .instances
        .into_iter()
        .map(|(_, i)| Instance(i))
        .collect())
}

/// One instance: a file, ``PATH#NAME`` (one of the instances a file holds), or
/// ``BENCH:NAME`` looked up in the benchmark's native file under ``data``, the root of your
/// checkout of the benchmark (default: ``$MAKESPAN_DATA``), e.g. ``timearena:cooking1+cooking2``
/// or ``robotouille:7``. Options as in ``load``.
#[pyfunction]
#[pyo3(signature = (spec, data=None, *, agents=None, **options))]
fn load_instance(
    py: Python<'_>,
    spec: &str,
    data: Option<PathBuf>,
    agents: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Instance> {
    let options = import_options(agents, options)?;
    py.detach(|| makespan::load_instance(spec, data.as_deref(), &options))
        .map(Instance)
        .map_err(errors::load)
}
