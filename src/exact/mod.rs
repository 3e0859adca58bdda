//! Exact analysis: what a shuffle does, computed rather than simulated.

pub mod positions;
