//! V8's `Math.random` (Node.js, Chrome, Deno, Electron) recovered from shuffled deals.
//!
//! The model, as V8 4.9 and later run it (checked against real Node's output):
//! xorshift128+ (`s1 ^= s1 << 23; s1 ^= s1 >> 17; s1 ^= s0; s1 ^= s0 >> 26`, the two
//! words swapped), run 64 steps at a time to fill a cache whose values are handed out
//! from the last to the first; each value is made from the first word alone, either
//! as the bits of a double in [1, 2) minus 1 (`state0 >> 12`, V8 up to 12.x) or as
//! `(state0 >> 11) / 2^53` (later V8). The shuffles: the descending loop every tutorial
//! shows, `j = Math.floor(Math.random() * (i + 1))`, and lodash's `_.shuffle`
//! (`index + Math.floor(Math.random() * (length - index))`, up to the last index).
//!
//! Why equations and not a search: every bit of the generator is a linear function over
//! GF(2) of its 128 starting bits, and a draw `floor(x·m) = j` pins `x` to
//! `[j/m, (j+1)/m)`, whose common leading bits are bits of `state0` (a deal of 52
//! cards gives about 130 of them). Solving takes microseconds ([`super::gf2`]). What is
//! not known is where in its cache the first draw fell, so each of the 64 places is
//! tried; each solution is then replayed through the real arithmetic (the double, the
//! multiplication and `floor`) against every deal, so that the rounding of the
//! multiplication, which the equations leave aside, is checked too.

use rayon::prelude::*;

use super::draws::{Direction, Draw, Observed, values_drawing};
use super::gf2::System;
use super::xorshift_sum::step;
use super::{Candidate, Generator, Search, Seed, ShuffleCode};

/// Values in the cache that one refill makes.
pub const CACHE: usize = 64;

/// How the first word becomes a double.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Conversion {
    /// `state0 >> 12` as the mantissa of a double in [1, 2), minus 1: V8 4.9 to 12.x
    /// (Node 6 to 22).
    Mantissa52,
    /// `(state0 >> 11) / 2^53`: V8 13 to 14.
    Divide53,
    /// `((state0 + state1) >> 11) / 2^53`: V8 since 2026 (not linear: searched by
    /// [`super::summed`], not in [`Conversion::ALL`]).
    Sum53,
}

impl Conversion {
    /// The ways made from the first word alone, which equations solve.
    pub const ALL: [Conversion; 2] = [Conversion::Mantissa52, Conversion::Divide53];

    fn to_double(self, (state0, state1): (u64, u64)) -> f64 {
        match self {
            Conversion::Mantissa52 => f64::from_bits((state0 >> 12) | 0x3FF0_0000_0000_0000) - 1.0,
            Conversion::Divide53 => (state0 >> 11) as f64 / (1u64 << 53) as f64,
            Conversion::Sum53 => (state0.wrapping_add(state1) >> 11) as f64 / (1u64 << 53) as f64,
        }
    }

    /// The bits of `state0` that make the double, and the low bits it drops.
    fn mantissa_bits(self) -> (u32, u32) {
        match self {
            Conversion::Mantissa52 => (52, 12),
            Conversion::Divide53 | Conversion::Sum53 => (53, 11),
        }
    }

    /// The V8 versions that make doubles this way.
    pub fn versions(self) -> &'static str {
        match self {
            Conversion::Mantissa52 => "V8 4.9 to 12.x: Node.js 6 to 22, Chrome 49 on",
            Conversion::Divide53 => {
                "V8 13 to 14.0: Node.js 23 and 24, Deno 2.5 (Node.js 24, Deno 2.5 checked)"
            }
            Conversion::Sum53 => "V8 14.5 to 14.9 (Deno 2.6 to 2.8), its cache read backwards",
        }
    }
}

/// The step before `step`: xorshift128+ is invertible.
fn unstep((s0, s1): (u64, u64)) -> (u64, u64) {
    // (s0, s1) = (y, x) with x = f(old s0) ^ y ^ (y >> 26), f(a) = a ^ a << 23 ^ (…) >> 17.
    let y = s0;
    let mut t = s1 ^ y ^ (y >> 26);
    // Undo t = a' ^ (a' >> 17), a' = a ^ (a << 23).
    let mut a = t;
    for _ in 0..4 {
        a = t ^ (a >> 17);
    }
    t = a;
    let mut old = t;
    for _ in 0..3 {
        old = t ^ (old << 23);
    }
    (old, y)
}

/// V8's MurmurHash3 finaliser, with which it seeds the generator.
fn murmur(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^= h >> 33;
    h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    h ^= h >> 33;
    h
}

