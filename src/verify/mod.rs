//! The independent plan verifier.
