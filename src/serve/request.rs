//! A catalogue run asked for by the page, read with the command line's rules.
//!
//! Every name of `list` may be asked for: a shuffle or a sampler runs as `run` runs it
//! (a sampler with `k`), a generator as `stream` runs it (with `items`, `length`,
//! `streams`). The page sends every field as the text a user typed, and each is parsed
//! by the parser the command's flag uses (`parse_count` for trials, `parse_alpha` for
//! alpha) and checked by [`RunSettings::validate`] or [`StreamSettings::validate`], so a
//! value the command line refuses is refused here with the same one-line message, and
//! one it accepts runs the same. The one field the command line has not, `speed`, says
//! how many deals a second the page wants to watch ([`Speed`]): it changes when the deals
//! are dealt, never which.

use std::num::NonZeroU64;

use serde::Deserialize;

use crate::catalogue::AlgorithmSpec;
use crate::catalogue::generators::{GeneratorSpec, StreamScenario};
use crate::catalogue::items::Items;
use crate::error::{Error, Result};
use crate::parse::{parse_alpha, parse_count};
use crate::randomness::SourceKind;
use crate::run::{RunSettings, SeedOrigin};
use crate::stream::StreamSettings;

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
    /// Items a sampler picks (`run --k`).
    pub k: Option<Field>,
    /// A generator's items (`stream --items`).
    pub items: Option<Field>,
    /// Draws per stream (`stream --length`).
    pub length: Option<Field>,
    /// Streams (`stream --streams`).
    pub streams: Option<Field>,
    /// `stream --add-every`.
    pub add_every: Option<Field>,
    /// Deals a second, or `full` (the default).
    pub speed: Option<Field>,
}

/// A value typed into a form: text, or a number sent as one.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Field {
    Text(String),
    Number(serde_json::Number),
}

impl Field {
    pub(super) fn text(&self) -> String {
        match self {
            Field::Text(text) => text.clone(),
            Field::Number(number) => number.to_string(),
        }
    }
}

/// A run the server may start: a shuffle or sampler as `run` runs it, or a generator as
/// `stream` runs it.
#[derive(Clone, Debug)]
pub enum LiveRequest {
    Run(LiveRunSpec),
    Stream(LiveStreamSpec),
}

impl LiveRequest {
    /// The seed the run uses.
    pub fn seed(&self) -> u64 {
        match self {
            LiveRequest::Run(run) => run.settings.seed.unwrap_or(0),
            LiveRequest::Stream(stream) => stream.settings.seed.unwrap_or(0),
        }
    }

    /// How fast it is to be dealt, at first.
    pub fn speed(&self) -> Speed {
        match self {
            LiveRequest::Run(run) => run.speed,
            LiveRequest::Stream(stream) => stream.speed,
        }
    }

    /// What the page counts: deals (shuffles), samples, or draws of every stream.
    pub fn total(&self) -> u64 {
        match self {
            LiveRequest::Run(run) => run.settings.trials,
            LiveRequest::Stream(stream) => stream.settings.length.saturating_mul(stream.settings.streams),
        }
    }
}

/// One generator and its `stream` settings, seed fixed.
#[derive(Clone, Debug)]
pub struct LiveStreamSpec {
    pub spec: GeneratorSpec,
    pub settings: StreamSettings,
    pub seed_origin: SeedOrigin,
    pub speed: Speed,
}

