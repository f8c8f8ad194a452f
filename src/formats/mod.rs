//! Importers of benchmark files (see the module of each benchmark).
