//! AsyncTool: chains of tool calls whose results arrive rounds later.
//! No data set is public, so instances come from a seeded generator ([`generate`]); answers
//! are turn lists, one entry per assistant round ([`turns`]).

pub mod generate;
pub mod turns;

/// The benchmark name in `source.benchmark`.
pub const BENCHMARK: &str = "asynctool";

use std::path::Path;

use makespan_model::instance::{Instance, LoadError};
use makespan_model::schedule::ScheduledActivity;

use crate::{Answer, Benchmark, ImportOptions, Probe, VerifiedAnswer};

/// AsyncTool: chains of tool calls whose results arrive rounds later.
pub struct AsyncTool;

impl Benchmark for AsyncTool {
    fn name(&self) -> &'static str {
        BENCHMARK
    }

    /// None of its own: the generator writes unified instances.
    fn files(&self) -> Option<&'static str> {
        None
    }

    fn detect(&self, _: &Probe<'_>) -> Option<Result<&'static str, LoadError>> {
        None
    }

    /// Never asked: [`AsyncTool::detect`] recognises no file.
    fn import(
        &self,
        shape: &'static str,
        path: &Path,
        _: &[u8],
        _: &ImportOptions,
    ) -> Result<Vec<Instance>, LoadError> {
        Err(LoadError::format(
            path,
            "top level",
            format!("asynctool has no {shape} files: its instances are unified files from `makespan generate asynctool`"),
        ))
    }

    fn answers(&self) -> Option<&dyn crate::Answers> {
        Some(self)
    }
}

impl crate::Answers for AsyncTool {
    /// None: a schedule is not a turn list (the rounds are the model's, not the solver's).
    fn write(&self, _: &Instance, _: &[ScheduledActivity]) -> Option<crate::NativeAnswer> {
        None
    }

    /// Turn lists, for AsyncTool instances.
    fn verify(&self, answer: &Answer<'_>) -> Option<Result<VerifiedAnswer, LoadError>> {
        let instance = answer.instance?;
        if instance.source.as_ref()?.benchmark != BENCHMARK
            || answer.text.trim_start().starts_with('{')
        {
            return None;
        }
        let check: Result<VerifiedAnswer, LoadError> = turns::read_turns(answer.path, answer.text)
            .map(|rounds| {
                VerifiedAnswer::plain(
                    turns::turn_schedule(instance, &rounds),
                    turns::verify_turns(instance, &rounds),
                )
            });
        Some(check)
    }
}
