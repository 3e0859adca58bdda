//! The guessing game for samplers and streams: what a player who studied the first
//! samples or draws could make of the next ones, item by item.
//!
//! The card game ([`crate::tally::guessing`]) guesses each card of a deal before it shows.
//! Here the player guesses each item of a selection (the `k` picks, in their promised
//! order, or in increasing order when the order is not promised), or each draw of a stream,
//! remembering what has been seen. The input is cut into *windows* (one selection; for a
//! stream, one cycle of its bag or a fixed number of draws, windows following one another
//! inside a stream); the first windows are studied and the next played, a rule on window
//! numbers alone, so the game is the same whatever the thread count or shard layout.
//!
//! A few strategies that can be said in one sentence are learned on the studied windows
//! ([`ItemStrategy`]); the best of them *on the studied windows* plays the others. Every
//! guess is scored against the fair law ([`FairLaw`]): the chance `p_t` it had of being
//! right given everything seen, whose sum is what a fair source gives that player on
//! average, and whose largest value at each step sums to what the best player against a
//! fair source gets. Where the `p_t` do not depend on the history, the right guesses have
//! an exact law ([`ItemGameTally::exact`]); every guess's chance is kept
//! ([`ItemGameTally::guesses`]) for the martingale test of `stats`, valid in every case.

pub mod law;

pub use law::{FairLaw, LawState};

use rayon::prelude::*;

/// The fewest windows the game is played on: a hundred studied and a hundred played.
pub const ITEM_GAME_MIN_WINDOWS: u64 = 200;
/// Draws a stream's game studies at most, and plays at most.
pub const STREAM_GAME_DRAWS: u64 = 1 << 17;
/// The largest table a strategy learns (cells); a strategy that would need more is left
/// out (most-likely always plays).
const MAX_TABLE_CELLS: usize = 1 << 22;
/// The waits the `wait` strategy tells apart (longer ones share the last).
const WAITS: usize = 256;
/// The most items the `wait` strategy compares at each guess.
const MAX_WAIT_ITEMS: usize = 64;

/// Which windows are studied and which played: the first `training`, then the next
/// `played`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowSplit {
    /// Windows studied (numbers `0..training`).
    pub training: u64,
    /// Windows played (numbers `training..training + played`).
    pub played: u64,
}

impl WindowSplit {
    /// Half of `windows` studied, the rest played, each at most `most`; nothing below
    /// [`ITEM_GAME_MIN_WINDOWS`].
    pub fn of(windows: u64, most: u64) -> Self {
        if windows < ITEM_GAME_MIN_WINDOWS {
            return Self {
                training: 0,
                played: 0,
            };
        }
        let training = (windows / 2).min(most);
        let played = (windows - training).min(most);
        Self { training, played }
    }

    /// The windows the game needs, from the first.
    pub fn windows(self) -> u64 {
        self.training + self.played
    }
}

/// A strategy of the item game, each said in one sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemStrategy {
    /// The item the fair law makes likeliest now: the best play against a fair source.
    MostLikely,
    /// The possible item most often at this place of the window in the studied data.
    Position,
    /// The possible item that most often followed the last item seen.
    Successor,
    /// The possible item whose wait since it last came most often ended at this length.
    Wait,
}

impl ItemStrategy {
    /// Every strategy, in the order ties are broken.
    pub const ALL: [ItemStrategy; 4] = [
        ItemStrategy::MostLikely,
        ItemStrategy::Position,
        ItemStrategy::Successor,
        ItemStrategy::Wait,
    ];