/// A run the server may start: one catalogue shuffle or sampler and its settings, seed
/// fixed.
#[derive(Clone, Debug)]
pub struct LiveRunSpec {
    pub spec: AlgorithmSpec,
    pub settings: RunSettings,
    /// Whether the seed was given or taken from the OS (the JSON says which).
    pub seed_origin: SeedOrigin,
    pub speed: Speed,
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
    /// `threads` workers, checked as `run` (or `stream`) checks its flags.
    pub fn resolve(&self, threads: usize) -> Result<LiveRequest> {
        let name = self
            .algorithm
            .as_deref()
            .filter(|name| !name.trim().is_empty())
            .ok_or_else(|| missing("<ALGORITHM>"))?
            .trim();
        let source = SourceKind::parse(self.source.as_deref().unwrap_or("xoshiro").trim(), None)?;
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
        let speed = Speed::parse(&self.speed.as_ref().map(Field::text).unwrap_or_default())?;
        let spec = match AlgorithmSpec::parse(name) {
            Ok(spec) => spec,
            // Not a shuffle or sampler: a generator, or the error `run` gives.
            Err(error) => match GeneratorSpec::parse(name) {
                Ok(generator) => {
                    return self.resolve_stream(generator, source, (seed, speed), alpha, threads);
                }
                Err(_) => return Err(error),
            },
        };
        let n_text = self.n.as_ref().ok_or_else(|| missing("--n <N>"))?.text();
        let n: usize = n_text
            .trim()
            .parse()
            .map_err(|error| invalid("--n <N>", &n_text, error))?;
        let trials = count_or(&self.trials, "--trials <T>", 600_000)?;
        let k = match self.k.as_ref().map(Field::text) {
            None => None,
            Some(text) if text.trim().is_empty() => None,
            Some(text) => Some(
                text.trim()
                    .parse::<usize>()
                    .map_err(|error| invalid("--k <K>", &text, error))?,
            ),
        };
        let (seed, seed_origin) = SeedOrigin::fix(seed)?;
        let settings = RunSettings {
            n,
            k,
            trials,
            seed: Some(seed),
            threads,
            alpha,
            shard: None,
            source,
        };
        settings.validate(std::slice::from_ref(&spec))?;
        Ok(LiveRequest::Run(LiveRunSpec {
            spec,
            settings,
            seed_origin,
            speed,
        }))
    }

    /// A generator's run, read as `stream` reads its flags.
    fn resolve_stream(
        &self,
        spec: GeneratorSpec,
        source: SourceKind,
        (seed, speed): (Option<u64>, Speed),
        alpha: f64,
        threads: usize,
    ) -> Result<LiveRequest> {
        let items = self
            .items
            .as_ref()
            .map(Field::text)
            .filter(|items| !items.trim().is_empty())
            .ok_or_else(|| missing("--items <SPEC>"))?;
        let add_every = match &self.add_every {
            Some(field) if !field.text().trim().is_empty() => {
                let text = field.text();
                Some(parse_count(&text).map_err(|why| invalid("--add-every <M>", &text, why))?)
            }
            _ => None,
        };
        let (seed, seed_origin) = SeedOrigin::fix(seed)?;
        let settings = StreamSettings {
            items: Items::parse(items.trim())?,
            length: count_or(&self.length, "--length <L>", 10_000)?,
            streams: count_or(&self.streams, "--streams <S>", 1_000)?,
            seed: Some(seed),
            threads,
            alpha,
            scenario: StreamScenario { add_every },
            source,
        };
        settings.validate(std::slice::from_ref(&spec))?;
        Ok(LiveRequest::Stream(LiveStreamSpec {
            spec,
            settings,
            seed_origin,
            speed,
        }))
    }
}

/// A count field read as the command line reads it (`1e6`, `10_000`), or `default`.
fn count_or(field: &Option<Field>, flag: &str, default: u64) -> Result<u64> {
    match field {
        None => Ok(default),
        Some(field) => {
            let text = field.text();
            parse_count(&text).map_err(|why| invalid(flag, &text, why))
        }
    }
}

/// How fast a run deals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Speed {
    /// As fast as the engine goes.
    #[default]
    Full,
    /// At most this many deals (samples, draws) a second.
    PerSecond(NonZeroU64),
}

impl Speed {
    /// Reads a speed as typed: a count of deals a second (`20`, `1e3`, as `--trials` is
    /// read), or `full` (or nothing) for full speed.
    pub fn parse(text: &str) -> Result<Self> {
        let text = text.trim();
        if text.is_empty() || text.eq_ignore_ascii_case("full") {
            return Ok(Speed::Full);
        }
        let invalid = |why: String| {
            Error::Usage(format!(
                "invalid value '{}' for 'speed': {why}",
                crate::format::escaped_for_terminals(text)
            ))
        };
        let count = parse_count(text).map_err(invalid)?;
        NonZeroU64::new(count)
            .map(Speed::PerSecond)
            .ok_or_else(|| invalid("give at least 1 deal a second, or 'full'".to_string()))
    }

    /// The speed as stored in an atomic: 0 for full speed.
    pub(super) fn to_bits(self) -> u64 {
        match self {
            Speed::Full => 0,
            Speed::PerSecond(speed) => speed.get(),
        }
    }

    pub(super) fn from_bits(bits: u64) -> Self {
        NonZeroU64::new(bits).map_or(Speed::Full, Speed::PerSecond)
    }
}
