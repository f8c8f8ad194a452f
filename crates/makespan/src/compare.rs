//! Baselines against optima: for each instance, a baseline's makespan (or why it has none)
//! next to the optimum, their ratio, and counts and means per group. Benchmark-neutral:
//! callers turn their baseline (a benchmark's heuristic plans, a folder of solutions) into
//! [`Row`]s; the group is whatever the caller compares by (a level, a scenario).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use makespan_model::instance::TimeUnit;
use makespan_model::solution::Status;

/// One instance: the baseline's makespan or the reason it has none, and the reference.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// Instance name.
    pub instance: String,
    /// The group it is counted in (a level, a scenario, a benchmark).
    pub group: String,
    /// The baseline's makespan, or why there is none (no plan, plan invalid, …).
    pub baseline: Result<i64, String>,
    /// The reference makespan (the optimum when `status` is optimal).
    pub optimum: Option<i64>,
    /// Status of the reference solution.
    pub status: Status,
    /// The unit of both makespans, for showing them as people read them
    /// ([`TimeUnit::show`]).
    pub time_unit: TimeUnit,
}

impl Row {
    /// Baseline / optimum, when both exist and the optimum is positive.
    pub fn ratio(&self) -> Option<f64> {
        match (&self.baseline, self.optimum) {
            (Ok(b), Some(o)) if o > 0 => Some(*b as f64 / o as f64),
            _ => None,
        }
    }
}

/// Counts and means of one group.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Group {
    /// The group.
    pub group: String,
    /// Instances in the group.
    pub instances: usize,
    /// Instances whose reference is proven optimal.
    pub optimal: usize,
    /// Instances with a baseline makespan.
    pub with_baseline: usize,
    /// Of those, baselines longer than the reference.
    pub suboptimal: usize,
    /// Baselines shorter than a proven optimum: a bug somewhere, never expected.
    pub below_optimum: usize,
    /// Mean baseline / optimum over instances with both.
    pub mean_ratio: Option<f64>,
    /// Largest baseline / optimum.
    pub worst_ratio: Option<f64>,
}

/// One [`Group`] per group name, in name order, and one for all rows (`"all"`).
pub fn summarize(rows: &[Row]) -> Vec<Group> {
    let mut by_group: BTreeMap<&str, Vec<&Row>> = BTreeMap::new();
    for r in rows {
        by_group.entry(r.group.as_str()).or_default().push(r);
    }
    let mut groups: Vec<Group> = by_group
        .into_iter()
        .map(|(name, rows)| group(name, &rows))
        .collect();
    if groups.len() > 1 {
        groups.push(group("all", &rows.iter().collect::<Vec<_>>()));
    }
    groups
}

fn group(name: &str, rows: &[&Row]) -> Group {
    let ratios: Vec<f64> = rows.iter().filter_map(|r| r.ratio()).collect();
    Group {
        group: name.to_string(),
        instances: rows.len(),
        optimal: rows.iter().filter(|r| r.status == Status::Optimal).count(),
        with_baseline: rows.iter().filter(|r| r.baseline.is_ok()).count(),
        suboptimal: rows
            .iter()
            .filter(|r| matches!((&r.baseline, r.optimum), (Ok(b), Some(o)) if *b > o))
            .count(),
        below_optimum: rows
            .iter()
            .filter(|r| {
                r.status == Status::Optimal
                    && matches!((&r.baseline, r.optimum), (Ok(b), Some(o)) if *b < o)
            })
            .count(),
        mean_ratio: (!ratios.is_empty()).then(|| ratios.iter().sum::<f64>() / ratios.len() as f64),
        worst_ratio: ratios.iter().copied().reduce(f64::max),
    }
}

/// The rows as an aligned text table, then the group summaries.
pub fn render(rows: &[Row], groups: &[Group]) -> String {
    let width = rows
        .iter()
        .map(|r| r.instance.len())
        .max()
        .unwrap_or(8)
        .max(8);
    let gw = rows.iter().map(|r| r.group.len()).max().unwrap_or(5).max(5);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<width$}  {:<gw$} {:>9} {:>9} {:>7}  {:<8} note",
        "instance", "group", "baseline", "optimum", "ratio", "status"
    );
    for r in rows {
        let (baseline, note) = match &r.baseline {
            Ok(b) => (r.time_unit.show(*b), String::new()),
            Err(reason) => ("-".to_string(), reason.clone()),
        };
        let _ = writeln!(
            out,
            "{:<width$}  {:<gw$} {:>9} {:>9} {:>7}  {:<8} {note}",
            r.instance,
            r.group,
            baseline,
            r.optimum.map_or("-".into(), |o| r.time_unit.show(o)),
            r.ratio().map_or("-".into(), |x| format!("{x:.3}")),
            r.status.to_string(),
        );
    }
    out.push('\n');
    for g in groups {
        let _ = writeln!(
            out,
            "{}: {} instances ({} proven optimal), {} with a baseline, {} suboptimal{}; mean ratio {}, worst {}",
            g.group,
            g.instances,
            g.optimal,
            g.with_baseline,
            g.suboptimal,
            if g.below_optimum > 0 {
                format!(", {} BELOW the optimum", g.below_optimum)
            } else {
                String::new()
            },
            g.mean_ratio.map_or("-".into(), |x| format!("{x:.4}")),
            g.worst_ratio.map_or("-".into(), |x| format!("{x:.4}")),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(group: &str, baseline: Result<i64, String>, optimum: i64) -> Row {
        Row {
            instance: format!("i{optimum}"),
            group: group.into(),
            baseline,
            optimum: Some(optimum),
            status: Status::Optimal,
            time_unit: TimeUnit::Step,
        }
    }

    #[test]
    fn groups_count_and_average_only_rows_with_a_baseline() {
        let rows = [
            row("easy", Ok(12), 10),
            row("easy", Ok(10), 10),
            row("medium", Err("no plan".into()), 8),
        ];
        let groups = summarize(&rows);
        assert_eq!(groups.len(), 3);
        let easy = &groups[0];
        assert_eq!(
            (easy.instances, easy.with_baseline, easy.suboptimal),
            (2, 2, 1)
        );
        assert!((easy.mean_ratio.unwrap() - 1.1).abs() < 1e-12);
        assert_eq!(easy.worst_ratio, Some(1.2));
        assert_eq!((groups[1].with_baseline, groups[1].mean_ratio), (0, None));
        assert_eq!(groups[2].group, "all");
        assert!(render(&rows, &groups).contains("no plan"));
    }
}