    /// Its name, as in JSON.
    pub fn name(self) -> &'static str {
        match self {
            ItemStrategy::MostLikely => "most-likely",
            ItemStrategy::Position => "position",
            ItemStrategy::Successor => "successor",
            ItemStrategy::Wait => "wait",
        }
    }

    /// Its name and what the player does, in a few words.
    pub fn description(self) -> &'static str {
        match self {
            ItemStrategy::MostLikely => {
                "most-likely, the item the stated law makes likeliest now (the heaviest, the one with most copies \
                 left since the last refill, the next one up in a sorted sample)"
            }
            ItemStrategy::Position => {
                "position, the possible item most often at this place of the sample or cycle in the studied data"
            }
            ItemStrategy::Successor => {
                "successor, the possible item that most often followed the last item seen"
            }
            ItemStrategy::Wait => {
                "wait, the possible item whose wait since it last came most often ended at this length in the \
                 studied data"
            }
        }
    }

    /// The strategy with this name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|strategy| strategy.name() == name)
    }
}

/// What the game gave: the strategy chosen on the studied windows and its score on the
/// played ones, with the fair law's chances of each guess.
#[derive(Clone, Debug, PartialEq)]
pub struct ItemGameTally {
    /// Guesses per window ("the next `window` items").
    pub window: usize,
    /// What a window is, in words (`samples`, `draws`): for the sentence.
    pub unit: &'static str,
    /// The strategy chosen (the best on the studied windows).
    pub strategy: ItemStrategy,
    /// Windows studied.
    pub training_windows: u64,
    /// Right guesses of the chosen strategy on the studied windows.
    pub training_correct: u64,
    /// Windows played.
    pub windows: u64,
    /// Right guesses on the played windows.
    pub correct: u64,
    /// The sum over played windows of the square of each window's right guesses.
    pub correct_squares: u64,
    /// Right guesses at each place of the window (`window` entries).
    pub by_position: Vec<u64>,
    /// `Σ p_t` over the played guesses: the right guesses a fair source gives this player
    /// on average.
    pub null_expected: f64,
    /// `Σ_t max_i P(item i next)` over the played steps: what the best player gets from a
    /// fair source, on average (exact where it does not depend on the history, and for
    /// sorted samples; for a bag of unequal copies, measured on draws from the stated bag
    /// with a fixed seed).
    pub fair_best: f64,
    /// The chance of each guess of a window, when the fair law fixes them whatever the
    /// history and they are the same for every window: the count is then exactly
    /// Poisson-binomial.
    pub exact: Option<Vec<f64>>,
    /// Each played guess: the chance the fair law gave it, and whether it was right (for
    /// the martingale test, `crate::stats::martingale`).
    pub guesses: Vec<(f64, bool)>,
}

/// The strategies' tables, learned on the studied windows: rows of items, most often
/// seen first (ties by the lower item).
struct Learned {
    items: usize,
    /// Row = place in the window.
    position: Option<Vec<u16>>,
    /// Row = the last item seen.
    successor: Option<Vec<u16>>,
    /// Per item and wait: how often a wait of that length ended (`items × WAITS`), and
    /// how often a wait reached it.
    ended: Option<Vec<u32>>,
    reached: Option<Vec<u32>>,
}

fn rank(counts: &[u32], items: usize) -> Vec<u16> {
    let mut ranked = Vec::with_capacity(counts.len());
    for row in counts.chunks_exact(items) {
        let mut order: Vec<u16> = (0..items as u16).collect();
        order.sort_by(|&a, &b| row[usize::from(b)].cmp(&row[usize::from(a)]).then(a.cmp(&b)));
        ranked.extend(order);
    }
    ranked
}

/// The wait of an item last seen at step `last` (of the stream) at step `now`, as a row
/// of the wait table; an item not seen yet in the stream waits since the stream began.
fn wait_of(last: Option<u64>, now: u64) -> usize {
    let wait = now - last.map_or(0, |last| last + 1) + 1;
    (wait as usize).min(WAITS) - 1
}

/// One stream (or sample) cut into whole windows.
type Stream<'a> = &'a [u16];