/// `Math.random` of one V8 context: the generator, its cache and where in it the next
/// value is.
#[derive(Clone, Debug)]
pub struct MathRandom {
    state: (u64, u64),
    cache: [f64; CACHE],
    /// The next value is `cache[next - 1]`; 0 means the cache must be refilled.
    next: usize,
    conversion: Conversion,
}

impl MathRandom {
    /// The `Math.random` of `node --random-seed=SEED` (a nonzero seed).
    pub fn seeded(seed: i64, conversion: Conversion) -> Self {
        let seed = seed as u64;
        Self::at((murmur(seed), murmur(!seed)), CACHE, conversion)
    }

    /// A `Math.random` about to refill its cache from `state` (the generator before the
    /// refill), whose next value will be the one at place `first` of that cache
    /// (`CACHE` or more: the refill is still to come, and the value is its last).
    pub fn at(state: (u64, u64), first: usize, conversion: Conversion) -> Self {
        let mut random = Self {
            state,
            cache: [0.0; CACHE],
            next: 0,
            conversion,
        };
        random.refill();
        random.next = first.min(CACHE - 1) + 1;
        random
    }

    /// The generator before the last refill (the one whose cache is being handed out).
    #[cfg(test)]
    fn state_before_refill(&self) -> (u64, u64) {
        let mut state = self.state;
        for _ in 0..CACHE {
            state = unstep(state);
        }
        state
    }

    fn refill(&mut self) {
        for value in &mut self.cache {
            self.state = step(self.state);
            *value = self.conversion.to_double(self.state);
        }
        self.next = CACHE;
    }

    /// The next `Math.random()`.
    pub fn next_double(&mut self) -> f64 {
        if self.next == 0 {
            self.refill();
        }
        self.next -= 1;
        self.cache[self.next]
    }

    /// `Math.floor(Math.random() * bound)`.
    pub fn below(&mut self, bound: u32) -> u32 {
        (self.next_double() * f64::from(bound)).floor() as u32
    }
}

impl super::seeded::Draws for MathRandom {
    fn below(&mut self, bound: u32) -> u32 {
        MathRandom::below(self, bound)
    }

    fn boxed(&self) -> Box<dyn super::seeded::Draws> {
        Box::new(self.clone())
    }
}

/// A shuffle that JavaScript programs paste.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsShuffle {
    /// `for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(Math.random() * (i + 1)); … }`
    FisherYates,
    /// lodash 4's `_.shuffle`.
    Lodash,
}

impl JsShuffle {
    pub const ALL: [JsShuffle; 2] = [JsShuffle::FisherYates, JsShuffle::Lodash];

    pub fn direction(self) -> Direction {
        match self {
            JsShuffle::FisherYates => Direction::Descending,
            JsShuffle::Lodash => Direction::Ascending,
        }
    }
}

/// A recovered `Math.random`: the generator before the refill of the cache that held the
/// first observed draw, where in that cache the draw was, and the ways of making doubles
/// that deal what was seen (the two differ in the last bit of a double, which a deal
/// seldom shows, so both usually do).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct V8State {
    pub state: (u64, u64),
    pub first: usize,
    pub conversions: Vec<Conversion>,
}

impl V8State {
    /// `Math.random` as it was before the first observed draw, making doubles the first
    /// way that deals what was seen.
    pub fn random(&self) -> MathRandom {
        self.random_with(self.conversions[0])
    }

    /// The same, making doubles by `conversion`.
    pub fn random_with(&self, conversion: Conversion) -> MathRandom {
        MathRandom::at(self.state, self.first, conversion)
    }
}

/// What a search found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Found {
    /// Every state that deals the draws (and the check) exactly.
    pub states: Vec<V8State>,
    /// The largest number of free bits among cache places whose equations did not settle
    /// the state (too few deals): 0 when every place was settled or ruled out.
    pub unsettled_bits: u32,
}

/// Free bits listed and replayed one by one; more means more deals are needed.
const MOST_FREE_BITS: u32 = 16;

/// Free bits listed while more deals are at hand (see [`settle`]).
const FREE_BITS_WITH_MORE_DEALS: u32 = 4;

/// The generator step (1 for the first after the refill that precedes the first draw)
/// whose value the draw numbered `draw` got, when the first draw took place `first` of
/// its cache.
pub(super) fn step_of(draw: usize, first: usize) -> usize {
    if draw <= first {
        first - draw + 1
    } else {
        let later = draw - first - 1;
        CACHE * (1 + later / CACHE) + (CACHE - 1 - later % CACHE) + 1
    }
}

