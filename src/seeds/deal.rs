//! The deck one seed deals: a fresh deck `1..n` in order, shuffled by a catalogue
//! algorithm drawing from a source started at that seed, as a program that seeds its
//! generator and then shuffles does.
//!
//! This is the whole model `seeds crack` inverts, so it is kept in one place: `seeds
//! deal` prints it for one seed, and the crack search calls `Dealer::deal_into` for
//! every seed of a window. The source is started exactly as
//! [`FlawedSource::from_state`] starts it (`srand(seed)`, `RandSeed := seed`, a clock
//! reading `seed` ms), or, for the default source, as [`SimulationSource::from_seed`]
//! seeds it. Each seed's deal matches once on the kind of source and then shuffles with
//! the concrete generator, so the draws themselves never go through a `match`.

use crate::catalogue::{AlgorithmSpec, PermutationAlgorithm, Workspace};
use crate::error::{Error, Result};
use crate::randomness::{FlawedSource, SimulationSource, SourceKind};

use super::check_seed;

/// The largest deck a seed search deals (the largest `run` takes).
pub const MAX_DEAL_N: usize = crate::tally::MAX_N;

/// A program that deals `n` cards with one catalogue shuffle from one kind of source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dealer {
    source: SourceKind,
    algorithm: PermutationAlgorithm,
    name: String,
    n: usize,
}

impl Dealer {
    /// A dealer of `n` cards (2 to [`MAX_DEAL_N`]) shuffled by `algorithm`, which must
    /// be a shuffle (a sampler picks items, it does not deal a deck).
    pub fn new(source: SourceKind, algorithm: &AlgorithmSpec, n: usize) -> Result<Self> {
        if !(2..=MAX_DEAL_N).contains(&n) {
            return Err(Error::BadOption {
                option: "--n",
                problem: format!("must be between 2 and {MAX_DEAL_N} cards (got {n})"),
            });
        }
        let Some(shuffle) = algorithm.algorithm.as_permutation() else {
            return Err(Error::Usage(format!(
                "{} is a sampler: it picks items, it does not deal a deck; seeds deal and crack \
                 take a shuffle (see `shuffle-audit list`)",
                algorithm.entry.name
            )));
        };
        Ok(Self {
            source,
            algorithm: shuffle.resolve(n),
            name: algorithm.display_name(n),
            n,
        })
    }

    /// The source it draws from.
    pub fn source(&self) -> SourceKind {
        self.source
    }

    /// What a seed `S` means to the source, for the reports: how the program is started
    /// before its one shuffle. (The source's own definition, in the JSON, says how its
    /// draws are made.)
    pub fn seeding(&self) -> &'static str {
        match self.source {
            SourceKind::Xoshiro => {
                "Xoshiro256++ seeded with rand's seed_from_u64(S) (not the per-chunk streams of run --seed S)"
            }
            SourceKind::MsvcRandMod => "srand(S): the C library's 32-bit state is S",
            SourceKind::Delphi => "RandSeed := S (Randomize sets it to the milliseconds since midnight)",
            SourceKind::ClockReseed(_) => {
                "Randomize before the shuffle, with the clock reading S ms since midnight: RandSeed := S"
            }
        }
    }

    /// The shuffle's name as it runs, e.g. `asf-poker` or `naive-repeated:52`.
    pub fn algorithm_name(&self) -> &str {
        &self.name
    }

    /// The cards in the deck.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The deck `seed` deals, as labels `1..n` in dealing order; refused for a seed the
    /// source cannot be started from ([`super::seed_space`]).
    pub fn deal(&self, seed: u64) -> Result<Vec<u16>> {
        check_seed(self.source, u128::from(seed), "--seed")?;
        let mut deck = vec![0; self.n];
        self.deal_into(seed, &mut deck, &mut Workspace::default());
        Ok(deck.into_iter().map(|card| card + 1).collect())
    }

    /// Deals from `seed` into `deck` (`n` cards, labels `0..n`): the search's inner loop,
    /// which allocates nothing once `workspace` has grown. `seed` must be a seed of the
    /// source (the window it comes from was checked).
    #[inline]
    pub(crate) fn deal_into(&self, seed: u64, deck: &mut [u16], workspace: &mut Workspace<u16>) {
        for (position, card) in deck.iter_mut().enumerate() {
            *card = position as u16;
        }
        let algorithm = self.algorithm;
        match seeded_source(self.source, seed) {
            SimulationSource::Xoshiro(mut rng) => algorithm.shuffle(deck, &mut rng, workspace),
            SimulationSource::Flawed(FlawedSource::MsvcRandMod(mut rng)) => {
                algorithm.shuffle(deck, &mut rng, workspace)
            }
            SimulationSource::Flawed(FlawedSource::Delphi(mut rng)) => {
                algorithm.shuffle(deck, &mut rng, workspace)
            }
            SimulationSource::Flawed(FlawedSource::ClockReseed(mut rng)) => {
                algorithm.shuffle(deck, &mut rng, workspace)
            }
        }
    }
}

