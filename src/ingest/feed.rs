//! Deals made in this process, read by `ingest` as it reads a program's output: the
//! dealer loops of the Python and JavaScript assertions (`assert_fair_shuffle`) hand each
//! deal to a [`Feed`], and [`ingest_dealt`] tallies them on its own thread while the
//! caller deals the next.
//!
//! Why through `ingest` and not a tally of its own: the deals then get every test, note
//! and check that a file of them would (the serial tests of consecutive deals, repeats,
//! the guessing game, whether the first deals give the generator away), the same verdict
//! and the same report, with nothing written twice. The cost is a line of text per deal,
//! a few dozen nanoseconds beside a call into Python, and the two threads overlap.
//!
//! A deal is checked before it is written: the wrong number of cards, a card twice, or a
//! value that is no card of the deck is a broken shuffle, named with the deal's number,
//! and never reaches the tally.

use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use super::{IngestReport, IngestSettings, Input, ingest};
use crate::error::Result;
use crate::simulate::Progress;

/// Bytes of text handed to the reader at once: about 800 deals of 5 cards.
const CHUNK_BYTES: usize = 8 << 10;

/// Chunks in flight between the dealer and the reader: memory stays a few chunks deep
/// whatever the number of deals.
const CHUNKS_IN_FLIGHT: usize = 16;

/// How often the caller is asked, while the tests run, whether it still wants them.
pub const WAIT_TICK: std::time::Duration = std::time::Duration::from_millis(20);

/// Why a deal was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DealProblem {
    /// It holds `got` cards, not the deck's `n`.
    Length { got: usize, n: usize },
    /// It holds `card` twice.
    Repeated { card: i64 },
    /// It holds `value`, which is no card of `0..n`.
    NotACard { value: i64, n: usize },
    /// The reader has stopped (it met an error, which [`ingest_dealt`] returns).
    Closed,
}

impl std::fmt::Display for DealProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DealProblem::Length { got, n } => {
                write!(
                    f,
                    "it holds {got} cards, not the deck's {n}: a shuffle must return every card"
                )
            }
            DealProblem::Repeated { card } => write!(
                f,
                "it holds card {card} twice: a shuffle must return each card of the deck exactly once"
            ),
            DealProblem::NotACard { value, n } => write!(
                f,
                "it holds {value}, which is not a card of the deck (a number from 0 to {})",
                n - 1
            ),
            DealProblem::Closed => write!(f, "the audit stopped reading deals"),
        }
    }
}

/// Where a dealer puts its deals.
pub struct Feed {
    sender: Option<SyncSender<Vec<u8>>>,
    buffer: Vec<u8>,
    n: usize,
    /// The attempt each card was last seen in: a card seen twice in one attempt is a
    /// repeat, with no array to clear between deals (refused ones included).
    seen_in: Vec<u64>,
    attempts: u64,
    deals: u64,
}

impl Feed {
    fn new(n: usize, sender: SyncSender<Vec<u8>>) -> Self {
        Self {
            sender: Some(sender),
            buffer: Vec::with_capacity(CHUNK_BYTES + 16 * n),
            n,
            seen_in: vec![0; n],
            attempts: 0,
            deals: 0,
        }
    }

    /// Deals handed over so far.
    pub fn deals(&self) -> u64 {
        self.deals
    }

    /// The next deal, each card a number of `0..n`; refused, and not counted, when it is
    /// not an order of the deck.
    pub fn deal(&mut self, cards: &[i64]) -> std::result::Result<(), DealProblem> {
        if cards.len() != self.n {
            return Err(DealProblem::Length {
                got: cards.len(),
                n: self.n,
            });
        }
        self.attempts += 1;
        let attempt = self.attempts;
        let start = self.buffer.len();
        for &card in cards {
            let Some(index) = usize::try_from(card).ok().filter(|&index| index < self.n) else {
                self.buffer.truncate(start);
                return Err(DealProblem::NotACard {
                    value: card,
                    n: self.n,
                });
            };
            if self.seen_in[index] == attempt {
                self.buffer.truncate(start);
                return Err(DealProblem::Repeated { card });
            }
            self.seen_in[index] = attempt;
            write_number(&mut self.buffer, index);
            self.buffer.push(b' ');
        }
        *self.buffer.last_mut().expect("a deck has cards") = b'\n';
        self.deals += 1;
        if self.buffer.len() >= CHUNK_BYTES {
            self.flush()?;
        }
        Ok(())
    }