/// The top bits of `state0` that every `state0` drawing `floor(x·bound) = value` shares,
/// whichever conversion made `x`: (how many, and the bits, in the top of a word).
///
/// Exact, not padded: the mantissas that draw `value` are found by bisection through the
/// real arithmetic (the multiplication rounds, but monotonically), so a draw whose range
/// starts or ends on a round fraction (`bound` 2 or 4, say) gives all its bits. A padded
/// range straddles those fractions and gave nothing: a deal of 4 cards then told about
/// one bit, not three and a half, and 150 deals now and then left the state unsettled.
fn known_top_bits(draw: Draw) -> (u32, u64) {
    let mut low = u128::MAX;
    let mut high = 0u128;
    for conversion in Conversion::ALL {
        let (bits, dropped) = conversion.mantissa_bits();
        // The mantissas go up with `x`, and so do the draws.
        let mantissas = values_drawing(draw, 1 << bits, |mantissa| {
            draw_of(mantissa, conversion, draw.bound)
        });
        let (first, end) = (u128::from(mantissas.start), u128::from(mantissas.end));
        if first < end {
            low = low.min(first << dropped);
            high = high.max((end << dropped) - 1);
        }
    }
    if low > high {
        // No double draws this value: the draw is impossible, and the replay rules out
        // every state; it pins nothing here.
        return (0, 0);
    }
    let (low, high) = (low as u64, high as u64);
    ((low ^ high).leading_zeros(), low)
}

/// `Math.floor(x * bound)` for the double that `conversion` makes of `mantissa`.
fn draw_of(mantissa: u64, conversion: Conversion, bound: u32) -> u32 {
    let (_, dropped) = conversion.mantissa_bits();
    (conversion.to_double((mantissa << dropped, 0)) * f64::from(bound)).floor() as u32
}

/// Every `Math.random` state that deals `draws` through `shuffle`'s arithmetic and then
/// `check` (the draws of every deal given, the first of which are `draws`).
pub fn search(draws: &[Draw], check: &[Draw]) -> Found {
    search_listing(draws, check, MOST_FREE_BITS)
}

/// The same, listing the states of a cache place only when its equations leave at most
/// `most_free_bits` free (a place with more counts as unsettled). The places are
/// searched in parallel, and their states kept in place order.
fn search_listing(draws: &[Draw], check: &[Draw], most_free_bits: u32) -> Found {
    if draws.is_empty() {
        return Found::default();
    }
    let steps = (0..CACHE)
        .map(|first| step_of(draws.len() - 1, first))
        .max()
        .unwrap_or(0);
    let symbolic = symbolic_words(steps);
    let known: Vec<(u32, u64)> = draws.iter().map(|&draw| known_top_bits(draw)).collect();
    let places: Vec<(Vec<V8State>, u32)> = (0..CACHE)
        .into_par_iter()
        .map(|first| {
            let mut system = System::default();
            for (at, &(known, bits)) in known.iter().enumerate() {
                let word = &symbolic[step_of(at, first) - 1];
                for bit in (64 - known..64).rev() {
                    if !system.add(word[bit as usize], bits >> bit & 1 == 1) {
                        break;
                    }
                }
                if system.contradicted() {
                    return (Vec::new(), 0);
                }
            }
            let Some(solutions) = system.solutions(128, most_free_bits) else {
                return (Vec::new(), 128 - system.rank());
            };
            let states = solutions
                .into_iter()
                .filter_map(|solution| {
                    let state = (solution as u64, (solution >> 64) as u64);
                    let conversions: Vec<Conversion> = Conversion::ALL
                        .into_iter()
                        .filter(|&conversion| {
                            let random = MathRandom::at(state, first, conversion);
                            deals(random.clone(), draws) && deals(random, check)
                        })
                        .collect();
                    (!conversions.is_empty()).then_some(V8State {
                        state,
                        first,
                        conversions,
                    })
                })
                .collect();
            (states, 0)
        })
        .collect();
    let mut found = Found::default();
    for (states, unsettled_bits) in places {
        found.states.extend(states);
        found.unsettled_bits = found.unsettled_bits.max(unsettled_bits);
    }
    found
}

/// Whether `random` draws `draws` with `Math.floor(Math.random() * bound)`.
pub fn deals(mut random: MathRandom, draws: &[Draw]) -> bool {
    draws.iter().all(|draw| random.below(draw.bound) == draw.value)
}

/// The first word after each of `steps` steps, each of its 64 bits as the set of
/// starting bits (s0 in bits 0–63, s1 in 64–127) whose exclusive or it is.
fn symbolic_words(steps: usize) -> Vec<[u128; 64]> {
    let mut words = super::xorshift_sum::symbolic_words(steps + 1);
    words.remove(0);
    words
}

