//! A run's identity: one digest of everything that decides what a run tallies, so that
//! files of different runs are never added together by mistake.
//!
//! The shards of a run (`run --shard I/K`) are often made far apart: by the tasks of a
//! Slurm array, the pods of a Kubernetes Job, machines of different kinds. `merge` must
//! know that the files it adds are the shards of *one* run: the same algorithms in the
//! same order, `n`, `k`, trials, seed, source (with its parameters) and tool version.
//! Each run's JSON carries the SHA-256 of those settings as `run_id`; a shard and the
//! whole run share it (the shard count is not part of it: the merged run is the run),
//! and `merge` recomputes it from each file's own settings, so that a file edited by hand
//! is caught too.
//!
//! The digest is taken over a canonical serialisation, a JSON record with fixed field
//! order and integers only (the clock step in whole microseconds), never over Rust's
//! `Hash`, whose standard hasher is keyed at random in each process: the identity is the
//! same on every machine and in every later build of the same version.

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::RunReport;
use crate::randomness::SourceKind;

/// What a run's identity is made of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunIdentity<'a> {
    /// The algorithms' names as they ran (`naive-repeated:3`), in order.
    pub algorithms: Vec<&'a str>,
    /// Cards, or items to pick from.
    pub n: usize,
    /// Items each sampler picks.
    pub k: Option<usize>,
    /// Trials per algorithm of the whole run (not of one shard).
    pub trials: u64,
    /// The seed.
    pub seed: u64,
    /// The randomness under the algorithms.
    pub source: SourceKind,
}

/// The canonical record that is digested: change its fields and every identity changes,
/// which is what a new `format` number says.
#[derive(Serialize)]
struct Canonical<'a> {
    format: &'static str,
    tool: &'static str,
    version: &'static str,
    algorithms: &'a [&'a str],
    n: usize,
    k: Option<usize>,
    trials: u64,
    seed: u64,
    source: &'static str,
    clock_step_us: Option<u64>,
}

impl RunIdentity<'_> {
    /// The canonical serialisation the digest is taken over (one line of JSON).
    pub fn canonical(&self) -> String {
        let clock_step_us = match self.source {
            SourceKind::ClockReseed(step) => Some(step.microseconds()),
            _ => None,
        };
        let record = Canonical {
            format: "shuffle-audit run identity 1",
            tool: "shuffle-audit",
            version: env!("CARGO_PKG_VERSION"),
            algorithms: &self.algorithms,
            n: self.n,
            k: self.k,
            trials: self.trials,
            seed: self.seed,
            source: self.source.name(),
            clock_step_us,
        };
        serde_json::to_string(&record).expect("a record of strings and integers serialises")
    }

    /// The identity: SHA-256 of [`Self::canonical`], 64 lowercase hex digits.
    pub fn digest(&self) -> String {
        Sha256::digest(self.canonical().as_bytes())
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect()
    }
}

impl RunReport {
    /// The run's identity; `None` for samples read by `ingest`, which no seed or source
    /// made.
    pub fn identity(&self) -> Option<RunIdentity<'_>> {
        self.input.is_none().then(|| RunIdentity {
            algorithms: self
                .results
                .iter()
                .map(|result| result.name.as_str())
                .chain(self.sampler_results.iter().map(|result| result.name.as_str()))
                .collect(),
            n: self.settings.n,
            k: self.settings.k,
            trials: self.settings.trials,
            seed: self.seed,
            source: self.settings.source,
        })
    }
}

#[cfg(test)]
mod tests;