/// The seed of deal `deal` of a program that seeds its generator afresh for each deal
/// from a `bits`-bit number: drawn from `0..2^bits` by the default source's stream
/// `(run, deal)`, so that any deal can be dealt again.
pub fn short_seed(run: u64, deal: u64, bits: u32) -> u64 {
    use crate::randomness::Randomness;
    SimulationSource::for_chunk(run, deal).below(1u64 << bits)
}

/// `kind` started at `seed`, which must be one of its seeds.
#[inline]
fn seeded_source(kind: SourceKind, seed: u64) -> SimulationSource {
    debug_assert!(
        u128::from(seed) < super::seed_space(kind),
        "seed {seed} of {kind}"
    );
    match FlawedSource::from_state(kind, seed as u32) {
        Some(flawed) => SimulationSource::Flawed(flawed),
        None => SimulationSource::from_seed(seed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::{asf_poker, fisher_yates};
    use crate::randomness::{DelphiRandom, MsvcRand, Randomness};

    fn dealer(source: &str, algorithm: &str, n: usize) -> Dealer {
        let source = SourceKind::parse(source, None).unwrap();
        Dealer::new(source, &AlgorithmSpec::parse(algorithm).unwrap(), n).unwrap()
    }

    /// The deck a generator deals when the algorithm is called on it directly.
    fn direct(n: usize, rng: &mut impl Randomness, shuffle: fn(&mut [u16], &mut dyn Randomness)) -> Vec<u16> {
        let mut deck: Vec<u16> = (1..=n as u16).collect();
        shuffle(&mut deck, rng);
        deck
    }

    #[test]
    fn a_deal_is_the_algorithm_run_on_the_generator_started_at_the_seed() {
        for seed in [0, 1, 50_412_345, u32::MAX] {
            let delphi = direct(52, &mut DelphiRandom::from_state(seed), |deck, rng| {
                asf_poker(deck, rng)
            });
            assert_eq!(
                dealer("delphi", "asf-poker", 52).deal(u64::from(seed)).unwrap(),
                delphi
            );
            let msvc = direct(52, &mut MsvcRand::from_state(seed), |deck, rng| {
                fisher_yates(deck, rng)
            });
            assert_eq!(
                dealer("msvc-rand-mod", "fisher-yates", 52)
                    .deal(u64::from(seed))
                    .unwrap(),
                msvc
            );
        }
        // clock-reseed re-seeds from its clock before the one shuffle: Delphi at the seed.
        let clock = dealer("clock-reseed", "asf-poker", 52).deal(1234).unwrap();
        assert_eq!(clock, dealer("delphi", "asf-poker", 52).deal(1234).unwrap());
        let xoshiro = direct(10, &mut SimulationSource::from_seed(1 << 40), |deck, rng| {
            fisher_yates(deck, rng)
        });
        assert_eq!(
            dealer("xoshiro", "fisher-yates", 10).deal(1 << 40).unwrap(),
            xoshiro
        );
    }

    #[test]
    fn every_deal_is_a_whole_deck() {
        for algorithm in ["asf-poker", "naive-repeated", "sort-comparator-merge", "riffle"] {
            let mut deck = dealer("delphi", algorithm, 20).deal(7).unwrap();
            deck.sort_unstable();
            assert_eq!(deck, (1..=20).collect::<Vec<u16>>(), "{algorithm}");
        }
    }

    #[test]
    fn what_cannot_be_dealt_is_refused() {
        let spec = AlgorithmSpec::parse("asf-poker").unwrap();
        for n in [0, 1, MAX_DEAL_N + 1] {
            let error = Dealer::new(SourceKind::Delphi, &spec, n).unwrap_err().to_string();
            assert!(error.starts_with("--n must be between 2 and 2000"), "{error}");
        }
        let sampler = AlgorithmSpec::parse("bag-pick").unwrap();
        let error = Dealer::new(SourceKind::Delphi, &sampler, 52)
            .unwrap_err()
            .to_string();
        assert!(error.contains("bag-pick is a sampler"), "{error}");
        let error = dealer("delphi", "asf-poker", 52)
            .deal(1 << 32)
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("--seed 4294967296 is not a seed of delphi"),
            "{error}"
        );
        let error = dealer("clock-reseed", "asf-poker", 52)
            .deal(86_400_000)
            .unwrap_err()
            .to_string();
        assert!(error.contains("the milliseconds of a day"), "{error}");
    }
}