#[cfg(test)]
mod tests;

/// The shuffles JavaScript programs paste, in the order of [`JsShuffle::ALL`] (every
/// engine's `Math.random` is recovered under both).
pub static JS_SHUFFLES: [ShuffleCode; 2] = [
    ShuffleCode {
        name: "Fisher-Yates",
        code: "for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(Math.random() * (i + 1)); \
               [a[i], a[j]] = [a[j], a[i]]; }",
    },
    ShuffleCode {
        name: "lodash _.shuffle",
        code: "_.shuffle(array) (lodash 4): for (index = 0; index < length; index++) \
               swap(index, index + Math.floor(Math.random() * (length - index)))",
    },
];

/// Refills before a recovered state that are searched for V8's own seeding (the state
/// `--random-seed` or V8's random seed starts from): a program that drew 262,144
/// numbers before its first deal.
const REFILLS_BACK: usize = 4096;

/// The seed V8 started from, and the refills since, when the state before a refill is
/// at most [`REFILLS_BACK`] refills after V8 seeded `Math.random` (public for the
/// runtimes whose seeds come from `Math.random`: fast-shuffle).
pub fn v8_seed(mut state: (u64, u64)) -> Option<(u64, usize)> {
    for refills in 0..=REFILLS_BACK {
        let seed = unmurmur(state.0);
        if seed != 0 && murmur(!seed) == state.1 {
            return Some((seed, refills));
        }
        for _ in 0..CACHE {
            state = unstep(state);
        }
    }
    None
}

/// The inverse of [`murmur`].
fn unmurmur(mut h: u64) -> u64 {
    // x ^= x >> 33 is its own inverse; the multipliers are odd.
    const INVERSE_1: u64 = inverse_of(0xFF51_AFD7_ED55_8CCD);
    const INVERSE_2: u64 = inverse_of(0xC4CE_B9FE_1A85_EC53);
    h ^= h >> 33;
    h = h.wrapping_mul(INVERSE_2);
    h ^= h >> 33;
    h = h.wrapping_mul(INVERSE_1);
    h ^= h >> 33;
    h
}

/// The inverse of an odd number modulo 2^64 (Newton's iteration).
const fn inverse_of(odd: u64) -> u64 {
    let mut inverse: u64 = 1;
    let mut round = 0;
    while round < 6 {
        inverse = inverse.wrapping_mul(2u64.wrapping_sub(odd.wrapping_mul(inverse)));
        round += 1;
    }
    inverse
}

/// What one shuffle's search came to after as many deals as settled it.
struct Settled {
    deals: usize,
    found: Found,
}

/// Searches `shuffle` with the first deals, one more at a time, until every place of
/// the cache is settled (a state, several, or none) or the deals run out. While more
/// deals remain, a place's states are listed only when [`FREE_BITS_WITH_MORE_DEALS`] or
/// fewer bits are free: another deal settles the rest for less than listing them.
fn settle(observed: &Observed, shuffle: JsShuffle) -> Settled {
    let all = observed.draws(shuffle.direction(), observed.deals.len());
    let mut last = Settled {
        deals: 0,
        found: Found::default(),
    };
    for deals in 1..=observed.deals.len() {
        let draws = observed.draws(shuffle.direction(), deals);
        let most_free_bits = if deals < observed.deals.len() {
            FREE_BITS_WITH_MORE_DEALS
        } else {
            MOST_FREE_BITS
        };
        last = Settled {
            deals,
            found: search_listing(&draws, &all, most_free_bits),
        };
        if last.found.unsettled_bits == 0 {
            break;
        }
    }
    last
}

