//! The HTML page of a scored run (`makespan score --html`): the run report with each answer's
//! Gantt chart beside its optimum, drawn by `makespan_report::run_page`.

use crate::instance::problem_hash;
use crate::report::run_page::{self, RunAnswer};
use crate::report::Reference;
use crate::schedule;
use crate::score::ScoredRun;
use crate::Status;

/// The page of a scored run ([`crate::score::score_run_detailed`]).
pub fn score_html(scored: &ScoredRun) -> String {
    let answers: Vec<RunAnswer> = scored
        .entries
        .iter()
        .filter_map(|entry| {
            let s = entry.scored.as_ref().ok()?;
            let reference = scored
                .optima
                .get(&problem_hash(&s.instance))
                .and_then(|o| o.as_ref().ok())
                .map(|solution| Reference {
                    schedule: &solution.schedule,
                    makespan: solution
                        .makespan
                        .unwrap_or_else(|| schedule::makespan(&solution.schedule)),
                    optimal: solution.status == Status::Optimal,
                });
            Some(RunAnswer {
                key: &entry.key,
                instance: &s.instance,
                schedule: &s.schedule,
                violations: &s.report.violations,
                reference,
            })
        })
        .collect();
    run_page::html(&scored.report, &answers)
}
