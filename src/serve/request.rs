//! A catalogue run asked for by the page, read with the command line's rules.
//!
//! The page sends every field as the text a user typed, and each is parsed by the parser
//! `run`'s flag uses (`parse_count` for trials, `parse_alpha` for alpha) and checked by
//! [`RunSettings::validate`], so a value the command line refuses is refused here with
//! the same one-line message, and one it accepts runs the same.

use serde::Deserialize;

use crate::catalogue::{AlgorithmSpec, Kind};
use crate::error::{Error, Result};
use crate::parse::{parse_alpha, parse_count};
use crate::randomness::SourceKind;
use crate::run::{RunSettings, SeedOrigin};

/// The fields of a run request, as typed (numbers may also come as JSON numbers).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunRequest {
    pub algorithm: Option<String>,
    pub source: Option<String>,
    pub n: Option<Field>,
    pub trials: Option<Field>,
    pub seed: Option<Field>,
    pub alpha: Option<Field>,
}

/// A value typed into a form: text, or a number sent as one.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Field {
    Text(String),
    Number(serde_json::Number),
}

impl Field {
    fn text(&self) -> String {
        match self {
            Field::Text(text) => text.clone(),
            Field::Number(number) => number.to_string(),
        }
    }
}

/// A run the server may start: one catalogue shuffle and its settings, seed fixed.
#[derive(Clone, Debug)]
pub struct LiveRunSpec {
    pub spec: AlgorithmSpec,
    pub settings: RunSettings,
    /// Whether the seed was given or taken from the OS (the JSON says which).
    pub seed_origin: SeedOrigin,
}

/// `invalid value 'x' for '--n <N>': …`, as clap words a value its parser refused.
fn invalid(flag: &str, text: &str, why: impl std::fmt::Display) -> Error {
    Error::Usage(format!("invalid value '{text}' for '{flag}': {why}"))
}

/// `the following required arguments were not provided: --n <N>`, as clap says it.
fn missing(flag: &str) -> Error {
    Error::Usage(format!(
        "the following required arguments were not provided: {flag}"
    ))
}

impl RunRequest {
    /// Parses a JSON body into a request, refusing anything else in one line.
    pub fn from_json(body: &[u8]) -> Result<Self> {
        serde_json::from_slice(body).map_err(|error| {
            Error::Usage(format!(
                "the request is not a run request ({})",
                crate::format::escaped_for_terminals(&error.to_string())
            ))
        })
    }

    /// The run asked for, with the seed fixed (from the OS when none was given) and
    /// `threads` workers, checked as `run` checks its flags.
    pub fn resolve(&self, threads: usize) -> Result<LiveRunSpec> {
        let name = self
            .algorithm
            .as_deref()
            .filter(|name| !name.trim().is_empty())
            .ok_or_else(|| missing("<ALGORITHM>"))?;
        let spec = AlgorithmSpec::parse(name.trim())?;
        if spec.kind() != Kind::Shuffle {
            return Err(Error::Usage(format!(
                "{} is a sampler: the live page runs shuffles (use `shuffle-audit run {} --n N --k K`)",
                spec.entry.name, spec.entry.name
            )));
        }
        let source = SourceKind::parse(self.source.as_deref().unwrap_or("xoshiro").trim(), None)?;
        let n_text = self.n.as_ref().ok_or_else(|| missing("--n <N>"))?.text();
        let n: usize = n_text
            .trim()
            .parse()
            .map_err(|error| invalid("--n <N>", &n_text, error))?;
        let trials = match &self.trials {
            None => 600_000,
            Some(field) => {
                let text = field.text();
                parse_count(&text).map_err(|why| invalid("--trials <T>", &text, why))?
            }
        };
        let seed = match &self.seed {
            None => None,
            Some(field) if field.text().trim().is_empty() => None,
            Some(field) => {
                let text = field.text();
                Some(
                    text.trim()
                        .parse::<u64>()
                        .map_err(|error| invalid("--seed <S>", &text, error))?,
                )
            }
        };
        let alpha = match &self.alpha {
            None => 1e-6,
            Some(field) => {
                let text = field.text();
                parse_alpha(&text).map_err(|why| invalid("--alpha <A>", &text, why))?
            }
        };
        let (seed, seed_origin) = SeedOrigin::fix(seed)?;
        let seed = Some(seed);
        let settings = RunSettings {
            n,
            k: None,
            trials,
            seed,
            threads,
            alpha,
            shard: None,
            source,
        };
        settings.validate(std::slice::from_ref(&spec))?;
        Ok(LiveRunSpec {
            spec,
            settings,
            seed_origin,
        })
    }
}
