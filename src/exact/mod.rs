//! Exact analysis: every random path enumerated, and exact position matrices.
//!
//! Simulation says "probably biased"; this module says "this order has probability
//! 5/27". It drives the catalogue's own code with a source that answers from a list
//! ([`enumerate`]), so what is enumerated is exactly what is simulated; for decks too
//! large to enumerate, the position of one card is followed as a Markov chain
//! ([`positions`]); and a run's tally is checked against the exact law ([`check`]).

pub mod check;
pub mod enumerate;
pub mod positions;

use std::time::{Duration, Instant};

use crate::catalogue::generators::{GeneratorSpec, StreamScenario};
use crate::catalogue::{AlgorithmSpec, Expectation, Kind};
use crate::error::{Error, Result};
use crate::run::MAX_N;
use crate::simulate::{Engine, Progress, check_thread_count};
use crate::stats::power::{permutation_noncentrality, position_noncentrality, trials_needed};
use crate::stream::items::Items;
pub use enumerate::{ExactLaw, MAX_PATHS, enumerate_permutations, enumerate_selections};
use positions::{PositionMethod, exact_position_matrix, position_matrix_method};

/// What the user asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactSettings {
    /// Cards in the deck, or items to pick from.
    pub n: usize,
    /// Items each sampler picks (samplers only).
    pub k: Option<usize>,
    /// Worker threads.
    pub threads: usize,
    /// Exact position matrices instead of the law over whole orders.
    pub positions: bool,
    /// The significance level the samples-needed figures are for.
    pub alpha: f64,
    /// For bags: the items whose first cycle is enumerated (`n` of them).
    pub items: Option<String>,
}

/// The power the samples-needed figures are for.
pub const POWER: f64 = 0.99;

/// One algorithm's exact law.
#[derive(Clone, Debug)]
pub struct ExactResult {
    /// Its name as it ran.
    pub name: String,
    /// What it does.
    pub summary: &'static str,
    /// Where it comes from.
    pub origin: &'static str,
    /// The verdict it deserves at this size.
    pub expected: Expectation,
    /// The law over orders (Lehmer ranks) or selections (without `--positions`).
    pub law: Option<ExactLaw>,
    /// How its position matrix is known (with `--positions`).
    pub position_method: Option<PositionMethod>,
    /// The exact card × position matrix, `card * n + position` (with `--positions`).
    pub position_matrix: Option<Vec<f64>>,
    /// Trials the test of the table (orders, selections, or the position matrix) needs to
    /// reject at `alpha` with 99 % power; `None` when there is no bias to catch.
    pub trials_needed: Option<u64>,
    /// Whether its outcomes are ordered selections (samplers that promise an order)
    /// rather than orders of the whole deck or subsets.
    pub ordered: bool,
    /// Wall-clock time of the enumeration.
    pub elapsed: Duration,
}

/// A finished `exact` run.
#[derive(Clone, Debug)]
pub struct ExactReport {
    /// The settings.
    pub settings: ExactSettings,
    /// One per algorithm, in the order given.
    pub results: Vec<ExactResult>,
}