/// The eras whose doubles come from the first word alone (also `--runtime js`'s first
/// search).
pub(super) fn first_word_search(observed: &Observed) -> std::result::Result<Search, String> {
    let settled: Vec<(JsShuffle, &'static ShuffleCode, Settled)> = JsShuffle::ALL
        .into_iter()
        .zip(&JS_SHUFFLES)
        .map(|(shuffle, code)| (shuffle, code, settle(observed, shuffle)))
        .collect();
    let unsettled = settled
        .iter()
        .map(|(_, _, settled)| settled.found.unsettled_bits)
        .max()
        .unwrap_or(0);
    let mut states: Vec<Matching> = settled
        .iter()
        .flat_map(|(shuffle, code, settled)| {
            settled.found.states.iter().map(move |state| Matching {
                shuffle: *shuffle,
                code,
                state,
                seeded: v8_seed(state.state),
            })
        })
        .collect();
    // Several states can deal the deals when they are one state shifted in the cache:
    // they differ only in the numbers drawn where a cache is refilled, and a small
    // deck may show none of those (lodash's last draw of a deal, `floor(x · 1)`, falls
    // on every refill of a deck of 4 cards). Of a state and its shifts, only one sits
    // a whole number of refills after V8's own seeding (`murmur(seed)`,
    // `murmur(!seed)`), which another state does by a chance of 2^-64: when exactly
    // one does, it is the generator, and the program began dealing within
    // REFILLS_BACK refills of its start.
    let mut shifted_copies = 0;
    if states.len() > 1 && states.iter().filter(|state| state.seeded.is_some()).count() == 1 {
        shifted_copies = states.len() - 1;
        states.retain(|state| state.seeded.is_some());
    }
    let candidates: Vec<Candidate> = states
        .iter()
        .map(|matching| matching.candidate(shifted_copies))
        .collect();
    let deals_used = settled
        .iter()
        .map(|(_, _, settled)| settled.deals)
        .max()
        .unwrap_or(0);
    // The deals settled 128 - `unsettled` bits between them: as many more per deal settle
    // the rest, but only the bits above MOST_FREE_BITS (a place with that many free bits or
    // fewer is listed and replayed), and at least one more deal.
    let (n, given) = (observed.n(), observed.deals.len());
    let settled_per_deal = (128 - unsettled) as f64 / deals_used.max(1) as f64;
    let more = ((f64::from(unsettled.saturating_sub(MOST_FREE_BITS)) / settled_per_deal.max(1.0)).ceil()
        as usize)
        .max(1);
    let more = match more {
        1 => "at least one more deal".to_string(),
        more => format!("about {more} more deals"),
    };
    let unknown = format!(
        "{given} deal{} of {n} cards leave {unsettled} bits of Math.random's 128-bit state unknown",
        if given == 1 { "" } else { "s" }
    );
    if candidates.is_empty() && unsettled > 0 {
        return Err(format!("{unknown}: give {more}"));
    }
    Ok(Search {
        deals_used,
        // A state found while bits are unsettled may have others beside it.
        caveat: (!candidates.is_empty() && unsettled > 0).then(|| {
            format!("but {unknown}: other states may deal them too, and {more} would tell them apart")
        }),
        candidates,
        complete: unsettled == 0,
        ..Search::default()
    })
}

/// A state that deals the deals through one shuffle, and the seeding [`v8_seed`] traced
/// it back to.
struct Matching<'a> {
    shuffle: JsShuffle,
    code: &'static ShuffleCode,
    state: &'a V8State,
    seeded: Option<(u64, usize)>,
}

impl Matching<'_> {
    /// The state as the report shows it; `shifted_copies` are the states set aside
    /// because this one alone is where V8's seeding leads.
    fn candidate(&self, shifted_copies: usize) -> Candidate {
        let Matching {
            shuffle,
            code,
            state,
            seeded,
        } = *self;
        let doubles = match state.conversions.as_slice() {
            [Conversion::Mantissa52] => "doubles from state0 >> 12 (V8 up to 12)",
            [Conversion::Divide53] => "doubles as (state0 >> 11) / 2^53 (V8 13 on)",
            _ => "either way of making doubles",
        };
        let seeding = match seeded {
            Some((seed, refills)) => format!(
                "; {refills} cache refill{} after V8 seeded it with {}",
                if refills == 1 { "" } else { "s" },
                if (seed as i64) >= i64::from(i32::MIN) && (seed as i64) <= i64::from(i32::MAX) {
                    format!("--random-seed={}", seed as i64)
                } else {
                    format!("{seed:#018x}")
                }
            ),
            None => String::new(),
        };
        let chosen = if shifted_copies > 0 {
            format!(
                "; {} states deal these deals, the others this one shifted in the cache, and only this one is \
                 where V8's own seeding leads",
                shifted_copies + 1
            )
        } else {
            String::new()
        };
        Candidate {
            shuffle: code,
            state: format!("{:016x}{:016x}", state.state.0, state.state.1),
            seed: seeded
                .filter(|&(seed, refills)| refills == 0 && i32::try_from(seed as i64).is_ok())
                .map(|(seed, _)| Seed {
                    value: seed as i64,
                    usage: format!("node --random-seed={}", seed as i64),
                }),
            note: Some(format!(
                "the state before the refill of the 64-value cache whose place {} held the first deal's first \
                 number; {doubles}{seeding}{chosen}",
                state.first
            )),
            generators: state
                .conversions
                .iter()
                .map(|&conversion| Generator::V8(Box::new(state.random_with(conversion))))
                .collect(),
            direction: shuffle.direction(),
        }
    }
}
