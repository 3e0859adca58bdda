//! The card-guessing game, played on the first deals of a run: what a player who studied
//! some deals could make of the next ones.
//!
//! Turn a deal's cards up one at a time and guess each before it shows, remembering what
//! has been seen (complete feedback). The game is played on the first deals of a run or
//! an input, split by their place in it, so that the split is the same whatever the
//! thread count or shard layout ([`GameSplit`]): the first half (at most
//! [`GAME_TRAINING_DEALS`]) is studied, the next deals (at most [`GAME_PLAYED_DEALS`]) are
//! played. A few strategies a person can state in one sentence are learned from the
//! studied deals ([`Strategy`]); the one that guesses best *on the studied deals* is
//! played on the others, which it has never seen. Under a fair shuffle its correct guesses
//! then follow an exact law whatever it learned (see [`crate::stats`]'s `guessing`).
//!
//! Everything here is counts: the strategy chosen, how many deals it played, how many
//! guesses were right in all and at each position, and the sum of squares of each deal's
//! right guesses (for an interval).

use rayon::prelude::*;

/// Deals studied at most: the first half of the run's first [`GAME_DEALS`].
pub const GAME_TRAINING_DEALS: u64 = 8_192;
/// Deals played at most, right after the studied ones.
pub const GAME_PLAYED_DEALS: u64 = 8_192;
/// The deals the game looks at, at most: one chunk of the engine.
pub const GAME_DEALS: u64 = GAME_TRAINING_DEALS + GAME_PLAYED_DEALS;
/// The fewest deals the game is played on: a hundred to study and a hundred to play.
/// Fewer make a study of nothing, and a run of a handful of deals ran no test.
pub const GAME_MIN_DEALS: u64 = 200;

/// Which of a run's first deals the game studies and which it plays: the first
/// `training`, then the next `played`. A rule on deal numbers alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSplit {
    /// Deals studied (numbers `0..training`).
    pub training: u64,
    /// Deals played (numbers `training..training + played`).
    pub played: u64,
}

impl GameSplit {
    /// The split of a run or input of `deals` deals: half studied (at most
    /// [`GAME_TRAINING_DEALS`]), the rest played (at most [`GAME_PLAYED_DEALS`]); none of
    /// either below [`GAME_MIN_DEALS`].
    pub fn of(deals: u64) -> Self {
        if deals < GAME_MIN_DEALS {
            return Self {
                training: 0,
                played: 0,
            };
        }
        let training = (deals / 2).min(GAME_TRAINING_DEALS);
        let played = (deals - training).min(GAME_PLAYED_DEALS);
        Self { training, played }
    }

    /// The deals the game needs, from the first.
    pub fn deals(self) -> u64 {
        self.training + self.played
    }
}

/// How the deal is seen: as dealt, or written in terms of the deal before (each card
/// named by its place in the previous deal), for a dealer who carries the deck.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Frame {
    Fresh,
    Carried,
}

/// What the player guesses from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rule {
    Position,
    Successor,
    Rising,
}

/// A strategy of the game, each stated in one sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// The unseen card that was most often at this position in the studied deals.
    Position,
    /// The unseen card that most often followed the last card seen.
    Successor,
    /// The card after the last one seen in the starting order (the lowest unseen card
    /// when that one is gone): the continuation of a rising sequence.
    RisingSequence,
    /// [`Strategy::Position`] on places in the previous deal.
    CarriedPosition,
    /// [`Strategy::Successor`] on places in the previous deal.
    CarriedSuccessor,
    /// [`Strategy::RisingSequence`] on places in the previous deal: the card that followed
    /// the last one seen in the previous deal.
    CarriedRisingSequence,
}

impl Strategy {
    /// Every strategy, in the order ties are broken.
    pub const ALL: [Strategy; 6] = [
        Strategy::Position,
        Strategy::Successor,
        Strategy::RisingSequence,
        Strategy::CarriedPosition,
        Strategy::CarriedSuccessor,
        Strategy::CarriedRisingSequence,
    ];

