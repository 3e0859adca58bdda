//! `seeds crack`: the 1999 online-poker attack (text 001). A server that seeds its
//! generator from the time of day before every deal can only deal one deck per
//! millisecond of the day; an observer who knows the server's clock roughly deals every
//! deck of the window himself, keeps those that show the cards he saw, and so learns
//! every other card, his opponents' hands included.
//!
//! The search is brute force on purpose: it runs the same catalogue shuffle and the same
//! source as every other command ([`Dealer`]), so what it recovers is what those deal,
//! whatever the algorithm. Seeds are cut into blocks of [`BLOCK_SEEDS`] that the
//! engine's workers search in parallel; each keeps the count of matching seeds and the
//! smallest ones, which are merged at the end, so the answer (how many seeds match, and
//! the first [`MAX_LISTED`] of them in order) is the same whatever the number of threads
//! and whatever order the blocks finish in.

use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::catalogue::Workspace;
use crate::error::{Error, Result};
use crate::randomness::SourceKind;
use crate::simulate::{Engine, Progress};

use super::deal::Dealer;
use super::seen::Seen;
use super::window::{SeedWindow, time_of_day};

/// Seeds per block of work: large enough that handing out a block costs nothing next to
/// dealing it (about a millisecond of 52-card deals), small enough that two threads
/// share a 120,000-seed window evenly and the progress bar moves.
pub const BLOCK_SEEDS: u64 = 1 << 13;

/// The most matching seeds a search lists (with their decks); it counts all of them.
/// With five cards seen there is usually one; a list this long means too few cards
/// were given to tell the deals apart.
pub const MAX_LISTED: usize = 1000;

/// What to search.
#[derive(Clone, Debug)]
pub struct CrackSettings {
    /// The program whose deals are searched.
    pub dealer: Dealer,
    /// The seeds to try.
    pub window: SeedWindow,
    /// What a matching deal must show.
    pub seen: Seen,
    /// Worker threads.
    pub threads: usize,
}

/// A seed that deals what was seen, and the whole deck it deals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recovered {
    /// The seed.
    pub seed: u64,
    /// The deck it deals: labels `1..n` in dealing order.
    pub deck: Vec<u16>,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct CrackReport {
    /// What was searched.
    pub settings: CrackSettings,
    /// How many seeds of the window deal what was seen.
    pub matches: u64,
    /// The first [`MAX_LISTED`] of them, by seed, with their decks.
    pub recovered: Vec<Recovered>,
    /// How long the search took.
    pub elapsed: Duration,
}

impl CrackReport {
    /// The number of seeds of the window that would match by chance if every seed dealt
    /// a uniformly random deck: how much a match means (far below 1: a match is the
    /// deal; near or above 1: more cards are needed to tell deals apart).
    pub fn chance_matches(&self) -> f64 {
        self.settings.window.len() as f64 * self.settings.seen.chance_of_match()
    }

    /// `seed` as a time of day, when the seeds are best read that way: the window was
    /// written in times, or the source is seeded from its clock.
    pub fn time_of_day(&self, seed: u64) -> Option<String> {
        let clock = matches!(self.settings.dealer.source(), SourceKind::ClockReseed(_));
        time_of_day(seed).filter(|_| clock || self.settings.window.in_times())
    }

