//! Simulating a shuffle the user wrote: a closure, not a catalogue algorithm.
//!
//! The engine is the same (chunk `k` draws from its own stream, workers tally into their
//! own recorders, the recorders add up), so an audit of user code is deterministic per
//! seed and independent of the thread count. Two things differ from catalogue runs.
//!
//! - The closure gets its randomness as an [`AuditRng`] (rand's traits), since user code
//!   is written against rand, not against [`crate::Randomness`].
//! - Its output is not trusted. A deck that comes back with a card lost or duplicated is
//!   a broken shuffle, and tallying it would turn a bug into a meaningless p-value; the
//!   first such trial (by trial number, so the same one whatever the thread count) is
//!   reported instead, and chunks after it are skipped.

use std::sync::atomic::{AtomicU64, Ordering};

use super::{AuditRng, CHUNK_TRIALS, Engine, NoProgress};
use crate::tally::guessing::{GameSplit, play_guessing_game};
use crate::tally::{PermutationRecorder, PermutationTally, TallyOptions};

/// The first trial whose deck was not a permutation of `0..n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokenShuffle {
    /// Its number, counted from 0 (trial `t` is trial `t % CHUNK_TRIALS` of chunk
    /// `t / CHUNK_TRIALS`).
    pub trial: u64,
    /// The deck as the shuffle left it.
    pub deck: Vec<usize>,
    /// What is wrong with it, in words.
    pub problem: String,
}

/// Shuffles a deck `0..n` (fresh before every trial) `trials` times with `shuffle`, which
/// draws only from the [`AuditRng`] it is given, and tallies the results; or returns the
/// first trial that did not give a permutation of `0..n`.
pub fn simulate_user_shuffle<F>(
    engine: &Engine,
    n: usize,
    trials: u64,
    seed: u64,
    shuffle: F,
) -> Result<PermutationTally, BrokenShuffle>
where
    F: Fn(&mut [usize], &mut AuditRng) + Sync,
{
    assert!(n <= usize::from(u16::MAX), "decks are limited to 65,535 cards");
    let first_broken_chunk = AtomicU64::new(u64::MAX);
    let chunks = trials.div_ceil(CHUNK_TRIALS);
    let workers = engine.for_each_unit(
        chunks,
        &NoProgress,
        || ChunkState::new(n, GameSplit::of(trials).deals()),
        |state, chunk, _| {
            // A chunk after a broken one cannot hold the first broken trial: skip it.
            // Chunks before it always run, so the first broken trial is always found.
            if chunk > first_broken_chunk.load(Ordering::Relaxed) {
                return 0;
            }
            let count = CHUNK_TRIALS.min(trials - chunk * CHUNK_TRIALS);
            let mut rng = AuditRng::for_chunk(seed, chunk);
            if let Some(broken) = state.run_chunk(&shuffle, &mut rng, chunk * CHUNK_TRIALS, count) {
                first_broken_chunk.fetch_min(chunk, Ordering::Relaxed);
                if state
                    .broken
                    .as_ref()
                    .is_none_or(|known| broken.trial < known.trial)
                {
                    state.broken = Some(broken);
                }
            }
            count
        },
    );
    let mut total = PermutationRecorder::new(n, user_tally_options(n));
    let mut broken: Option<BrokenShuffle> = None;
    let mut game = Vec::new();
    for worker in workers {
        total.merge(&worker.recorder);
        if !worker.game.is_empty() {
            game = worker.game;
        }
        if let Some(found) = worker.broken
            && broken.as_ref().is_none_or(|known| found.trial < known.trial)
        {
            broken = Some(found);
        }
    }
    match broken {
        Some(broken) => Err(broken),
        None => {
            // The closure may carry state from deal to deal: the carried strategies join.
            total.set_guessing(play_guessing_game(n, &game, trials, true));
            Ok(total.finish())
        }
    }
}

/// The tables of a user's shuffle: every deal, and the deals in order (the relative
/// permutations of consecutive deals, and repeated decks where they can be tested). A
/// closure may keep state between calls (a dealer carrying the deck, a generator of its
/// own seeded from the clock), so nothing is taken to be independent by construction.
fn user_tally_options(n: usize) -> TallyOptions {
    TallyOptions {
        serial: true,
        repeats: super::repeats_can_show(n),
        ..TallyOptions::default()
    }
}

/// One worker's tally, deck and scratch space.
struct ChunkState {
    recorder: PermutationRecorder,
    deck: Vec<usize>,
    cards: Vec<u16>,
    seen: Vec<bool>,
    broken: Option<BrokenShuffle>,
    /// The run's first deals (trials `0..game_deals`, all in chunk 0), for the guessing
    /// game.
    game: Vec<u16>,
    game_deals: u64,
}