    /// Hands the deals written so far to the reader.
    fn flush(&mut self) -> std::result::Result<(), DealProblem> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        let chunk = std::mem::replace(&mut self.buffer, Vec::with_capacity(CHUNK_BYTES + 16 * self.n));
        let sender = self.sender.as_ref().ok_or(DealProblem::Closed)?;
        sender.send(chunk).map_err(|_| {
            self.sender = None;
            DealProblem::Closed
        })
    }
}

/// `index` in decimal.
fn write_number(out: &mut Vec<u8>, index: usize) {
    if index < 10 {
        out.push(b'0' + index as u8);
    } else {
        out.extend_from_slice(index.to_string().as_bytes());
    }
}

/// The reader's end: the chunks, in order, as one stream of bytes.
struct Chunks {
    receiver: Receiver<Vec<u8>>,
    current: Vec<u8>,
    at: usize,
}

impl Read for Chunks {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        while self.at == self.current.len() {
            match self.receiver.recv() {
                Ok(chunk) => {
                    self.current = chunk;
                    self.at = 0;
                }
                // The dealer is done (or gave up): the end of the input.
                Err(_) => return Ok(0),
            }
        }
        let count = out.len().min(self.current.len() - self.at);
        out[..count].copy_from_slice(&self.current[self.at..self.at + count]);
        self.at += count;
        Ok(count)
    }
}

/// The caller's progress, stopped also when the dealer gave up.
struct Stoppable<'a> {
    inner: &'a dyn Progress,
    stopped: AtomicBool,
}

impl Progress for Stoppable<'_> {
    fn advance(&self, amount: u64) {
        self.inner.advance(amount);
    }

    fn cancelled(&self) -> bool {
        self.stopped.load(Ordering::Relaxed) || self.inner.cancelled()
    }
}

/// The settings of an in-process audit of `n`-card deals: whole decks of the cards
/// `0..n`, named by their numbers, so that the deck's order is the unshuffled one (as
/// the predictability check needs it).
pub fn dealt_settings(n: usize, threads: usize, alpha: f64) -> IngestSettings {
    IngestSettings {
        deck: Some((0..n).map(|card| card.to_string()).collect()),
        ..IngestSettings::permutations(threads, alpha)
    }
}