    /// Seeds searched per second.
    pub fn seeds_per_second(&self) -> f64 {
        self.settings.window.len() as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Deals from every seed of the window and keeps the seeds whose deck shows what was
/// seen. Progress counts seeds.
pub fn crack(settings: &CrackSettings, progress: &dyn Progress) -> Result<CrackReport> {
    if settings.seen.n() != settings.dealer.n() {
        return Err(Error::Usage(format!(
            "the cards seen are positions of a {}-card deck, but the dealer deals {} cards",
            settings.seen.n(),
            settings.dealer.n()
        )));
    }
    let engine = Engine::new(settings.threads)?;
    let started = Instant::now();
    let window = settings.window;
    let blocks = window.len().div_ceil(BLOCK_SEEDS);
    let found = engine.install(|| {
        (0..blocks)
            .into_par_iter()
            .fold(
                || Searcher::new(&settings.dealer),
                |mut searcher, block| {
                    let offset = block * BLOCK_SEEDS;
                    let count = BLOCK_SEEDS.min(window.len() - offset);
                    searcher.search(&settings.dealer, &settings.seen, window.first() + offset, count);
                    progress.advance(count);
                    searcher
                },
            )
            .map(|searcher| searcher.found)
            .reduce(Found::default, Found::merged)
    });
    let found = found.finished();
    let recovered = found
        .smallest
        .iter()
        .map(|&seed| Recovered {
            seed,
            deck: settings
                .dealer
                .deal(seed)
                .expect("a seed of the window is a seed of the source"),
        })
        .collect();
    Ok(CrackReport {
        settings: settings.clone(),
        matches: found.count,
        recovered,
        elapsed: started.elapsed(),
    })
}

/// One worker's deck, scratch space and findings, reused from block to block.
struct Searcher {
    deck: Vec<u16>,
    workspace: Workspace<u16>,
    found: Found,
}

impl Searcher {
    fn new(dealer: &Dealer) -> Self {
        Self {
            deck: vec![0; dealer.n()],
            workspace: Workspace::default(),
            found: Found::default(),
        }
    }

    /// Deals from the `count` seeds from `first` on.
    fn search(&mut self, dealer: &Dealer, seen: &Seen, first: u64, count: u64) {
        for seed in first..=first + (count - 1) {
            dealer.deal_into(seed, &mut self.deck, &mut self.workspace);
            if seen.matches(&self.deck) {
                self.found.record(seed);
            }
        }
    }
}

/// Matching seeds: all counted, the smallest [`MAX_LISTED`] kept. Keeping the smallest
/// (not the first found) is what makes the list independent of the order of the work.
#[derive(Debug, Default)]
struct Found {
    count: u64,
    /// Holds the smallest seeds found, in any order, at most `2 * MAX_LISTED` between
    /// trims.
    smallest: Vec<u64>,
}

impl Found {
    fn record(&mut self, seed: u64) {
        self.count += 1;
        self.smallest.push(seed);
        if self.smallest.len() >= 2 * MAX_LISTED {
            self.trim();
        }
    }

    fn merged(mut self, other: Found) -> Found {
        self.count += other.count;
        self.smallest.extend(other.smallest);
        self.trim();
        self
    }

    /// Sorted, and cut to [`MAX_LISTED`].
    fn trim(&mut self) {
        self.smallest.sort_unstable();
        self.smallest.truncate(MAX_LISTED);
    }

    fn finished(mut self) -> Found {
        self.trim();
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::{AlgorithmSpec, asf_poker};
    use crate::randomness::DelphiRandom;
    use crate::simulate::NoProgress;

    /// The five cards the first player sees at a five-player table dealt one card at a
    /// time: hole cards at positions 1 and 6, and the flop, which (with one card burned
    /// after the ten hole cards) is at positions 12, 13 and 14.
    const HOLE: [usize; 2] = [1, 6];
    const FLOP: [usize; 3] = [12, 13, 14];

    fn settings(source: &str, algorithm: &str, window: &str, seen: &Seen, threads: usize) -> CrackSettings {
        let source = SourceKind::parse(source, None).unwrap();
        CrackSettings {
            dealer: Dealer::new(source, &AlgorithmSpec::parse(algorithm).unwrap(), seen.n()).unwrap(),
            window: SeedWindow::parse(window, source).unwrap(),
            seen: seen.clone(),
            threads,
        }
    }

    fn seen_at(deck: &[u16], positions: &[usize]) -> Seen {
        let pairs: Vec<String> = positions
            .iter()
            .map(|&position| format!("{position}:{}", deck[position - 1]))
            .collect();
        Seen::parse(None, Some(&pairs.join(",")), deck.len()).unwrap()
    }

    #[test]
    fn the_poker_deal_is_recovered_from_five_cards() {
        // A deal at 14:00:12.345, dealt here by the catalogue's asf-poker on Delphi's
        // Random started at that millisecond, independently of the crack code.
        let seed = 50_412_345;
        let mut deck: Vec<u16> = (1..=52).collect();
        asf_poker(&mut deck, &mut DelphiRandom::from_state(seed));
        // The player saw the top card (--seen) and four more at known places (--seen-at).
        let pairs: Vec<String> = [HOLE[1], FLOP[0], FLOP[1], FLOP[2]]
            .iter()
            .map(|&position| format!("{position}:{}", deck[position - 1]))
            .collect();
        let seen = Seen::parse(Some(&deck[HOLE[0] - 1].to_string()), Some(&pairs.join(" ")), 52).unwrap();
        // The synchronised window, a minute either way: 120,000 seeds. Each other seed
        // shows these five cards with probability 1/(52*51*50*49*48) = 1/311,875,200 (if
        // its deal were uniformly random), so a false match turns up in about 4e-4 of
        // such windows: the test asks that the true seed be among the matches, not that
        // it be alone, and then checks the whole deck it implies.
        let report = crack(
            &settings("delphi", "asf-poker", "13:59:00..14:01:00", &seen, 2),
            &NoProgress,
        )
        .unwrap();
        let found = report
            .recovered
            .iter()
            .find(|found| found.seed == u64::from(seed));
        assert_eq!(found.expect("the dealing seed is found").deck, deck);
        assert!(report.matches >= 1);
        assert!(report.chance_matches() < 1e-3);
    }

    #[test]
    fn a_window_without_the_seed_finds_nothing() {
        let deck = Dealer::new(
            SourceKind::Delphi,
            &AlgorithmSpec::parse("asf-poker").unwrap(),
            52,
        )
        .unwrap()
        .deal(50_412_345)
        .unwrap();
        let seen = seen_at(&deck, &[1, 2, 3, 4, 5, 6]);
        // Six cards: a false match in 120,000 seeds has probability about 8e-6.
        let report = crack(
            &settings("delphi", "asf-poker", "14:01:00..14:03:00", &seen, 2),
            &NoProgress,
        )
        .unwrap();
        assert_eq!(report.matches, 0);
        assert!(report.recovered.is_empty());
    }

    #[test]
    fn other_sources_and_algorithms_are_cracked_the_same_way() {
        for (source, algorithm, seed, window) in [
            (
                "msvc-rand-mod",
                "fisher-yates",
                1_700_000_123,
                "1699990000..1700050000",
            ),
            ("delphi", "fisher-yates", 77_777, "0..100000"),
            ("clock-reseed", "naive-swap", 86_399_999, "23:59:00..24:00:00"),
            (
                "xoshiro",
                "fisher-yates",
                1 << 50,
                "1125899906800000..1125899906900000",
            ),
        ] {
            let kind = SourceKind::parse(source, None).unwrap();
            let dealer = Dealer::new(kind, &AlgorithmSpec::parse(algorithm).unwrap(), 52).unwrap();
            let deck = dealer.deal(seed).unwrap();
            let seen = seen_at(&deck, &[1, 2, 3, 4, 5, 6]);
            let report = crack(&settings(source, algorithm, window, &seen, 2), &NoProgress).unwrap();
            assert!(
                report
                    .recovered
                    .iter()
                    .any(|found| found.seed == seed && found.deck == deck),
                "{source} {algorithm}: {:?}",
                report.recovered
            );
        }
    }

    #[test]
    fn the_answer_does_not_depend_on_the_threads() {
        // One card seen on a 10-card deck: about a tenth of the seeds match, more than
        // can be listed, so both the count and which seeds are listed are compared.
        let seen = Seen::parse(Some("4"), None, 10).unwrap();
        let run = |threads| {
            crack(
                &settings("delphi", "asf-poker", "1000..300000", &seen, threads),
                &NoProgress,
            )
            .unwrap()
        };
        let (one, two, three) = (run(1), run(2), run(3));
        assert!(one.matches > MAX_LISTED as u64, "{}", one.matches);
        assert_eq!(one.recovered.len(), MAX_LISTED);
        for other in [&two, &three] {
            assert_eq!(other.matches, one.matches);
            assert_eq!(other.recovered, one.recovered);
        }
        let seeds: Vec<u64> = one.recovered.iter().map(|found| found.seed).collect();
        assert!(seeds.windows(2).all(|pair| pair[0] < pair[1]), "listed by seed");
        // The list is the first matches of the window: brute force over its start agrees.
        let dealer = &one.settings.dealer;
        let expected: Vec<u64> = (1000..)
            .filter(|&seed| dealer.deal(seed).unwrap()[0] == 4)
            .take(MAX_LISTED)
            .collect();
        assert_eq!(seeds, expected);
    }

    #[test]
    fn progress_counts_every_seed_once() {
        use std::sync::atomic::{AtomicU64, Ordering};
        struct Counter(AtomicU64);
        impl Progress for Counter {
            fn advance(&self, seeds: u64) {
                self.0.fetch_add(seeds, Ordering::Relaxed);
            }
        }
        let counter = Counter(AtomicU64::new(0));
        let seen = Seen::parse(Some("1"), None, 5).unwrap();
        crack(&settings("delphi", "asf-poker", "3..100003", &seen, 2), &counter).unwrap();
        assert_eq!(counter.0.load(Ordering::Relaxed), 100_000);
    }
}