impl ChunkState {
    fn new(n: usize, game_deals: u64) -> Self {
        Self {
            game: Vec::new(),
            game_deals,
            recorder: PermutationRecorder::new(n, user_tally_options(n)),
            deck: Vec::with_capacity(n),
            cards: vec![0; n],
            seen: vec![false; n],
            broken: None,
        }
    }

    /// Runs trials `first..first + count`, tallying each deck, and stops at the first
    /// deck that is not a permutation of `0..n`.
    fn run_chunk<F>(
        &mut self,
        shuffle: &F,
        rng: &mut AuditRng,
        first: u64,
        count: u64,
    ) -> Option<BrokenShuffle>
    where
        F: Fn(&mut [usize], &mut AuditRng),
    {
        let n = self.cards.len();
        self.recorder.start_chunk();
        let broken = self.run_trials(shuffle, rng, first, count, n);
        self.recorder.end_chunk();
        broken
    }

    fn run_trials<F>(
        &mut self,
        shuffle: &F,
        rng: &mut AuditRng,
        first: u64,
        count: u64,
        n: usize,
    ) -> Option<BrokenShuffle>
    where
        F: Fn(&mut [usize], &mut AuditRng),
    {
        for trial in first..first + count {
            self.deck.clear();
            self.deck.extend(0..n);
            shuffle(&mut self.deck, rng);
            if let Some(problem) = self.copy_if_permutation() {
                return Some(BrokenShuffle {
                    trial,
                    deck: self.deck.clone(),
                    problem,
                });
            }
            self.recorder.record(&self.cards);
            if trial < self.game_deals {
                self.game.extend_from_slice(&self.cards);
            }
        }
        None
    }

    /// Copies the deck into `cards` if it holds each of `0..n` once, or says what is wrong.
    fn copy_if_permutation(&mut self) -> Option<String> {
        let n = self.cards.len();
        self.seen.fill(false);
        for (slot, &card) in self.cards.iter_mut().zip(&self.deck) {
            if card >= n || std::mem::replace(&mut self.seen[card], true) {
                return Some(describe_problem(&self.deck));
            }
            *slot = card as u16;
        }
        None
    }
}

/// What makes `deck` something other than a permutation of `0..deck.len()`: the cards
/// that are not among those it was given, appear more than once, or are lost.
fn describe_problem(deck: &[usize]) -> String {
    let n = deck.len();
    let mut copies = vec![0usize; n];
    let mut foreign = Vec::new();
    for &card in deck {
        match copies.get_mut(card) {
            Some(count) => *count += 1,
            None => foreign.push(card),
        }
    }
    let cards_where =
        |wanted: fn(usize) -> bool| -> Vec<usize> { (0..n).filter(|&card| wanted(copies[card])).collect() };
    let mut problems = Vec::new();
    if !foreign.is_empty() {
        problems.push(format!(
            "{} not among the cards 0..{n} it was given",
            listed(&foreign)
        ));
    }
    let repeated = cards_where(|count| count > 1);
    if !repeated.is_empty() {
        problems.push(format!("{} more than once", listed(&repeated)));
    }
    let lost = cards_where(|count| count == 0);
    if !lost.is_empty() {
        problems.push(format!("{} lost", listed(&lost)));
    }
    problems.join("; ")
}

/// `card 3` or `cards 1, 4`.
fn listed(cards: &[usize]) -> String {
    let numbers: Vec<String> = cards.iter().map(usize::to_string).collect();
    match cards.len() {
        1 => format!("card {}", numbers[0]),
        _ => format!("cards {}", numbers.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_name_the_foreign_repeated_and_lost_cards() {
        assert_eq!(
            describe_problem(&[0, 0, 2, 3]),
            "card 0 more than once; card 1 lost"
        );
        assert_eq!(
            describe_problem(&[7, 1, 1, 1]),
            "card 7 not among the cards 0..4 it was given; card 1 more than once; cards 0, 2, 3 lost"
        );
    }

    #[test]
    fn the_first_broken_trial_is_found_whatever_the_thread_count() {
        // Loses a card on trials whose first draw is below 2^61, about one in eight: the
        // first such trial lies in the first chunk, and two more chunks run after it.
        let breaks_sometimes = |deck: &mut [usize], rng: &mut AuditRng| {
            if rand::Rng::next_u64(rng) < 1 << 61 {
                deck[1] = deck[0];
            }
        };
        let first = |threads| {
            let engine = Engine::new(threads).unwrap();
            simulate_user_shuffle(&engine, 4, 3 * CHUNK_TRIALS, 5, breaks_sometimes).unwrap_err()
        };
        let broken = first(1);
        assert!(broken.trial < CHUNK_TRIALS, "{broken:?}");
        assert_eq!(broken.deck, [0, 0, 2, 3]);
        assert_eq!(broken.problem, "card 0 more than once; card 1 lost");
        assert_eq!(first(2), broken);
        assert_eq!(first(3), broken);
    }
}
