//! Exact analysis: every random path enumerated, and exact position matrices.
//!
//! Simulation says "probably biased"; this module says "this order has probability
//! 5/27". It drives the catalogue's own code with a source that answers from a list
//! ([`enumerate`]), so what is enumerated is exactly what is simulated; for decks too
//! large to enumerate, the position of one card is followed as a Markov chain
//! ([`positions`]); GSR riffles have a closed form for any deck the tool runs
//! ([`riffles`]); and a run's tally is checked against the exact law ([`check`]).
//!
//! Both methods also work under a flawed source whose draws are independent given their
//! bounds (`msvc-rand-mod`, `delphi`), in the model where each raw output is uniform and
//! independent ([`DrawLaw`]): the model in which modulo bias is defined, so that the
//! figures are the source's bias alone, apart from its generator's other flaws. A source
//! re-seeded from a clock has no such model and is refused.

pub mod check;
pub mod enumerate;
pub mod guessing;
pub mod positions;
pub mod riffles;

use std::time::{Duration, Instant};

use crate::catalogue::generators::{GeneratorSpec, StreamScenario};
use crate::catalogue::items::Items;
use crate::catalogue::{AlgorithmSpec, Expectation, Graded, Kind};
use crate::error::{Error, Result};
use crate::randomness::{DrawLaw, SourceKind};
use crate::simulate::{Engine, Progress, check_thread_count};
use crate::stats::Verdict;
use crate::stats::power::{permutation_noncentrality, position_noncentrality, trials_needed};
use crate::tally::MAX_N;
pub use enumerate::{ExactLaw, MAX_PATHS, enumerate_permutations, enumerate_selections};
pub use guessing::Guessing;
use positions::{PositionMethod, exact_position_matrix, position_matrix_method};
pub use riffles::{RiffleLaw, riffle_law};

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
    /// The source whose draws the algorithms make (its [`DrawLaw`]).
    pub source: SourceKind,
}

impl ExactSettings {
    /// The law of the source's draws, or a one-line refusal for a source that has none.
    pub fn draw_law(&self) -> Result<DrawLaw> {
        self.source.draw_law().map_err(|reason| Error::BadOption {
            option: "--source",
            problem: format!("{} cannot be analysed exactly: {reason}", self.source.name()),
        })
    }
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
    /// The verdict it is known to get at this size.
    pub expected: Expectation,
    /// The law over orders (Lehmer ranks) or selections (without `--positions`).
    pub law: Option<ExactLaw>,
    /// How its position matrix is known (with `--positions`).
    pub position_method: Option<PositionMethod>,
    /// The exact card × position matrix, `card * n + position` (with `--positions`).
    pub position_matrix: Option<Vec<f64>>,
    /// Trials the test of the table (orders, selections, or the position matrix) needs to
    /// reject at `alpha` with 99 % power; `None` when there is no bias to catch, or when
    /// the number would not fit in a `u64`.
    pub trials_needed: Option<u64>,
    /// What one trial adds to the noncentrality of that test's statistic, and its degrees
    /// of freedom: on `N` trials the statistic is close to a noncentral χ² with `N` times
    /// this noncentrality (its mean is `df + (N − 1) ·` this, exactly). `None` without a
    /// table, or when the table is exactly uniform.
    pub detection: Option<Detection>,
    /// Whether its outcomes are ordered selections (samplers that promise an order)
    /// rather than orders of the whole deck or subsets.
    pub ordered: bool,
    /// The total variation distance from uniform of the law over outcomes, when known:
    /// from the enumerated law, or from the closed form of GSR riffles; `None` with
    /// `--positions` (a position matrix does not give it).
    pub total_variation: Option<f64>,
    /// For `riffles:K` from the default source: the law in closed form (Bayer &
    /// Diaconis), for any deck size, with `law` left `None`. Then `detection` and
    /// `trials_needed` are those of the rising-sequence χ² test (the Eulerian law,
    /// pooled for that many trials), not of a test over all `n!` orders.
    pub riffle_law: Option<RiffleLaw>,
    /// The card-guessing game against the law ([`guessing`]): the optimal player's
    /// expected correct guesses (or, for several riffles of a large deck, a labelled lower
    /// bound) beside a fair deck's. `None` for position matrices and unordered subsets,
    /// which are not dealt one item at a time.
    pub guessing: Option<Guessing>,
    /// Wall-clock time of the enumeration.
    pub elapsed: Duration,
}

