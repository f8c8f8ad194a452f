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

/// What is known of one (set, task, seed) of a checkout: a reference's figures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeedResult {
    /// `synchronous`, `asynchronous` or `multi_agent`.
    pub set: String,
    /// The environment file's name (`3_tomato_burger_and_fries`).
    pub task: String,
    /// The seed asked for; `None` for the default layout.
    pub seed: Option<i64>,
    /// `Optimal`, `Feasible` or no plan (`Error`).
    pub status: Status,
    /// The plan's length, if there is a plan.
    pub makespan: Option<i64>,
    /// The proven lower bound.
    pub bound: Option<i64>,
    /// The hard-coded count of the task and the verdict on its budget for this seed.
    pub budget: Option<crate::Budget>,
}

/// The per-seed table: one row per (set, task) with the hard-coded count, the optimum of the
/// default layout and of each seed (`42` proven; `44 ≥ 40` a plan and the bound; `≥ 40` no
/// plan, only the bound), and the seeds whose budget is proven below or above the one the
/// seed's optimum gives. `seeds` are the columns, in order.
pub fn seed_table(results: &[SeedResult], seeds: &[i64]) -> String {
    let mut tasks: Vec<(String, String)> = Vec::new();
    for r in results {
        let key = (r.set.clone(), r.task.clone());
        if !tasks.contains(&key) {
            tasks.push(key);
        }
    }
    // Upstream's order of the sets, tasks by number.
    let rank = |(set, task): &(String, String)| {
        let set = super::checkout::SETS.iter().position(|s| s == set);
        let number = task
            .split('_')
            .next()
            .and_then(|n| n.parse::<f64>().ok())
            .unwrap_or(f64::MAX);
        (set, (number * 100.0) as i64, task.clone())
    };
    tasks.sort_by_key(rank);
    let mut out = String::from("| set | task | hard-coded | default |");
    for s in seeds {
        let _ = write!(out, " {s} |");
    }
    out += " budget below | budget above |\n|---|---|---:|---:|";
    out += &"---:|".repeat(seeds.len());
    out += "---|---|\n";
    for (set, task) in tasks {
        let of = |seed: Option<i64>| {
            results
                .iter()
                .find(|r| r.set == set && r.task == task && r.seed == seed)
        };
        let cell = |seed: Option<i64>| match of(seed) {
            None => "".to_string(),
            Some(r) => match (r.status, r.makespan, r.bound) {
                (Status::Optimal, Some(m), _) => m.to_string(),
                (_, Some(m), Some(b)) => format!("{m} ≥ {b}"),
                (_, Some(m), None) => format!("{m} ≥ ?"),
                (_, None, Some(b)) => format!("≥ {b}"),
                (_, None, None) => "–".to_string(),
            },
        };
        let stated = results
            .iter()
            .filter(|r| r.set == set && r.task == task)
            .find_map(|r| r.budget.as_ref().map(|b| b.stated));
        let flagged = |verdict: crate::BudgetVerdict| {
            let list: Vec<String> = std::iter::once(None)
                .chain(seeds.iter().copied().map(Some))
                .filter(|&seed| {
                    of(seed)
                        .is_some_and(|r| r.budget.as_ref().is_some_and(|b| b.verdict == verdict))
                })
                .map(|seed| seed.map_or("default".to_string(), |s| s.to_string()))
                .collect();
            list.join(", ")
        };
        let _ = write!(
            out,
            "| {set} | {task} | {} | {} |",
            stated.map_or("–".to_string(), |s| s.to_string()),
            cell(None)
        );
        for &s in seeds {
            let _ = write!(out, " {} |", cell(Some(s)));
        }
        let _ = writeln!(
            out,
            " {} | {} |",
            flagged(crate::BudgetVerdict::Below),
            flagged(crate::BudgetVerdict::Above)
        );
    }
    out
}