/// Runs `deal`, which hands deals of `settings`' deck to the [`Feed`], while `ingest` reads
/// them on another thread as the input `source_name`. `expected_deals`, when the dealer
/// knows how many deals it will make, lets the tests start on the first deals early. The dealer's own error comes back
/// as the outer `Err` (the ingest is then stopped and its work dropped); otherwise the
/// ingest's result. A dealer that sees [`DealProblem::Closed`] should return `Ok`: the
/// ingest's error then says why it stopped reading. While the tests run after the last
/// deal, `waiting` is called every [`WAIT_TICK`]: its error stops them and comes back as
/// the outer `Err` (Python's Ctrl-C, say).
pub fn ingest_dealt<E>(
    source_name: &str,
    settings: &IngestSettings,
    expected_deals: Option<u64>,
    progress: &dyn Progress,
    deal: impl FnOnce(&mut Feed) -> std::result::Result<(), E>,
    mut waiting: impl FnMut() -> std::result::Result<(), E>,
) -> std::result::Result<Result<IngestReport>, E> {
    let n = settings
        .deck
        .as_ref()
        .map(Vec::len)
        .expect("in-process deals are of a given deck: dealt_settings");
    let (sender, receiver) = sync_channel(CHUNKS_IN_FLIGHT);
    let progress = Stoppable {
        inner: progress,
        stopped: AtomicBool::new(false),
    };
    let (done, finished) = std::sync::mpsc::channel::<()>();
    let progress = &progress;
    std::thread::scope(|scope| {
        let reader = scope.spawn(move || {
            // Dropped when the ingest ends, however it ends: the dealer's wait is over.
            let _done = done;
            let input = Input::Fed(
                Box::new(Chunks {
                    receiver,
                    current: Vec::new(),
                    at: 0,
                }),
                expected_deals,
            );
            ingest(input, source_name, settings, progress)
        });
        let mut feed = Feed::new(n, sender);
        let dealt = deal(&mut feed).map(|()| {
            // Whatever is left, then the end of the input (the sender dropped).
            let _ = feed.flush();
        });
        drop(feed);
        let dealt = dealt.and_then(|()| {
            loop {
                match finished.recv_timeout(WAIT_TICK) {
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => waiting()?,
                    _ => break Ok(()),
                }
            }
        });
        if dealt.is_err() {
            progress.stopped.store(true, Ordering::Relaxed);
        }
        let report = reader
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        dealt.map(|()| report)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulate::NoProgress;
    use crate::stats::Verdict;

    /// [`ingest_dealt`] with no progress and nothing to wait for.
    fn fed<E>(
        name: &str,
        settings: &IngestSettings,
        expected: Option<u64>,
        deal: impl FnOnce(&mut Feed) -> std::result::Result<(), E>,
    ) -> std::result::Result<Result<IngestReport>, E> {
        ingest_dealt(name, settings, expected, &NoProgress, deal, || Ok(()))
    }

    /// Every order of 4 cards, `rounds` times over: as even as deals can be.
    fn every_order(feed: &mut Feed, rounds: usize) -> std::result::Result<(), DealProblem> {
        let mut orders = Vec::new();
        let mut deck = vec![0i64, 1, 2, 3];
        permutations(&mut deck, 0, &mut orders);
        for _ in 0..rounds {
            for order in &orders {
                feed.deal(order)?;
            }
        }
        Ok(())
    }

    fn permutations(deck: &mut Vec<i64>, from: usize, out: &mut Vec<Vec<i64>>) {
        if from == deck.len() {
            out.push(deck.clone());
            return;
        }
        for i in from..deck.len() {
            deck.swap(from, i);
            permutations(deck, from + 1, out);
            deck.swap(from, i);
        }
    }

    #[test]
    fn deals_fed_are_read_and_tallied_as_a_file_of_them() {
        let settings = dealt_settings(4, 2, 1e-6);
        let report = fed("my shuffle", &settings, Some(24 * 500), |feed| {
            every_order(feed, 500)
        })
        .unwrap()
        .unwrap();
        assert_eq!(report.samples(), 24 * 500);
        let IngestReport::Samples(run) = &report else {
            panic!("deals are samples")
        };
        let counts = run.results[0].tally.permutation_counts.as_ref().unwrap();
        assert!(counts.iter().all(|&count| count == 500), "{counts:?}");
        // Too even to be random (every order exactly 500 times): the lower tail says so.
        assert_ne!(report.verdict(), Verdict::Pass);
        assert_eq!(run.results[0].name, "my shuffle");
    }

    #[test]
    fn broken_deals_are_refused_with_what_is_wrong_and_never_counted() {
        let settings = dealt_settings(4, 1, 1e-6);
        let mut problems = Vec::new();
        let report = fed("s", &settings, None, |feed| {
            feed.deal(&[0, 1, 2, 3])?;
            problems.push(feed.deal(&[0, 1, 2]).unwrap_err());
            problems.push(feed.deal(&[0, 1, 1, 3]).unwrap_err());
            problems.push(feed.deal(&[0, 1, 2, 4]).unwrap_err());
            problems.push(feed.deal(&[0, -1, 2, 3]).unwrap_err());
            assert_eq!(feed.deals(), 1);
            feed.deal(&[3, 2, 1, 0])
        })
        .unwrap()
        .unwrap();
        assert_eq!(report.samples(), 2);
        assert_eq!(
            problems,
            [
                DealProblem::Length { got: 3, n: 4 },
                DealProblem::Repeated { card: 1 },
                DealProblem::NotACard { value: 4, n: 4 },
                DealProblem::NotACard { value: -1, n: 4 },
            ]
        );
        assert_eq!(
            problems[1].to_string(),
            "it holds card 1 twice: a shuffle must return each card of the deck exactly once"
        );
    }

    #[test]
    fn a_dealer_that_gives_up_stops_the_ingest_and_its_error_comes_back() {
        let settings = dealt_settings(4, 2, 1e-6);
        let outcome = fed("s", &settings, None, |feed| {
            every_order(feed, 10_000).map_err(|problem| problem.to_string())?;
            Err::<(), _>("the shuffle raised".to_string())
        });
        assert_eq!(outcome.unwrap_err(), "the shuffle raised");
    }

    #[test]
    fn decks_of_more_than_nine_cards_are_written_and_read_back_whole() {
        let settings = dealt_settings(12, 2, 1e-6);
        let report = fed("s", &settings, None, |feed| {
            let mut deck: Vec<i64> = (0..12).collect();
            for _ in 0..3_000 {
                deck.rotate_left(5);
                feed.deal(&deck)?;
            }
            Ok::<(), DealProblem>(())
        })
        .unwrap()
        .unwrap();
        assert_eq!(report.samples(), 3_000);
        // A rotation is never a fair deal: the position test fails it.
        assert_eq!(report.verdict(), Verdict::Fail);
    }

    /// Fair deals of `n` cards from a fixed seed: Fisher–Yates over xoshiro.
    fn fair_deals(feed: &mut Feed, n: usize, deals: u64) -> std::result::Result<(), DealProblem> {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(34);
        let mut deck: Vec<i64> = (0..n as i64).collect();
        for _ in 0..deals {
            for i in (1..n).rev() {
                deck.swap(i, rng.random_range(0..=i));
            }
            feed.deal(&deck)?;
        }
        Ok(())
    }

    #[test]
    fn the_deals_needed_by_default_let_every_test_run_and_are_never_underpowered() {
        // Fair deals at a fixed seed: whatever their p-values, the verdict is never
        // `inconclusive`, since every test runs and the power rule holds (the rule reads
        // only which tests ran and on how many deals, not what they found).
        for n in [5, 12, 300] {
            let deals = crate::analysis::power::deals_to_catch(n, 1e-6).unwrap();
            let settings = dealt_settings(n, 2, 1e-6);
            let mut report = fed("s", &settings, Some(deals), |feed| fair_deals(feed, n, deals))
                .unwrap()
                .unwrap();
            assert_eq!(report.samples(), deals);
            assert!(
                report.samples_needed().is_none(),
                "{n} cards: a test could not run"
            );
            assert!(report.require_power().is_none(), "{n} cards: underpowered");
            assert_ne!(report.verdict(), Verdict::Inconclusive, "{n} cards");
        }
    }

    /// A reader slowed down: 30 ms per block read.
    struct Slow;

    impl Progress for Slow {
        fn advance(&self, _bytes: u64) {
            std::thread::sleep(std::time::Duration::from_millis(30));
        }
    }

    #[test]
    fn waiting_that_gives_up_stops_the_tests_and_its_error_comes_back() {
        // 20,000 deals of 5 cards are a dozen blocks, read at 30 ms each: the dealer (a
        // Rust loop, done in a millisecond) waits far longer than a tick for them.
        let settings = dealt_settings(5, 1, 1e-6);
        let mut asked = 0;
        let outcome = ingest_dealt(
            "s",
            &settings,
            Some(20_000),
            &Slow,
            |feed| fair_deals(feed, 5, 20_000).map_err(|problem| problem.to_string()),
            || {
                asked += 1;
                Err("interrupted".to_string())
            },
        );
        assert_eq!(outcome.unwrap_err(), "interrupted");
        assert_eq!(asked, 1);
    }
}