impl ExactResult {
    /// The verdict of an exact law: `pass` when exactly uniform, `fail` otherwise (there
    /// is no noise, so nothing in between).
    pub fn verdict(&self, n: usize) -> Verdict {
        if self.is_uniform(n) {
            Verdict::Pass
        } else {
            Verdict::Fail
        }
    }

    /// Whether what was computed is exactly uniform: every outcome of the law equally
    /// likely, or every cell of the position matrix `1/n` ([`is_uniform`]). Nothing
    /// computed counts as uniform: there is nothing to call biased.
    pub fn is_uniform(&self, n: usize) -> bool {
        match (&self.law, &self.position_matrix, &self.riffle_law) {
            (Some(law), _, _) => law.numerators.iter().all(|&x| x == law.numerators[0]),
            (None, Some(matrix), _) => is_uniform(matrix, n),
            // Riffles are never exactly uniform on two cards or more.
            (None, None, Some(riffles)) => riffles.total_variation == 0.0,
            (None, None, None) => true,
        }
    }
}

/// How a χ² test of a table sees its exact bias, per trial.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Detection {
    /// The statistic's noncentrality per trial ([`permutation_noncentrality`] or
    /// [`position_noncentrality`]).
    pub noncentrality_per_trial: f64,
    /// The test's degrees of freedom.
    pub df: f64,
}

impl Detection {
    /// Trials the test needs to reject at `alpha` with [`POWER`].
    pub fn trials_needed(&self, alpha: f64) -> Option<u64> {
        trials_needed(self.noncentrality_per_trial, self.df, alpha, POWER)
    }
}

/// A finished `exact` run.
#[derive(Clone, Debug)]
pub struct ExactReport {
    /// The settings.
    pub settings: ExactSettings,
    /// One per algorithm, in the order given.
    pub results: Vec<ExactResult>,
}

impl ExactReport {
    /// Every result's verdict beside the one it should get, in order.
    pub fn graded(&self) -> Vec<Graded> {
        self.results
            .iter()
            .map(|result| Graded {
                name: result.name.clone(),
                expected: result.expected,
                verdict: result.verdict(self.settings.n),
            })
            .collect()
    }

    /// Whether every verdict is the one it should be.
    pub fn all_as_expected(&self) -> bool {
        self.graded().iter().all(Graded::as_expected)
    }

    /// Whether every result came from the riffles' closed form ([`riffles::METHOD`]): the
    /// reports' headers then name it.
    pub fn all_closed_form(&self) -> bool {
        self.results.iter().all(|result| result.riffle_law.is_some())
    }
}

