//! What the classic scheduling formats (PSPLIB `.sm`, ProGen/max `.sch`, job shop `.jss`)
//! share once their numbers are read: renewable resources `R1 … RK` with per-activity
//! demands, and an instance without agents that records the file it came from.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use makespan_model::instance::{Instance, LoadError, Resource, ResourceUse, Source};

use crate::{ImportOptions, Probe};

/// A classic scheduling format read for validation against published optima: instances
/// only (no native answers, no baseline). One value per format, listed in the registry.
pub struct Classic {
    /// Its name in `source.benchmark`.
    pub name: &'static str,
    /// Its file extensions (any case; the first names the format): the plain-text formats
    /// have no signature beyond a line of numbers, so the name decides.
    pub extensions: &'static [&'static str],
    /// How it is listed among the accepted formats.
    pub description: &'static str,
    /// Whether text under another name is one of its files anyway.
    pub looks_like: fn(&str) -> bool,
    /// Its reader.
    pub read: fn(&Path, &str) -> Result<Vec<Instance>, LoadError>,
}

impl crate::Benchmark for Classic {
    fn name(&self) -> &'static str {
        self.name
    }

    fn detect(&self, probe: &Probe<'_>) -> Option<Result<&'static str, LoadError>> {
        let text = probe.text?;
        let named = self.extensions.iter().any(|e| probe.has_extension(e));
        (named || (self.looks_like)(text)).then_some(Ok(self.extensions[0]))
    }

    fn files(&self) -> Option<&'static str> {
        Some(self.description)
    }

    fn fixed_agents(&self) -> Option<crate::FixedAgents> {
        Some(crate::FixedAgents {
            count: None,
            why: "the classic scheduling formats limit activities by their resources only, and have no agents",
        })
    }

    fn extensions(&self) -> &'static [&'static str] {
        self.extensions
    }

    fn import(
        &self,
        _: &'static str,
        path: &Path,
        bytes: &[u8],
        _: &ImportOptions,
    ) -> Result<Vec<Instance>, LoadError> {
        (self.read)(path, crate::utf8(path, bytes)?)
    }
}

/// The id of the `k`-th renewable resource (0-based `k`): `R1`, `R2`, …
fn renewable_id(k: usize) -> String {
    format!("R{}", k + 1)
}

/// Renewable resources `R1 … RK` with the given capacities (checked by the reader).
pub fn renewable(capacities: &[i64]) -> Vec<Resource> {
    capacities
        .iter()
        .enumerate()
        .map(|(k, &c)| Resource {
            id: renewable_id(k),
            capacity: c as u32,
            states: Vec::new(),
        })
        .collect()
}

/// One activity's demand row as uses of `R1 … RK`; zero demands are left out.
pub fn demands(row: &[i64]) -> Vec<ResourceUse> {
    row.iter()
        .enumerate()
        .filter(|(_, &d)| d > 0)
        .map(|(k, &d)| ResourceUse {
            resource: renewable_id(k),
            amount: d as u32,
        })
        .collect()
}

/// An empty instance of `benchmark` named `name` (no agents), read from `path`, with
/// `notes`; the importer fills in resources, activities and precedences.
pub fn instance(
    benchmark: &str,
    path: &Path,
    name: String,
    notes: BTreeMap<String, Value>,
) -> Instance {
    Instance {
        source: Some(Source {
            benchmark: benchmark.into(),
            file: Some(path.display().to_string()),
            notes,
        }),
        ..Instance::new(name, None)
    }
}
