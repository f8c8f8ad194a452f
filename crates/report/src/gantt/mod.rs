//! Gantt pictures.