/// Enumerates every algorithm of `specs` on `settings`.
pub fn exact(
    specs: &[AlgorithmSpec],
    settings: &ExactSettings,
    progress: &dyn Progress,
) -> Result<ExactReport> {
    let n = settings.n;
    let draw_law = settings.draw_law()?;
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
        return engine.install(|| exact_positions(specs, settings, draw_law));
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
    for spec in specs {
        let follows_by = spec
            .algorithm
            .as_permutation()
            .and_then(|shuffle| shuffle.facts(|facts| facts.deals_follow_by()));
        if let Some(each_deal) = follows_by {
            return Err(Error::Usage(format!(
                "{}: a dealer's deals follow on from each other, so no law of one deal describes them; \
                 each deal is {each_deal} of the previous one (exact {each_deal} gives that law)",
                spec.display_name(n),
            )));
        }
    }
    let engine = Engine::new(settings.threads)?;
    let results = specs
        .iter()
        .map(|spec| {
            if let Some(times) = spec
                .algorithm
                .as_permutation()
                .and_then(|shuffle| shuffle.facts(|facts| facts.gsr_riffles()))
                && draw_law == DrawLaw::Uniform
            {
                return closed_form_riffles(spec, times, settings);
            }
            let started = Instant::now();
            let law = engine
                .install(
                    || match (spec.algorithm.as_permutation(), spec.algorithm.as_sampler()) {
                        (Some(algorithm), _) => enumerate_permutations(algorithm, n, draw_law, progress),
                        (None, Some(sampler)) => enumerate_selections(
                            sampler,
                            n,
                            settings.k.expect("checked above"),
                            draw_law,
                            progress,
                        ),
                        (None, None) => unreachable!("every catalogue entry shuffles or samples"),
                    },
                )
                .map_err(|error| named(spec, n, error))?;
            let detection = law_detection(&law);
            let total_variation = Some(law.total_variation());
            let ordered = spec.algorithm.as_sampler().is_some_and(|s| s.promises_order());
            let guessing = match settings.k {
                None => Some(guessing::optimal_from_law(&law, n, n)),
                Some(k) if ordered => Some(guessing::optimal_from_law(&law, n, k)),
                Some(_) => None,
            };
            Ok(ExactResult {
                name: spec.display_name(n),
                summary: spec.entry.summary,
                origin: spec.entry.origin,
                expected: spec.expected_at(n),
                law: Some(law),
                position_method: None,
                position_matrix: None,
                trials_needed: detection.and_then(|d| d.trials_needed(settings.alpha)),
                detection,
                ordered,
                total_variation,
                riffle_law: None,
                guessing,
                elapsed: started.elapsed(),
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(ExactReport {
        settings: settings.clone(),
        results,
    })
}

/// `riffles:K` on any deck up to [`MAX_N`] cards, by Bayer & Diaconis's closed form: no
/// path is walked, so it takes milliseconds where enumeration stops at 6 cards.
fn closed_form_riffles(spec: &AlgorithmSpec, times: u32, settings: &ExactSettings) -> Result<ExactResult> {
    let n = settings.n;
    let started = Instant::now();
    let law = riffle_law(n, times).map_err(|error| named(spec, n, error))?;
    let power = law.rising_sequence_test_power(settings.alpha);
    Ok(ExactResult {
        name: spec.display_name(n),
        summary: spec.entry.summary,
        origin: spec.entry.origin,
        expected: spec.expected_at(n),
        law: None,
        position_method: None,
        position_matrix: None,
        trials_needed: power.map(|power| power.trials),
        detection: power.map(|power| Detection {
            noncentrality_per_trial: power.noncentrality_per_trial,
            df: power.df,
        }),
        ordered: false,
        total_variation: Some(law.total_variation),
        riffle_law: Some(law),
        guessing: Some(guessing::riffle::riffles_guessing(n, times).map_err(|error| named(spec, n, error))?),
        elapsed: started.elapsed(),
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
    let draw_law = settings.draw_law()?;
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
            let law = engine.install(|| enumerate::enumerate_cycle(spec, items, draw_law, progress))?;
            let guessing = Some(guessing::optimal_from_law(&law, m, m));
            let detection = law_detection(&law);
            let total_variation = Some(law.total_variation());
            Ok(ExactResult {
                name: spec.display_name(),
                summary: spec.entry.summary,
                origin: spec.entry.origin,
                expected: spec.expected(items),
                law: Some(law),
                position_method: None,
                position_matrix: None,
                trials_needed: detection.and_then(|d| d.trials_needed(settings.alpha)),
                detection,
                ordered: false,
                total_variation,
                riffle_law: None,
                guessing,
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
fn exact_positions(
    specs: &[AlgorithmSpec],
    settings: &ExactSettings,
    draw_law: DrawLaw,
) -> Result<ExactReport> {
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
            let matrix = exact_position_matrix(algorithm, n, draw_law);
            // Uniform within floating-point accuracy is uniform: no bias to catch.
            let detection = matrix
                .as_ref()
                .filter(|matrix| !is_uniform(matrix, n))
                .map(|matrix| Detection {
                    noncentrality_per_trial: position_noncentrality(matrix, n),
                    df: ((n - 1) * (n - 1)) as f64,
                });
            ExactResult {
                name: spec.display_name(n),
                summary: spec.entry.summary,
                origin: spec.entry.origin,
                expected: spec.expected_at(n),
                law: None,
                position_method: Some(position_matrix_method(algorithm, n, draw_law)),
                position_matrix: matrix,
                trials_needed: detection.and_then(|d| d.trials_needed(settings.alpha)),
                detection,
                ordered: false,
                total_variation: None,
                riffle_law: None,
                guessing: None,
                elapsed: started.elapsed(),
            }
        })
        .collect();
    Ok(ExactReport {
        settings: settings.clone(),
        results,
    })
}

/// How the χ² test over the law's outcomes sees its bias; `None` for a uniform law.
fn law_detection(law: &ExactLaw) -> Option<Detection> {
    let uniform = law.numerators.iter().all(|&x| x == law.numerators[0]);
    (!uniform).then(|| Detection {
        noncentrality_per_trial: permutation_noncentrality(&law.probabilities()),
        df: (law.numerators.len() - 1) as f64,
    })
}

/// How far, relative to `1/n`, a computed position matrix's cell may be from `1/n` and
/// still count as exactly `1/n`.
///
/// The chain is computed in floating point, so a matrix that is uniform in theory (or
/// after billions of passes) comes out within rounding of it, and rounding is not a bias:
/// it stays below 6e-14 relative up to 2000 cards (tested). A flawed source's bias must
/// stay visible above it: the smallest is Delphi's, whose `Random(3)` gives one answer
/// one seed in 2^32 more often than the others, which moves Fisher–Yates' 3-card matrix
/// by 4.7e-10 relative (tested). 1e-11 lies a hundred times above the one and forty
/// times below the other.
pub const UNIFORM_TOLERANCE: f64 = 1e-11;

/// Whether every cell of a position matrix is `1/n` within [`UNIFORM_TOLERANCE`].
pub fn is_uniform(matrix: &[f64], n: usize) -> bool {
    matrix
        .iter()
        .all(|&p| (p * n as f64 - 1.0).abs() < UNIFORM_TOLERANCE)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulate::NoProgress;

    fn settings(n: usize) -> ExactSettings {
        ExactSettings {
            n,
            k: None,
            threads: 2,
            positions: false,
            alpha: 1e-6,
            items: None,
            source: SourceKind::Xoshiro,
        }
    }

    fn exact_one(name: &str, settings: &ExactSettings) -> Result<ExactResult> {
        let spec = AlgorithmSpec::parse(name).unwrap();
        exact(&[spec], settings, &NoProgress).map(|mut report| report.results.remove(0))
    }

    #[test]
    fn riffles_on_2000_cards_come_from_the_closed_form() {
        let result = exact_one("riffles:7", &settings(2000)).unwrap();
        assert_eq!(result.name, "riffles:7");
        assert!(result.law.is_none() && result.position_matrix.is_none());
        let law = result.riffle_law.as_ref().unwrap();
        assert_eq!((law.n, law.riffles), (2000, 7));
        // Seven riffles leave at most 128 rising sequences where a fair deck has about
        // 1000: all but every order is impossible, and a handful of deals shows it.
        assert!(result.total_variation.unwrap() > 0.999);
        assert_eq!(result.total_variation, Some(law.total_variation));
        assert!(result.trials_needed.unwrap() < 100);
        assert!(result.detection.unwrap().df >= 1.0);
        assert!(!result.is_uniform(2000));
        // On 52 cards: Bayer and Diaconis's 0.334.
        let result = exact_one("riffles", &settings(52)).unwrap();
        assert!((result.total_variation.unwrap() - 0.334).abs() < 5e-4);
    }

    #[test]
    fn enumerated_laws_carry_their_total_variation() {
        let result = exact_one("fisher-yates", &settings(4)).unwrap();
        assert_eq!(result.total_variation, Some(0.0));
        let result = exact_one("naive-swap", &settings(3)).unwrap();
        // 4/27 or 5/27 against 1/6: ½ · 6 · 1/54.
        assert!((result.total_variation.unwrap() - 1.0 / 18.0).abs() < 1e-15);
        assert!(result.riffle_law.is_none());
        // Position matrices do not give it.
        let positions = ExactSettings {
            positions: true,
            ..settings(6)
        };
        assert_eq!(exact_one("naive-swap", &positions).unwrap().total_variation, None);
    }

    #[test]
    fn riffles_under_a_flawed_source_are_enumerated() {
        // The closed form assumes fair coins; under rand() % n the drops' odds are off
        // (rand() % 3 favours 0), so small decks are walked path by path instead...
        let flawed = ExactSettings {
            source: SourceKind::MsvcRandMod,
            ..settings(4)
        };
        let result = exact_one("riffles:1", &flawed).unwrap();
        assert!(result.law.is_some() && result.riffle_law.is_none());
        let fair = exact_one("riffles:1", &settings(4)).unwrap();
        assert_ne!(result.total_variation, fair.total_variation);
        // ... and large ones are refused, as every algorithm is beyond 10 cards.
        let flawed = ExactSettings {
            source: SourceKind::MsvcRandMod,
            ..settings(52)
        };
        assert!(exact_one("riffles:1", &flawed).is_err());
    }

    #[test]
    fn a_dealer_is_refused_with_the_law_that_describes_it() {
        let error = exact_one("dealer-riffles", &settings(52))
            .unwrap_err()
            .to_string();
        assert!(error.contains("exact riffles:3"), "{error}");
        assert!(!error.contains('\n'));
        assert!(exact_one("dealer-riffles:5", &settings(4)).is_err());
    }
}
