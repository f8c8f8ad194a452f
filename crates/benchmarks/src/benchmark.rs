//! What every benchmark is: a name, the files it recognises and how they become instances.
//!
//! Everything else a benchmark may have is an optional power, handed out by the core as a
//! small capability object: native answers ([`Answers`]), instances looked up by name
//! ([`Lookup`]), checkouts imported whole ([`Checkout`]), its own baselines ([`Baseline`],
//! [`BaselineFile`]), its harness's whole runs ([`Harness`]), its simulator ([`Simulated`]),
//! the groups `compare` counts in, and options of its own ([`Knob`]). A benchmark implements the powers it has in its
//! own folder and hands them out here; callers ask for a power and skip the benchmarks that
//! lack it. Why capability objects instead of one wide trait: each power is a few methods
//! that belong together and that a caller uses together, and a benchmark that lacks one says
//! so once, not in every method.

use std::path::Path;

use makespan_model::instance::{Instance, LoadError};

use crate::answers::Answers;
use crate::baseline::{Baseline, BaselineFile};
use crate::detect::Probe;
use crate::harness::Harness;
use crate::lookup::{Checkout, Lookup};
use crate::options::{ImportOptions, Knob};
use crate::simulated::Simulated;

/// One benchmark: how its files are recognised and imported, and the powers it has.
pub trait Benchmark: Sync {
    /// Lower-case name, as in `source.benchmark` of its instances and in `BENCH:NAME`.
    fn name(&self) -> &'static str;

    /// Its files, as listed in the error for a file no benchmark recognises; `None` for a
    /// benchmark whose instances are unified files (AsyncTool's come from `generate`).
    fn files(&self) -> Option<&'static str>;

    /// Whether the file is one of this benchmark's: the name of its kind of file (e.g.
    /// `tasks.json`), an error when it looks like one but cannot be (a `.pkl` that is no
    /// pickle), or `None` to let the next benchmark look. Asked in the registry's order.
    fn detect(&self, probe: &Probe<'_>) -> Option<Result<&'static str, LoadError>>;

    /// Every instance of a file [`Benchmark::detect`] recognised as `shape`.
    fn import(
        &self,
        shape: &'static str,
        path: &Path,
        bytes: &[u8],
        opts: &ImportOptions,
    ) -> Result<Vec<Instance>, LoadError>;

    /// File extensions (lower case) that make a file in a folder one of its inputs whatever
    /// it holds (`solve DIR` imports them); JSON files are looked at anyway.
    fn extensions(&self) -> &'static [&'static str] {
        &[]
    }

    /// The agent count its instances are fixed at, where agent counts (`--agents`) cannot
    /// change them (one player, robots placed by the kitchen's file, activities limited by
    /// resources only): an import asking for another is refused with the reason instead of
    /// silently solving the benchmark's own count. `None` where its import builds one instance
    /// per requested count.
    fn fixed_agents(&self) -> Option<FixedAgents> {
        None
    }

    /// The options of its own that its import reads (TimeArena's `combine`), each a flag of
    /// the commands that import and a keyword of Python's `load`.
    fn knobs(&self) -> &'static [Knob] {
        &[]
    }

    /// Its native answers: read, checked, written, summed up.
    fn answers(&self) -> Option<&dyn Answers> {
        None
    }

    /// `BENCH:NAME`: its instances looked up by name in its native file.
    fn lookup(&self) -> Option<&dyn Lookup> {
        None
    }

    /// Its users' checkouts, imported whole rather than walked for files.
    fn checkout(&self) -> Option<&dyn Checkout> {
        None
    }

    /// Its own method of building a schedule (its "oracle"), replayed and verified.
    fn baseline(&self) -> Option<&'static Baseline> {
        None
    }

    /// A file of its own baseline plans, for `compare --baseline FILE`.
    fn baseline_file(&self) -> Option<BaselineFile> {
        None
    }

    /// Its harness's outputs (whole model runs), for `makespan score`.
    fn harness(&self) -> Option<&'static dyn Harness> {
        None
    }

    /// Its simulator, for instances that are simulated worlds rather than activity graphs.
    fn simulated(&self) -> Option<&'static dyn Simulated> {
        None
    }

    /// The group `compare` counts an instance in (a level, a scenario).
    fn grouping(&self) -> Option<fn(&Instance) -> Option<String>> {
        None
    }
}

/// The agents of a benchmark whose instances cannot take other counts
/// ([`Benchmark::fixed_agents`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FixedAgents {
    /// The count its instances have, which a user may give and which changes nothing
    /// (TimeArena's single player); `None` where no count means anything (robots placed by a
    /// kitchen's file, formats without agents).
    pub count: Option<u32>,
    /// Why no other count applies.
    pub why: &'static str,
}

/// A benchmark shows as its name.
impl std::fmt::Debug for dyn Benchmark {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