impl Learned {
    fn learn(law: &FairLaw, streams: &[(Stream<'_>, u64)], window: usize, waits: bool) -> Self {
        let items = law.items();
        let position_cells = window.saturating_mul(items);
        let successor_cells = items.saturating_mul(items);
        let mut position = (position_cells <= MAX_TABLE_CELLS).then(|| vec![0u32; position_cells]);
        let mut successor = (successor_cells <= MAX_TABLE_CELLS).then(|| vec![0u32; successor_cells]);
        let wait_tables = waits && items <= MAX_WAIT_ITEMS;
        let mut ended = wait_tables.then(|| vec![0u32; items * WAITS]);
        let mut last_seen = vec![None; items];
        for &(stream, windows) in streams {
            let draws = &stream[..windows as usize * window];
            last_seen.fill(None);
            for (step, &item) in draws.iter().enumerate() {
                let item = usize::from(item);
                if let Some(table) = &mut position {
                    table[(step % window) * items + item] += 1;
                }
                if let (Some(table), Some(&before)) = (&mut successor, step.checked_sub(1).map(|s| &draws[s]))
                {
                    table[usize::from(before) * items + item] += 1;
                }
                if let Some(table) = &mut ended {
                    table[item * WAITS + wait_of(last_seen[item], step as u64)] += 1;
                }
                last_seen[item] = Some(step as u64);
            }
        }
        // A wait reaches length d when it ends at d or later (waits cut off by the end of
        // a stream are left out: the player's estimate, not a law).
        let reached = ended.as_ref().map(|ended| {
            let mut reached = vec![0u32; ended.len()];
            for item in 0..items {
                let mut sum = 0u32;
                for d in (0..WAITS).rev() {
                    sum += ended[item * WAITS + d];
                    reached[item * WAITS + d] = sum;
                }
            }
            reached
        });
        Self {
            items,
            position: position.map(|counts| rank(&counts, items)),
            successor: successor.map(|counts| rank(&counts, items)),
            ended,
            reached,
        }
    }

    fn knows(&self, strategy: ItemStrategy) -> bool {
        match strategy {
            ItemStrategy::MostLikely => true,
            ItemStrategy::Position => self.position.is_some(),
            ItemStrategy::Successor => self.successor.is_some() && self.position.is_some(),
            ItemStrategy::Wait => self.ended.is_some(),
        }
    }

    /// The first possible item of a ranked row.
    fn first_possible(&self, ranked: &[u16], row: usize, state: &LawState<'_>) -> usize {
        let items = self.items;
        ranked[row * items..(row + 1) * items]
            .iter()
            .map(|&item| usize::from(item))
            .find(|&item| state.probability(item) > 0.0)
            .unwrap_or_else(|| state.likeliest().0)
    }

    /// The guess of `strategy` at `step` of a stream (`place` in its window).
    fn guess(
        &self,
        strategy: ItemStrategy,
        state: &LawState<'_>,
        draws: &[u16],
        step: usize,
        place: usize,
        last_seen: &[Option<u64>],
    ) -> usize {
        match strategy {
            ItemStrategy::MostLikely => state.likeliest().0,
            ItemStrategy::Position => {
                self.first_possible(self.position.as_ref().expect("learned"), place, state)
            }
            ItemStrategy::Successor => match step.checked_sub(1) {
                Some(before) => self.first_possible(
                    self.successor.as_ref().expect("learned"),
                    usize::from(draws[before]),
                    state,
                ),
                None => self.first_possible(self.position.as_ref().expect("learned"), place, state),
            },
            ItemStrategy::Wait => {
                let (ended, reached) = (
                    self.ended.as_ref().expect("learned"),
                    self.reached.as_ref().expect("learned"),
                );
                let mut best: Option<(usize, f64, f64)> = None;
                for (item, &last) in last_seen.iter().enumerate().take(self.items) {
                    let p = state.probability(item);
                    if p <= 0.0 {
                        continue;
                    }
                    let cell = item * WAITS + wait_of(last, step as u64);
                    let hazard = if reached[cell] == 0 {
                        0.0
                    } else {
                        f64::from(ended[cell]) / f64::from(reached[cell])
                    };
                    if best.is_none_or(|(_, h, q)| hazard > h || (hazard == h && p > q)) {
                        best = Some((item, hazard, p));
                    }
                }
                best.map_or_else(|| state.likeliest().0, |(item, _, _)| item)
            }
        }
    }
}

/// One strategy's play over some windows.
struct Score {
    windows: u64,
    correct: u64,
    correct_squares: u64,
    by_position: Vec<u64>,
    null_expected: f64,
    fair_best: f64,
    exact: Option<Vec<f64>>,
    guesses: Vec<(f64, bool)>,
}

/// Plays `strategy` on the windows `from..from + count` of `streams` (each stream with its
/// number of whole windows), the state of the fair law following every stream from its
/// start (the windows before `from` are seen, not played).
#[allow(clippy::too_many_arguments)]
fn play(
    law: &FairLaw,
    learned: &Learned,
    strategy: ItemStrategy,
    streams: &[(Stream<'_>, u64)],
    window: usize,
    from: u64,
    count: u64,
    score_law: bool,
) -> Score {
    let mut score = Score {
        windows: 0,
        correct: 0,
        correct_squares: 0,
        by_position: vec![0; window],
        null_expected: 0.0,
        fair_best: 0.0,
        exact: None,
        guesses: Vec::new(),
    };
    let mut exact = score_law;
    let mut fixed: Vec<f64> = Vec::with_capacity(window);
    let mut state = law.start();
    let mut last_seen = vec![None; law.items()];
    let end = from + count;
    let mut first_window = 0u64;
    for &(stream, windows) in streams {
        if first_window >= end {
            break;
        }
        let stream_end = first_window + windows;
        if stream_end <= from {
            first_window = stream_end;
            continue;
        }
        state.reset();
        last_seen.fill(None);
        let draws = &stream[..windows as usize * window];
        for (number, chunk) in draws.chunks_exact(window).enumerate() {
            let number = first_window + number as u64;
            if number >= end {
                break;
            }
            let played = number >= from;
            let mut right_here = 0u64;
            for (place, &item) in chunk.iter().enumerate() {
                let step = (number - first_window) as usize * window + place;
                if played {
                    let guess = learned.guess(strategy, &state, draws, step, place, &last_seen);
                    let right = guess == usize::from(item);
                    if right {
                        right_here += 1;
                        score.by_position[place] += 1;
                    }
                    if score_law {
                        let p = state.probability(guess);
                        score.null_expected += p;
                        score.fair_best += state.likeliest().1;
                        score.guesses.push((p, right));
                        if exact {
                            match state.fixed() {
                                Some(q) if score.windows == 0 => fixed.push(q),
                                Some(q) if fixed[place] == q => {}
                                _ => exact = false,
                            }
                        }
                    }
                }
                state.observe(usize::from(item));
                last_seen[usize::from(item)] = Some(step as u64);
            }
            if played {
                score.windows += 1;
                score.correct += right_here;
                score.correct_squares += right_here * right_here;
            }
        }
        first_window = stream_end;
    }
    if exact && score.windows > 0 {
        score.exact = Some(fixed);
    }
    score
}

/// `count` draws of a correct shuffle bag of `copies` dealing `slots` per cycle, from a
/// fixed seed (`stream` picks one of several): the fair source the best player is scored
/// on where its value has no closed form.
fn fair_bag_draws(copies: &[u64], slots: u64, count: usize, stream: u64) -> Vec<u16> {
    use crate::randomness::{Randomness, SimulationSource};
    let mut source = SimulationSource::from_seed(0x6661_6972 ^ stream);
    let full: Vec<u16> = copies
        .iter()
        .enumerate()
        .flat_map(|(item, &c)| std::iter::repeat_n(item as u16, c as usize))
        .collect();
    let mut draws = Vec::with_capacity(count);
    let mut bag = full.clone();
    while draws.len() < count {
        bag.copy_from_slice(&full);
        let deal = (slots as usize).min(bag.len());
        for i in 0..deal {
            let j = i + source.below((bag.len() - i) as u64) as usize;
            bag.swap(i, j);
        }
        draws.extend_from_slice(&bag[..deal.min(count - draws.len())]);
    }
    draws
}

/// Plays the item game on `streams` (each a stream or a sample, laid out with its number
/// of whole windows of `window` items, in order), with `split` of their windows; `waits`
/// lets the `wait` strategy join (streams, where an item comes back). `unit` names a window
/// in the sentence. `None` when the split leaves nothing to study or to play.
pub fn play_item_game(
    law: &FairLaw,
    streams: &[(&[u16], u64)],
    window: usize,
    split: WindowSplit,
    waits: bool,
    unit: &'static str,
) -> Option<ItemGameTally> {
    if window == 0 || law.items() < 2 || split.training == 0 || split.played == 0 {
        return None;
    }
    let available: u64 = streams.iter().map(|&(_, windows)| windows).sum();
    assert!(available >= split.windows(), "the game's windows are all given");
    let studied = {
        let mut left = split.training;
        let mut studied = Vec::new();
        for &(stream, windows) in streams {
            if left == 0 {
                break;
            }
            let take = windows.min(left);
            studied.push((stream, take));
            left -= take;
        }
        studied
    };
    let learned = Learned::learn(law, &studied, window, waits);
    // Each strategy's study score, on the workers (the choice is made in a fixed order).
    let scores: Vec<(ItemStrategy, u64)> = ItemStrategy::ALL
        .par_iter()
        .filter(|&&strategy| learned.knows(strategy))
        .map(|&strategy| {
            let score = play(
                law,
                &learned,
                strategy,
                &studied,
                window,
                0,
                split.training,
                false,
            );
            (strategy, score.correct)
        })
        .collect();
    let mut best: Option<(ItemStrategy, u64)> = None;
    for (strategy, correct) in scores {
        if best.is_none_or(|(_, best_correct)| correct > best_correct) {
            best = Some((strategy, correct));
        }
    }
    let (strategy, training_correct) = best?;
    let mut score = play(
        law,
        &learned,
        strategy,
        streams,
        window,
        split.training,
        split.played,
        true,
    );
    if let FairLaw::SortedSelection { n, k } = law {
        // The best fair player's value depends on the history here: the exact expectation
        // replaces the sum along the histories seen.
        score.fair_best = score.windows as f64 * FairLaw::sorted_fair_value(*n, *k);
    }
    if let FairLaw::Bag { copies, slots } = law
        && copies.iter().any(|&c| c > 1)
    {
        // Here too, and with no closed form: the best fair player is scored on draws
        // from the stated bag itself (fixed seed, the same layout of streams and windows),
        // so that a flawed source's histories do not move the figure.
        let fair: Vec<Vec<u16>> = streams
            .iter()
            .enumerate()
            .map(|(index, &(_, windows))| {
                fair_bag_draws(copies, *slots, windows as usize * window, index as u64)
            })
            .collect();
        let layout: Vec<(&[u16], u64)> = fair
            .iter()
            .zip(streams)
            .map(|(draws, &(_, windows))| (draws.as_slice(), windows))
            .collect();
        let best = play(
            law,
            &learned,
            ItemStrategy::MostLikely,
            &layout,
            window,
            split.training,
            split.played,
            true,
        );
        score.fair_best = best.fair_best;
    }
    Some(ItemGameTally {
        window,
        unit,
        strategy,
        training_windows: split.training,
        training_correct,
        windows: score.windows,
        correct: score.correct,
        correct_squares: score.correct_squares,
        by_position: score.by_position,
        null_expected: score.null_expected,
        fair_best: score.fair_best,
        exact: score.exact,
        guesses: score.guesses,
    })
}

#[cfg(test)]
mod tests;
