//! Importers of benchmark files (see the module of each benchmark).

pub mod asynchow;