    /// Its name, as in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Position => "position",
            Strategy::Successor => "successor",
            Strategy::RisingSequence => "rising-sequence",
            Strategy::CarriedPosition => "carried-position",
            Strategy::CarriedSuccessor => "carried-successor",
            Strategy::CarriedRisingSequence => "carried-rising-sequence",
        }
    }

    /// Its name and what the player does, in a few words.
    pub fn description(self) -> &'static str {
        match self {
            Strategy::Position => {
                "position, the unseen card most often at this position in the studied deals"
            }
            Strategy::Successor => "successor, the unseen card that most often followed the last card seen",
            Strategy::RisingSequence => {
                "rising-sequence, the card after the last one seen in the starting order (a rising sequence goes on)"
            }
            Strategy::CarriedPosition => {
                "carried-position, the unseen card whose place in the previous deal most often comes to this position"
            }
            Strategy::CarriedSuccessor => {
                "carried-successor, the unseen card whose place in the previous deal most often followed the last one's"
            }
            Strategy::CarriedRisingSequence => {
                "carried-rising-sequence, the card that followed the last one seen in the previous deal (a dealer who \
                 carries the deck)"
            }
        }
    }

    /// The strategy with this name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|strategy| strategy.name() == name)
    }

    fn frame(self) -> Frame {
        match self {
            Strategy::Position | Strategy::Successor | Strategy::RisingSequence => Frame::Fresh,
            _ => Frame::Carried,
        }
    }

    fn rule(self) -> Rule {
        match self {
            Strategy::Position | Strategy::CarriedPosition => Rule::Position,
            Strategy::Successor | Strategy::CarriedSuccessor => Rule::Successor,
            Strategy::RisingSequence | Strategy::CarriedRisingSequence => Rule::Rising,
        }
    }
}

/// What the game gave: the strategy chosen on the studied deals and its score on the
/// played ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GuessingTally {
    /// Cards in a deal.
    pub n: usize,
    /// The strategy chosen (the best on the studied deals).
    pub strategy: Strategy,
    /// Deals studied.
    pub training_deals: u64,
    /// Deals the chosen strategy played in its study (a carried strategy cannot play the
    /// first deal: it has none before it), and its right guesses there.
    pub training_played: u64,
    /// Right guesses of the chosen strategy on the studied deals.
    pub training_correct: u64,
    /// Deals played.
    pub deals: u64,
    /// Right guesses on the played deals.
    pub correct: u64,
    /// The sum over played deals of the square of each deal's right guesses.
    pub correct_squares: u64,
    /// Right guesses at each position of the deal (`n` entries).
    pub by_position: Vec<u64>,
}

/// A player's rankings of the cards: row `r` of a table lists all `n` cards, most often
/// seen first (ties by the lower card).
#[derive(Clone)]
struct Rankings {
    /// Row = position.
    position: Vec<u16>,
    /// Row = the last card seen.
    successor: Vec<u16>,
}

impl Rankings {
    fn learn(n: usize, decks: &[&[u16]]) -> Self {
        let mut position = vec![0u32; n * n];
        let mut successor = vec![0u32; n * n];
        for deck in decks {
            for (place, &card) in deck.iter().enumerate() {
                position[place * n + usize::from(card)] += 1;
            }
            for pair in deck.windows(2) {
                successor[usize::from(pair[0]) * n + usize::from(pair[1])] += 1;
            }
        }
        // Most often first, ties by the lower card: one 64-bit key per card (the count
        // complemented, then the card), all distinct, so an unstable sort of plain
        // integers gives that order (on 2,000 cards the rows are 4 million cards to rank).
        let rank = |counts: &[u32]| -> Vec<u16> {
            let mut ranked = Vec::with_capacity(n * n);
            let mut keys: Vec<u64> = Vec::with_capacity(n);
            for row in counts.chunks_exact(n.max(1)) {
                keys.clear();
                keys.extend(
                    row.iter()
                        .zip(0u64..)
                        .map(|(&count, card)| u64::from(u32::MAX - count) << 16 | card),
                );
                keys.sort_unstable();
                ranked.extend(keys.iter().map(|&key| key as u16));
            }
            ranked
        };
        Self {
            position: rank(&position),
            successor: rank(&successor),
        }
    }
}

/// A player at the table: the rankings learned, and the scratch of one deal.
#[derive(Clone)]
struct Player {
    n: usize,
    fresh: Rankings,
    carried: Option<Rankings>,
    /// Where each card lies in the deal being played: the card is still unseen at place
    /// `k` exactly when it lies at `k` or later.
    place: Vec<u16>,
    relabelled: Vec<u16>,
    place_before: Vec<u16>,
}

