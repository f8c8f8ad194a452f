//! The concrete kitchens' oracle on a whole checkout, as a table: `cargo bench --bench
//! paracook_concrete`. Plans every kitchen of `../shared/benchmarks/paracook/upstream`
//! (`$PARACOOK_CHECKOUT`) within `$PARACOOK_SECONDS` (default 6) each on all cores, and prints
//! per kitchen the plan's time (replayed in both modes), the bound and which argument gave
//! it, whether it is proven, and then the counts: plans verified, proven (among one order,
//! and one cook with two orders), the gap's quartiles, how often each argument gave the
//! bound, the wall time and the peak memory of the process. `$PARACOOK_OUT` names a JSON
//! lines file for every kitchen's best plan (its answer in the harness's form), `$PARACOOK_ONLY`
//! keeps the kitchens whose key starts with it.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use makespan::benchmarks::paracook::concrete::checkout::read_checkout;
use makespan::benchmarks::paracook::concrete::oracle::solve::{plan_kitchen, Oracle};
use makespan::benchmarks::Limits;
use rayon::prelude::*;

/// One kitchen's row: key, cooks, orders, what the oracle found, seconds.
type Row = (String, u32, u32, Result<Oracle, String>, f64);

fn main() {
    let root = std::env::var_os("PARACOOK_CHECKOUT").map_or_else(
        || PathBuf::from("../shared/benchmarks/paracook/upstream"),
        PathBuf::from,
    );
    let seconds: f64 = std::env::var("PARACOOK_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6.0);
    let only = std::env::var("PARACOOK_ONLY").unwrap_or_default();
    let kitchens = match read_checkout(&root) {
        Ok(k) => k,
        Err(e) => {
            println!("no checkout to plan ({e}); set PARACOOK_CHECKOUT");
            return;
        }
    };
    let kitchens: Vec<_> = kitchens
        .into_iter()
        .filter(|k| k.key.starts_with(&only))
        .collect();
    let started = Instant::now();
    let limits = Limits {
        time: Some(Duration::from_secs_f64(seconds)),
        ..Limits::default()
    };
    let results: Vec<Row> = kitchens
        .par_iter()
        .map(|k| {
            let t = Instant::now();
            let o = plan_kitchen(k, &limits);
            (
                k.key.clone(),
                k.agents() as u32,
                k.orders_num,
                o,
                t.elapsed().as_secs_f64(),
            )
        })
        .collect();
    let wall = started.elapsed().as_secs_f64();
    let mut lines = Vec::new();
    let (mut verified, mut proven, mut small, mut small_proven, mut errors) = (0, 0, 0, 0, 0);
    let mut gaps = Vec::new();
    let mut arguments: BTreeMap<&str, usize> = BTreeMap::new();
    for (key, m, k, oracle, secs) in &results {
        let o = match oracle {
            Ok(o) => o,
            Err(e) => {
                errors += 1;
                println!("{key:<44} error: {e}");
                continue;
            }
        };
        *arguments
            .entry(o.intended_bound.argument.name())
            .or_default() += 1;
        let is_small = *k == 1 || (*m == 1 && *k == 2);
        small += usize::from(is_small);
        let Some(best) = &o.best else {
            println!("{key:<44} no plan, bound {}", o.bound());
            continue;
        };
        verified += 1;
        proven += usize::from(o.optimal);
        small_proven += usize::from(is_small && o.optimal);
        let gap = (best.time - o.bound()) as f64 / best.time as f64;
        if !o.optimal {
            gaps.push(gap);
        }
        println!(
            "{key:<44} {:>4} replica {:>4} intended {:>4} bound {:>4} ({:<8}) replica bound {:>4} {:<9} gap {:>5.1}% {:<16} {secs:>5.1}s",
            best.time,
            best.replica.oct,
            best.intended.oct,
            o.bound(),
            o.intended_bound.argument.name(),
            o.replica_bound.value,
            if o.optimal { "optimal" } else { "feasible" },
            100.0 * gap,
            best.method,
        );
        lines.push(serde_json::json!({
            "key": key,
            "time": best.time,
            "replica_time": best.replica.oct,
            "intended_time": best.intended.oct,
            "bound": o.bound(),
            "replica_bound": o.replica_bound.value,
            "argument": o.intended_bound.argument.name(),
            "status": if o.optimal { "optimal" } else { "feasible" },
            "method": best.method,
            "answer": best.answer,
        }));
    }
    gaps.sort_by(f64::total_cmp);
    let quartile = |q: f64| {
        gaps.get(((gaps.len() as f64 - 1.0) * q).round() as usize)
            .map_or(0.0, |g| 100.0 * g)
    };
    println!(
        "{} kitchens: {verified} plans verified in both modes, {proven} proven ({small_proven} of {small} with one order or one cook and two orders), {errors} errors",
        results.len()
    );
    println!(
        "gap of the unproven ({}): quartiles {:.1}% / {:.1}% / {:.1}%, max {:.1}%",
        gaps.len(),
        quartile(0.25),
        quartile(0.5),
        quartile(0.75),
        quartile(1.0)
    );
    println!("bound given by: {arguments:?}");
    println!("wall {wall:.1} s, peak memory {} MB", peak_mb());
    if let Some(out) = std::env::var_os("PARACOOK_OUT") {
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        let tmp = PathBuf::from(&out).with_extension("tmp");
        if std::fs::write(&tmp, text)
            .and_then(|()| std::fs::rename(&tmp, &out))
            .is_err()
        {
            println!("could not write {}", PathBuf::from(out).display());
        }
    }
}

/// The process's peak resident memory in MB (Linux), 0 where unknown.
fn peak_mb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| {
                l.split_whitespace()
                    .nth(1)
                    .and_then(|v| v.parse::<u64>().ok())
            })
        })
        .map_or(0, |kb| kb / 1024)
}