/// Enumerates every algorithm of `specs` on `settings`.
pub fn exact(
    specs: &[AlgorithmSpec],
    settings: &ExactSettings,
    progress: &dyn Progress,
) -> Result<ExactReport> {
    let n = settings.n;
    if settings.positions {
        if !(2..=MAX_N).contains(&n) {
            return Err(Error::BadOption {
                option: "--n",
                problem: format!("must be between 2 and {MAX_N} for --positions (got {n})"),
            });
        }
        if settings.k.is_some() {
            return Err(Error::Usage(
                "--positions is for shuffles and takes no --k".to_string(),
            ));
        }
        let engine = Engine::new(settings.threads)?;
        return engine.install(|| exact_positions(specs, settings));
    }
    if n < 2 {
        return Err(Error::BadOption {
            option: "--n",
            problem: format!("must be at least 2 (got {n})"),
        });
    }
    check_thread_count(settings.threads)?;
    if let Some(spec) = specs
        .iter()
        .find(|spec| (spec.kind() == Kind::Sampler) != settings.k.is_some())
    {
        return Err(Error::Usage(match settings.k {
            None => format!(
                "{} is a sampler: give --k (how many of the n items it picks)",
                spec.entry.name
            ),
            Some(_) => format!("--k applies to samplers; {} is a shuffle", spec.entry.name),
        }));
    }
    if let Some(k) = settings.k
        && !(1..n).contains(&k)
    {
        return Err(Error::BadOption {
            option: "--k",
            problem: format!("must be between 1 and n-1 (got {k} with --n {n})"),
        });
    }
    let engine = Engine::new(settings.threads)?;
    let results = specs
        .iter()
        .map(|spec| {
            let started = Instant::now();
            let law = engine
                .install(
                    || match (spec.algorithm.as_permutation(), spec.algorithm.as_sampler()) {
                        (Some(algorithm), _) => enumerate_permutations(algorithm, n, progress),
                        (None, Some(sampler)) => {
                            enumerate_selections(sampler, n, settings.k.expect("checked above"), progress)
                        }
                        (None, None) => unreachable!("every catalogue entry shuffles or samples"),
                    },
                )
                .map_err(|error| named(spec, n, error))?;
            let needed = law_trials_needed(&law, settings.alpha);
            Ok(ExactResult {
                name: spec.display_name(n),
                summary: spec.entry.summary,
                origin: spec.entry.origin,
                expected: spec.entry.expected_at(n),
                law: Some(law),
                position_method: None,
                position_matrix: None,
                trials_needed: needed,
                ordered: spec.algorithm.as_sampler().is_some_and(|s| s.promises_order()),
                elapsed: started.elapsed(),
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(ExactReport {
        settings: settings.clone(),
        results,
    })
}

/// The first cycle of each bag, enumerated: the order in which a bag of one copy of each
/// of `items` deals them, as a permutation of the items (Lehmer ranks).
pub fn exact_bags(
    generators: &[GeneratorSpec],
    items: &Items,
    settings: &ExactSettings,
    progress: &dyn Progress,
) -> Result<ExactReport> {
    let m = items.len();
    let scenario = StreamScenario { add_every: None };
    let engine = Engine::new(settings.threads)?;
    let results = generators
        .iter()
        .map(|spec| {
            let one_each = spec
                .shape(items, &scenario)?
                .is_some_and(|shape| shape.exact && shape.source_copies.iter().all(|&c| c == 1));
            if !one_each {
                return Err(Error::Usage(format!(
                    "{}: only a bag that deals one copy of each item per cycle can be enumerated \
                     (give --items as a count of equal items, and a bag generator)",
                    spec.display_name()
                )));
            }
            let started = Instant::now();
            let law = engine.install(|| enumerate::enumerate_cycle(spec, items, progress))?;
            let needed = law_trials_needed(&law, settings.alpha);
            Ok(ExactResult {
                name: spec.display_name(),
                summary: spec.entry.summary,
                origin: spec.entry.origin,
                expected: spec.expected(items),
                law: Some(law),
                position_method: None,
                position_matrix: None,
                trials_needed: needed,
                ordered: false,
                elapsed: started.elapsed(),
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(ExactReport {
        settings: ExactSettings {
            n: m,
            items: Some(items.spec.clone()),
            ..settings.clone()
        },
        results,
    })
}

/// Exact position matrices, for shuffles of up to [`MAX_N`] cards.
fn exact_positions(specs: &[AlgorithmSpec], settings: &ExactSettings) -> Result<ExactReport> {
    let n = settings.n;
    if let Some(spec) = specs.iter().find(|spec| spec.kind() == Kind::Sampler) {
        return Err(Error::Usage(format!(
            "--positions is for shuffles; {} is a sampler",
            spec.entry.name
        )));
    }
    let results = specs
        .iter()
        .filter_map(|spec| Some((spec, spec.algorithm.as_permutation()?.resolve(n))))
        .map(|(spec, algorithm)| {
            let started = Instant::now();
            let matrix = exact_position_matrix(algorithm, n);
            // Uniform within floating-point accuracy is uniform: no bias to catch.
            let needed = matrix
                .as_ref()
                .filter(|matrix| !is_uniform(matrix, n))
                .and_then(|matrix| {
                    trials_needed(
                        position_noncentrality(matrix, n),
                        ((n - 1) * (n - 1)) as f64,
                        settings.alpha,
                        POWER,
                    )
                });
            ExactResult {
                name: spec.display_name(n),
                summary: spec.entry.summary,
                origin: spec.entry.origin,
                expected: spec.entry.expected_at(n),
                law: None,
                position_method: Some(position_matrix_method(algorithm)),
                position_matrix: matrix,
                trials_needed: needed,
                ordered: false,
                elapsed: started.elapsed(),
            }
        })
        .collect();
    Ok(ExactReport {
        settings: settings.clone(),
        results,
    })
}

/// Trials the χ² test over the law's outcomes needs to reject uniformity at `alpha`
/// with [`POWER`].
fn law_trials_needed(law: &ExactLaw, alpha: f64) -> Option<u64> {
    trials_needed(
        permutation_noncentrality(&law.probabilities()),
        (law.numerators.len() - 1) as f64,
        alpha,
        POWER,
    )
}

/// Whether every cell of a position matrix is `1/n` within a billionth of it: the chain
/// is computed in floating point, so a matrix that is uniform in theory (or after
/// billions of passes) comes out within rounding of it, and rounding is not a bias.
pub fn is_uniform(matrix: &[f64], n: usize) -> bool {
    matrix.iter().all(|&p| (p * n as f64 - 1.0).abs() < 1e-9)
}

/// An enumeration error with the algorithm's name in front.
fn named(spec: &AlgorithmSpec, n: usize, error: Error) -> Error {
    match error {
        Error::Usage(message) => Error::Usage(format!("{}: {message}", spec.display_name(n))),
        Error::BadOption { option, problem } => Error::BadOption {
            option,
            problem: format!("{problem} ({})", spec.display_name(n)),
        },
        other => other,
    }
}