impl Player {
    /// Plays `strategy` on `deck` (dealt after `before`, if known): the positions where
    /// the guess was right, or `None` when the strategy needs a previous deal and there
    /// is none.
    ///
    /// The cards seen before place `k` are the deal's first `k`, so whether a card is
    /// still unseen is a comparison of where it lies with `k`: each place's guess is then
    /// found on its own, with no list of seen cards to update between one place and the
    /// next (the game is played on every deal a run studies, a cost no other tally has;
    /// a test compares this with the guesses made card by card, as the rules say).
    fn play(
        &mut self,
        strategy: Strategy,
        deck: &[u16],
        before: Option<&[u16]>,
        hits: &mut Vec<usize>,
    ) -> Option<()> {
        let n = self.n;
        hits.clear();
        let (cards, rankings) = match strategy.frame() {
            Frame::Fresh => (deck, &self.fresh),
            Frame::Carried => {
                let before = before?;
                for (place, &card) in before.iter().enumerate() {
                    self.place_before[usize::from(card)] = place as u16;
                }
                self.relabelled.clear();
                self.relabelled
                    .extend(deck.iter().map(|&card| self.place_before[usize::from(card)]));
                (&self.relabelled[..], self.carried.as_ref()?)
            }
        };
        for (at, &card) in cards.iter().enumerate() {
            self.place[usize::from(card)] = at as u16;
        }
        let place = &self.place[..];
        // The first card of `row` not among the first `k` of the deal.
        let first_unseen = |row: &[u16], k: usize| -> u16 {
            *row.iter()
                .find(|&&card| usize::from(place[usize::from(card)]) >= k)
                .expect("a card is left")
        };
        let mut hit = |k: usize, guess: u16| {
            if guess == cards[k] {
                hits.push(k);
            }
        };
        match strategy.rule() {
            Rule::Position => {
                for (k, row) in rankings.position.chunks_exact(n).enumerate() {
                    hit(k, first_unseen(row, k));
                }
            }
            Rule::Successor => {
                hit(0, first_unseen(&rankings.position[..n], 0));
                for k in 1..n {
                    let last = usize::from(cards[k - 1]);
                    hit(k, first_unseen(&rankings.successor[last * n..(last + 1) * n], k));
                }
            }
            Rule::Rising => {
                // The lowest unseen card only ever rises.
                let mut lowest = 0usize;
                for k in 0..n {
                    while usize::from(place[lowest]) < k {
                        lowest += 1;
                    }
                    let guess = match k.checked_sub(1).map(|last| usize::from(cards[last]) + 1) {
                        Some(next) if next < n && usize::from(place[next]) >= k => next as u16,
                        _ => lowest as u16,
                    };
                    hit(k, guess);
                }
            }
        }
        Some(())
    }
}

/// Plays the game on `decks`, the first deals of a run or input laid end to end (whole
/// decks of `n` cards, in dealing order, at least [`GameSplit::deals`] of them for the
/// split of `total_deals`). With `in_order`, consecutive deals may depend on each other
/// (a dealer who carries the deck, a program's own generator), and the carried strategies
/// join. `None` when the split leaves nothing to study or to play.
pub fn play_guessing_game(
    n: usize,
    decks: &[u16],
    total_deals: u64,
    in_order: bool,
) -> Option<GuessingTally> {
    play_trained_game(n, decks, total_deals, in_order, None)
}

/// A player who has studied the deals of a split, and the strategy it chose: the part of
/// the game that needs only the first half of its deals, so that a reader that knows how
/// many deals will come can study while the rest are still being dealt.
#[derive(Clone)]
pub struct TrainedPlayer {
    player: Player,
    best: Option<(Strategy, u64, u64)>,
    /// What it was trained for: `n`, the split, and whether deals are in order.
    n: usize,
    split: GameSplit,
    in_order: bool,
}

/// Studies the first deals of `decks` for a run or input of `total_deals` deals (as
/// [`play_guessing_game`] would); `None` when the split studies nothing, or `decks` does
/// not hold the deals it studies.
pub fn train_guessing_player(
    n: usize,
    decks: &[u16],
    total_deals: u64,
    in_order: bool,
) -> Option<TrainedPlayer> {
    let split = GameSplit::of(total_deals);
    if n < 2 || split.training == 0 || split.played == 0 {
        return None;
    }
    let training: Vec<&[u16]> = decks.chunks_exact(n).take(split.training as usize).collect();
    if training.len() as u64 != split.training {
        return None;
    }
    let (player, best) = train(n, &training, in_order);
    Some(TrainedPlayer {
        player,
        best,
        n,
        split,
        in_order,
    })
}

