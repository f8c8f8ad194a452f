//! AsyncTool (spec `asynctool.md`): chains of tool calls whose results arrive rounds later.
//! No data set is public, so instances come from a seeded generator ([`generate`]); answers
//! are turn lists, one entry per assistant round ([`turns`]).

pub mod generate;
pub mod turns;

/// The benchmark name in `source.benchmark`.
pub const BENCHMARK: &str = "asynctool";

use makespan_model::instance::LoadError;

use crate::registry::{Answer, Benchmark, NativeCheck};

/// AsyncTool (spec `asynctool.md`).
pub struct AsyncTool;

impl Benchmark for AsyncTool {
    fn name(&self) -> &'static str {
        BENCHMARK
    }

    /// Turn lists, for AsyncTool instances.
    fn check_answer(&self, answer: &Answer<'_>) -> Option<Result<NativeCheck, LoadError>> {
        let instance = answer.instance?;
        if instance.source.as_ref()?.benchmark != BENCHMARK
            || answer.text.trim_start().starts_with('{')
        {
            return None;
        }
        let check: Result<NativeCheck, LoadError> = turns::read_turns(answer.path, answer.text)
            .map(|rounds| {
                NativeCheck::plain(
                    turns::turn_schedule(instance, &rounds),
                    turns::verify_turns(instance, &rounds),
                )
            });
        Some(check)
    }
}
