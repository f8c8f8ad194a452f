//! The comparison table of Robotouille tasks: our optimum (the best over a task's
//! instances), whether it is proven, and the benchmark's hard-coded `optimal_steps`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use makespan_model::solution::{Solution, Status};

/// One task of the comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskRow {
    /// The task's instance name without the variant suffix.
    pub task: String,
    /// Best makespan over the task's instances (`None`: no schedule found).
    pub ours: Option<i64>,
    /// `ours` is optimal: every instance of the task is solved to optimality or proven
    /// infeasible, so no variant can do better.
    pub proven: bool,
    /// The smallest lower bound over the instances that are not infeasible.
    pub bound: Option<i64>,
    /// The upstream `optimal_steps`.
    pub reference: Option<i64>,
}

/// Groups solutions of Robotouille instances by task.
pub fn by_task(solutions: &[Solution]) -> Vec<TaskRow> {
    let mut groups: BTreeMap<String, Vec<&Solution>> = BTreeMap::new();
    for s in solutions {
        let task = super::task_of(&s.instance.instance).to_string();
        groups.entry(task).or_default().push(s);
    }
    groups
        .into_iter()
        .map(|(task, group)| {
            let feasible: Vec<&&Solution> = group
                .iter()
                .filter(|s| s.status != Status::Infeasible)
                .collect();
            TaskRow {
                task,
                ours: feasible.iter().filter_map(|s| s.makespan).min(),
                proven: !feasible.is_empty()
                    && group
                        .iter()
                        .all(|s| matches!(s.status, Status::Optimal | Status::Infeasible)),
                bound: feasible.iter().filter_map(|s| s.lower_bound).min(),
                reference: super::reference_steps(&group[0].instance.instance),
            }
        })
        .collect()
}

/// The table as Markdown.
pub fn markdown(rows: &[TaskRow]) -> String {
    let mut out = String::from("| task | ours | proven | theirs (optimal_steps) | ours − theirs |\n|---|---:|---|---:|---:|\n");
    for r in rows {
        let show = |v: Option<i64>| v.map_or("–".to_string(), |v| v.to_string());
        let diff = match (r.ours, r.reference) {
            (Some(o), Some(t)) => format!("{:+}", o - t),
            _ => "–".into(),
        };
        let proof = if r.proven {
            "optimal".to_string()
        } else {
            format!("bound {}", show(r.bound))
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            r.task.trim_start_matches("robotouille-"),
            show(r.ours),
            proof,
            show(r.reference),
            diff
        );
    }
    out
}