/// [`play_guessing_game`], with the study already done when `trained` is given (and was
/// done for the same `n`, split and order: otherwise it is done again here).
pub fn play_trained_game(
    n: usize,
    decks: &[u16],
    total_deals: u64,
    in_order: bool,
    trained: Option<TrainedPlayer>,
) -> Option<GuessingTally> {
    let split = GameSplit::of(total_deals);
    if n < 2 || split.training == 0 || split.played == 0 {
        return None;
    }
    let all: Vec<&[u16]> = decks.chunks_exact(n).take(split.deals() as usize).collect();
    assert_eq!(all.len() as u64, split.deals(), "the game's deals are all given");
    let (training, played) = all.split_at(split.training as usize);
    let (mut player, best) = match trained {
        Some(trained) if trained.n == n && trained.split == split && trained.in_order == in_order => {
            (trained.player, trained.best)
        }
        _ => train(n, training, in_order),
    };
    let mut hits = Vec::with_capacity(n);
    let (strategy, training_played, training_correct) = best?;
    let mut tally = GuessingTally {
        n,
        strategy,
        training_deals: split.training,
        training_played,
        training_correct,
        deals: 0,
        correct: 0,
        correct_squares: 0,
        by_position: vec![0; n],
    };
    for (index, deck) in played.iter().enumerate() {
        let before = if index == 0 {
            training.last().copied()
        } else {
            Some(played[index - 1])
        };
        if player.play(strategy, deck, before, &mut hits).is_some() {
            let right = hits.len() as u64;
            tally.deals += 1;
            tally.correct += right;
            tally.correct_squares += right * right;
            for &place in &hits {
                tally.by_position[place] += 1;
            }
        }
    }
    Some(tally)
}

/// Learns the rankings of the studied deals and scores every strategy on them: the player,
/// and the best strategy with its deals played and right guesses.
fn train(n: usize, training: &[&[u16]], in_order: bool) -> (Player, Option<(Strategy, u64, u64)>) {
    let carried = in_order.then(|| {
        let relabelled: Vec<Vec<u16>> = training
            .windows(2)
            .map(|pair| relabel(pair[1], pair[0]))
            .collect();
        let views: Vec<&[u16]> = relabelled.iter().map(Vec::as_slice).collect();
        Rankings::learn(n, &views)
    });
    let player = Player {
        n,
        fresh: Rankings::learn(n, training),
        carried,
        place: vec![0; n],
        relabelled: Vec::with_capacity(n),
        place_before: vec![0; n],
    };
    // Each strategy on the studied deals, side by side (each with its own scratch: the
    // strategies do not depend on each other, and the game is the largest part of the
    // tests' own time on a small input).
    let strategies: Vec<Strategy> = Strategy::ALL
        .into_iter()
        .filter(|strategy| in_order || strategy.frame() != Frame::Carried)
        .collect();
    let scores: Vec<(Strategy, u64, u64)> = strategies
        .par_iter()
        .map(|&strategy| {
            let mut player = player.clone();
            let mut hits = Vec::with_capacity(n);
            let (mut deals, mut correct) = (0u64, 0u64);
            for (index, deck) in training.iter().enumerate() {
                let before = index.checked_sub(1).map(|i| training[i]);
                if player.play(strategy, deck, before, &mut hits).is_some() {
                    deals += 1;
                    correct += hits.len() as u64;
                }
            }
            (strategy, deals, correct)
        })
        .collect();
    // The best: most right guesses per deal played, the first in `Strategy::ALL` on a tie.
    let mut best: Option<(Strategy, u64, u64)> = None;
    for (strategy, deals, correct) in scores {
        let better = match best {
            None => deals > 0,
            Some((_, best_deals, best_correct)) => {
                deals > 0
                    && u128::from(correct) * u128::from(best_deals)
                        > u128::from(best_correct) * u128::from(deals)
            }
        };
        if better {
            best = Some((strategy, deals, correct));
        }
    }
    (player, best)
}

/// `deck` with each card named by its place in `before`.
fn relabel(deck: &[u16], before: &[u16]) -> Vec<u16> {
    let mut place = vec![0u16; before.len()];
    for (at, &card) in before.iter().enumerate() {
        place[usize::from(card)] = at as u16;
    }
    deck.iter().map(|&card| place[usize::from(card)]).collect()
}

#[cfg(test)]
mod tests;
