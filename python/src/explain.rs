//! `explain` and `gantt`: where a plan's time went (`makespan explain`) and its Gantt
//! picture (`makespan gantt`), for any plan `verify` reads.

use pyo3::prelude::*;

use makespan::explain::gantt::{html, svg, Chart};
use makespan::{Solution as Reference, VerifiedPlan};

use crate::errors;
use crate::objects::{Explanation, Instance, Solution};
use crate::verify::plan_text;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(explain, m)?)?;
    m.add_function(wrap_pyfunction!(gantt, m)?)?;
    Ok(())
}

/// Checks the plan as `verify` does and explains it against `reference`, which must solve
/// the same problem and back its own makespan (checked as `verify(solution=)` checks it).
fn explained(
    plan: &Bound<'_, PyAny>,
    instance: Option<&Instance>,
    reference: Option<&Reference>,
) -> PyResult<(VerifiedPlan, makespan::explain::Explanation)> {
    let (path, text) = plan_text(plan)?;
    plan.py().detach(|| {
        let checked = makespan::verify_plan(&path, &text, instance.map(|i| &i.0), None)
            .map_err(errors::load)?;
        if let Some(r) = reference {
            makespan::compare_to(&checked.answer.report, &checked.instance, r)
                .map_err(errors::reference)?;
        }
        let explanation = makespan::explain_plan(&checked, reference)
            .map_err(|e| errors::usage(e.to_string()))?;
        Ok((checked, explanation))
    })
}

/// Explains where a plan's time went, as ``makespan explain`` does.
///
/// ``plan`` and ``instance`` as for ``verify``. ``solution``: a ``Solution`` of the same
/// instance (an optimum); the explanation's ``lost`` then splits the time lost against it
/// into unforced waits, ordering choices and the rest (a simulated kitchen's plan shares no
/// steps with its reference: ``against`` sets each agent's time beside the reference's
/// instead). ``str()`` of the result is the CLI's text.
///
/// >>> why = makespan.explain('[["chop", "serve"], ["boil"]]', inst, solution=sol)  # doctest: +SKIP
/// >>> why.chain[-1]["to"] == why.makespan, why.waits, why.lost["lost"]              # doctest: +SKIP
#[pyfunction]
#[pyo3(signature = (plan, instance=None, solution=None))]
fn explain(
    plan: &Bound<'_, PyAny>,
    instance: Option<PyRef<'_, Instance>>,
    solution: Option<PyRef<'_, Solution>>,
) -> PyResult<Explanation> {
    let reference = solution.as_ref().map(|s| &s.0);
    let (_, explanation) = explained(plan, instance.as_deref(), reference)?;
    Ok(Explanation(explanation))
}

/// Draws a plan's Gantt chart, as ``makespan gantt`` does, and returns it as text.
///
/// ``plan`` and ``instance`` as for ``verify``. ``compare``: a ``Solution`` of the same
/// instance, drawn below the plan on the same time axis. ``format``: ``"svg"`` (one SVG
/// document) or ``"html"`` (a self-contained page with hover details).
///
/// >>> svg = makespan.gantt(answer, inst, compare=sol)                         # doctest: +SKIP
/// >>> pathlib.Path("plan.html").write_text(makespan.gantt(answer, inst, format="html"))  # doctest: +SKIP
#[pyfunction]
#[pyo3(signature = (plan, instance=None, compare=None, format="svg"))]
fn gantt(
    plan: &Bound<'_, PyAny>,
    instance: Option<PyRef<'_, Instance>>,
    compare: Option<PyRef<'_, Solution>>,
    format: &str,
) -> PyResult<String> {
    let draw = match format {
        "svg" => svg,
        "html" => html,
        other => {
            return Err(errors::usage(format!(
            "format: \"{other}\" is not a picture format makespan draws; use \"svg\" or \"html\""
        )))
        }
    };
    let reference = compare.as_ref().map(|s| &s.0);
    let (checked, explanation) = explained(plan, instance.as_deref(), reference)?;
    let drawing = makespan::Drawing::new(
        &checked.instance,
        &checked.answer.schedule,
        reference.map(|s| s.schedule.as_slice()),
    );
    Ok(draw(&Chart {
        instance: &drawing.instance,
        schedule: &drawing.schedule,
        explanation: &explanation,
        reference: drawing.reference.as_deref(),
    }))
}
