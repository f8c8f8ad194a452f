//! AsyncTool: `K` subtask chains of tool calls, one call per
//! round for the single assistant, and a call's result arrives `d` rounds later, so the
//! next call of its chain starts at least `1 + d` rounds after it. Call `j` of chain `i`
//! is the activity `c<i>-<j>` (both 1-based); round = time + 1.

use std::collections::BTreeMap;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::BENCHMARK;
use crate::generate::Span;
use makespan_model::instance::{Activity, Instance, Precedence, Source, TimeUnit};

/// What to generate.
#[derive(Debug, Clone, Copy)]
pub struct Params {
    /// Seed of the random draws; the same seed and parameters give the same instance.
    pub seed: u64,
    /// Number of subtask chains.
    pub chains: usize,
    /// Calls per chain, drawn per chain.
    pub length: Span,
    /// Delay of each call's result in rounds, drawn per call.
    pub delay: Span,
}

/// The activity id of call `call` (1-based) of chain `chain` (1-based).
pub fn call_id(chain: usize, call: usize) -> String {
    format!("c{chain}-{call}")
}

/// A seeded AsyncTool instance; its name records every parameter.
pub fn generate(p: &Params) -> Instance {
    let mut rng = SmallRng::seed_from_u64(p.seed);
    let mut activities = Vec::new();
    let mut precedences = Vec::new();
    let mut lengths = Vec::new();
    for i in 1..=p.chains {
        let k = rng.random_range(p.length.low..=p.length.high).max(1) as usize;
        lengths.push(k);
        for j in 1..=k {
            let mut a = Activity::new(call_id(i, j), 1);
            a.label = Some(format!("subtask c{i}, call {j} of {k}"));
            activities.push(a);
            if j > 1 {
                let d = rng.random_range(p.delay.low..=p.delay.high);
                precedences.push(Precedence::finish_to_start(
                    call_id(i, j - 1),
                    call_id(i, j),
                    d,
                ));
            }
        }
    }
    let mut notes = BTreeMap::new();
    notes.insert("seed".into(), p.seed.into());
    notes.insert("chain_lengths".into(), serde_json::json!(lengths));
    notes.insert("delay".into(), p.delay.label().into());
    Instance {
        time_unit: TimeUnit::Step,
        activities,
        precedences,
        source: Some(Source {
            benchmark: BENCHMARK.into(),
            file: None,
            notes,
        }),
        ..Instance::new(
            format!(
                "asynctool-s{}-k{}-l{}-d{}",
                p.seed,
                p.chains,
                p.length.label(),
                p.delay.label()
            ),
            Some(1),
        )
    }
}

/// The closed form for uniform delay 1: `T* = max(N, 2·k_max − 1)` rounds (two calls of a
/// chain are never in adjacent rounds).
pub fn closed_form_delay_one(lengths: &[usize]) -> i64 {
    let n: usize = lengths.iter().sum();
    let k_max = lengths.iter().copied().max().unwrap_or(0);
    n.max((2 * k_max).saturating_sub(1)) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_instance_and_chains_have_delays() {
        let p = Params {
            seed: 7,
            chains: 3,
            length: Span { low: 1, high: 4 },
            delay: Span::fixed(2),
        };
        assert_eq!(generate(&p), generate(&p));
        let inst = generate(&p);
        inst.validate().unwrap();
        assert!(inst.precedences.iter().all(|q| q.min_lag == 2));
        assert_eq!(closed_form_delay_one(&[3, 2]), 5);
        assert_eq!(closed_form_delay_one(&[4, 1]), 7);
    }
}
