//! How a p-value was computed: from the χ² law, exactly, by simulation, or as a bound.
//!
//! Every p-value the tool prints says which, because they differ in what they promise.
//! The χ² law is read only where the counts support it (five expected per cell for the
//! upper tail; for the lower tail a lattice fine enough, see [`super::exact_multinomial`]);
//! an exact p-value is the discrete law's own; a simulated one is valid but cannot go
//! below about `1e-5`; a bound is never below the true p-value.

use serde::Serialize;

/// How one p-value (one tail) was computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PMethod {
    /// From the χ² law, where the counts support it.
    ChiSquare,
    /// From the exact law of the counts (enumerated, or a closed form).
    Exact,
    /// From a seeded simulation of the null (see [`super::simulated`]).
    Simulated {
        /// Replicates drawn.
        replicates: u64,
    },
    /// An upper bound on the p-value (conservative).
    Bound,
}

/// The names of [`PMethod`] as JSON writes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PMethodName {
    /// The χ² law.
    ChiSquare,
    /// The exact law of the counts.
    Exact,
    /// A seeded simulation of the null.
    Simulated,
    /// A conservative bound.
    Bound,
}

impl PMethod {
    /// Its name, as JSON writes it: `chi-square`, `exact`, `simulated`, `bound`.
    pub fn name(self) -> PMethodName {
        match self {
            PMethod::ChiSquare => PMethodName::ChiSquare,
            PMethod::Exact => PMethodName::Exact,
            PMethod::Simulated { .. } => PMethodName::Simulated,
            PMethod::Bound => PMethodName::Bound,
        }
    }

    /// The replicates of a simulated p-value.
    pub fn replicates(self) -> Option<u64> {
        match self {
            PMethod::Simulated { replicates } => Some(replicates),
            _ => None,
        }
    }

    /// A few words for a table: `χ²`, `exact`, `simulated`, `bound`.
    pub fn short(self) -> &'static str {
        match self {
            PMethod::ChiSquare => "χ²",
            PMethod::Exact => "exact",
            PMethod::Simulated { .. } => "simulated",
            PMethod::Bound => "bound",
        }
    }
}

impl PMethodName {
    /// As JSON writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            PMethodName::ChiSquare => "chi-square",
            PMethodName::Exact => "exact",
            PMethodName::Simulated => "simulated",
            PMethodName::Bound => "bound",
        }
    }
}
