//! ParaCook's concrete kitchens.

pub mod bounds;
pub mod oracle;
