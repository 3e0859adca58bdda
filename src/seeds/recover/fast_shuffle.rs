//! npm's fast-shuffle (6.x) recovered from deals: `createShuffle(seed)`, one PCG32 for
//! every deal, and the named `shuffle` export, which seeds a fresh PCG32 for each deal
//! from `(Math.random() * 2**32) | 0`.
//!
//! The model, as fast-shuffle 6.2.1 and its `pcg` 3.0.0 run it (checked against real
//! Node): PCG32 (XSH-RR output, 64-bit LCG) made by `createPcg32({}, seed, 12345)`,
//! which is O'Neill's `pcg32_srandom(seed, 12345)` with the seed sign-extended to 64 bits;
//! numbers below `bound` by `randomInt(0, bound)`, which redraws below
//! `(2^32 − bound) % bound` and takes the remainder. The shuffle fills a new array from
//! the front with the card drawn from the pool (`bound` = cards left), the pool's last
//! card filling the gap: the descending Fisher–Yates read backwards
//! ([`Direction::DescendingReversed`]).
//!
//! Why two searches: `createShuffle(seed)` deals every deal from one seed, found as PHP's
//! or Go's are. `shuffle(deck)` deals each deal from its own seed, so one deal gives that
//! seed and nothing about the next; but each seed is the top 32 bits of a `Math.random`
//! double, and V8's generator is recovered from a few of them ([`super::v8::search`]):
//! each deal's seed is searched in turn, the seeds handed to V8's recovery, and the next
//! deals dealt from the next `Math.random` values.
//!
//! The seeds are numbered as their 32 bits (`0..2^32`), reported signed as `| 0` makes
//! them: every seed `shuffle` draws, and `createShuffle(seed)` for `-2^31 ≤ seed < 2^31`;
//! `createShuffle(seed)` for `2^31 ≤ seed < 2^32`, a different generator from the same 32
//! bits (PCG32 takes the seed unextended), is searched as a shuffle of its own.

use std::ops::Range;

use super::draws::{Direction, Draw, Observed};
use super::seeded::{Draws, Seeded, SeededRuntime};
use super::v8::{self, MathRandom, V8State};
use super::{About, Candidate, Control, Generator, Runtime, Search, Seed, ShuffleCode};

/// PCG32's multiplier, and the increment of fast-shuffle's stream 12345 (`12345 << 1 | 1`).
const MULTIPLIER: u64 = 6_364_136_223_846_793_005;
const INCREMENT: u64 = 12_345 << 1 | 1;

/// The state before the first output of the PCG32 seeded with the 32 bits `seed`:
/// sign-extended as `| 0` leaves them, or (`unsigned`) the integer `2^31 ≤ seed < 2^32`.
#[inline(always)]
fn seeded_state(seed: u32, unsigned: bool) -> u64 {
    let extended = if unsigned {
        u64::from(seed)
    } else {
        seed as i32 as i64 as u64
    };
    INCREMENT
        .wrapping_add(extended)
        .wrapping_mul(MULTIPLIER)
        .wrapping_add(INCREMENT)
}

/// PCG32's XSH-RR output of `state`.
#[inline(always)]
fn output(state: u64) -> u32 {
    let shifted = (((state >> 18) ^ state) >> 27) as u32;
    shifted.rotate_right((state >> 59) as u32)
}

/// The PCG32 of `createPcg32({}, seed, 12345)` and `randomInt(0, bound)`.
#[derive(Clone, Debug)]
pub struct Pcg32 {
    state: u64,
}

impl Pcg32 {
    /// The generator fast-shuffle makes of `seed` (its 32 bits, signed as `| 0` makes them).
    pub fn new(seed: u32) -> Self {
        Self {
            state: seeded_state(seed, false),
        }
    }

    /// The generator of `createShuffle(seed)` for `2^31 ≤ seed < 2^32` (as a positive number).
    pub fn unsigned(seed: u32) -> Self {
        Self {
            state: seeded_state(seed, true),
        }
    }

    pub fn next_u32(&mut self) -> u32 {
        let value = output(self.state);
        self.state = self.state.wrapping_mul(MULTIPLIER).wrapping_add(INCREMENT);
        value
    }

    /// `randomInt(0, bound)` of the `pcg` package.
    pub fn below(&mut self, bound: u32) -> u32 {
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let value = self.next_u32();
            if value >= threshold {
                return value % bound;
            }
        }
    }
}

impl Draws for Pcg32 {
    fn below(&mut self, bound: u32) -> u32 {
        Pcg32::below(self, bound)
    }
    fn boxed(&self) -> Box<dyn Draws> {
        Box::new(self.clone())
    }
}

/// Draws tested at most by the filter, and the jumps to their outputs: output `k` is
/// that of `JUMPS[k].0 · state + JUMPS[k].1`.
const MOST_STAGES: usize = 16;
static JUMPS: [(u64, u64); MOST_STAGES] = jumps();

const fn jumps() -> [(u64, u64); MOST_STAGES] {
    let mut table = [(1u64, 0u64); MOST_STAGES];
    let mut k = 1;
    while k < MOST_STAGES {
        let (a, c) = table[k - 1];
        table[k] = (
            a.wrapping_mul(MULTIPLIER),
            c.wrapping_mul(MULTIPLIER).wrapping_add(INCREMENT),
        );
        k += 1;
    }
    table
}

/// Seeds tested side by side, and the count below which the rest go to the replay.
const LANES: usize = 16;
const FEW: usize = 4;

/// Tests draw `k` on `seeds`: appends those that drew it to `kept`, and those that may
/// have redrawn (an output below the threshold) to `unsure`.
#[inline(always)]
fn stage(k: usize, draw: Draw, unsigned: bool, seeds: &[u32], kept: &mut Vec<u32>, unsure: &mut Vec<u32>) {
    let (a, c) = JUMPS[k];
    let threshold = draw.bound.wrapping_neg() % draw.bound;
    let reciprocal = 1.0 / f64::from(draw.bound);
    let bound = i64::from(draw.bound);
    for chunk in seeds.chunks(LANES) {
        let mut lanes = [0u32; LANES];
        lanes[..chunk.len()].copy_from_slice(chunk);
        let mut drew = [false; LANES];
        let mut redrew = [false; LANES];
        for lane in 0..LANES {
            let value = output(
                a.wrapping_mul(seeded_state(lanes[lane], unsigned))
                    .wrapping_add(c),
            );
            // The remainder from a floating-point quotient, off by at most one and
            // corrected, so that it vectorises.
            let quotient = (f64::from(value) * reciprocal) as i64;
            let mut rest = i64::from(value) - quotient * bound;
            if rest < 0 {
                rest += bound;
            } else if rest >= bound {
                rest -= bound;
            }
            drew[lane] = rest == i64::from(draw.value);
            redrew[lane] = value < threshold;
        }
        for (lane, &seed) in chunk.iter().enumerate() {
            if redrew[lane] {
                unsure.push(seed);
            } else if drew[lane] {
                kept.push(seed);
            }
        }
    }
}

#[inline(always)]
fn filter_body(draws: &[Draw], unsigned: bool, seeds: Range<u64>, out: &mut Vec<u64>) {
    let mut alive: Vec<u32> = (seeds.start..seeds.end).map(|seed| seed as u32).collect();
    let mut kept = Vec::with_capacity(alive.len() / 8);
    let mut unsure = Vec::new();
    for (k, &draw) in draws.iter().enumerate().take(MOST_STAGES) {
        if alive.len() <= FEW {
            break;
        }
        kept.clear();
        stage(k, draw, unsigned, &alive, &mut kept, &mut unsure);
        std::mem::swap(&mut alive, &mut kept);
    }
    alive.extend(unsure);
    alive.sort_unstable();
    out.extend(alive.into_iter().map(u64::from));
}

#[cfg(all(target_arch = "x86_64", avx512_intrinsics))]
#[clippy::msrv = "1.89"]
#[target_feature(enable = "avx512f,avx512dq")]
unsafe fn filter_avx512(draws: &[Draw], unsigned: bool, seeds: Range<u64>, out: &mut Vec<u64>) {
    filter_body(draws, unsigned, seeds, out);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn filter_avx2(draws: &[Draw], unsigned: bool, seeds: Range<u64>, out: &mut Vec<u64>) {
    filter_body(draws, unsigned, seeds, out);
}

/// The fast filter, on the widest instructions this processor has.
fn filter_fast(draws: &[Draw], unsigned: bool, seeds: Range<u64>, out: &mut Vec<u64>) {
    #[cfg(all(target_arch = "x86_64", avx512_intrinsics))]
    if std::arch::is_x86_feature_detected!("avx512f") && std::arch::is_x86_feature_detected!("avx512dq") {
        // SAFETY: the processor has the features the function enables (checked above).
        return unsafe { filter_avx512(draws, unsigned, seeds, out) };
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: as above.
        return unsafe { filter_avx2(draws, unsigned, seeds, out) };
    }
    filter_body(draws, unsigned, seeds, out);
}

static SHUFFLES: [ShuffleCode; 3] = [
    ShuffleCode {
        name: "shuffle",
        code: "import { shuffle } from 'fast-shuffle'; shuffle(deck) (a PCG32 seeded (Math.random() * 2**32) | 0 \
               for each deal)",
    },
    ShuffleCode {
        name: "createShuffle(seed)",
        code: "import { createShuffle } from 'fast-shuffle'; const deal = createShuffle(seed); deal(deck)",
    },
    ShuffleCode {
        name: "createShuffle(seed), seed from 2^31 to 2^32-1",
        code: "import { createShuffle } from 'fast-shuffle'; const deal = createShuffle(seed); deal(deck) \
               (a positive seed of 32 bits, which PCG32 takes unextended)",
    },
];

static ABOUT: About = About {
    name: "fast-shuffle",
    aliases: &[],
    summary: "npm",
    generator: "fast-shuffle's PCG32",
    state_bits: 32,
    shuffles: &SHUFFLES,
    versions: "fast-shuffle 6 (pcg 3): PCG32 from createPcg32({}, seed, 12345); seeds are 32-bit, reported signed \
               as | 0 makes them (createShuffle's seeds from -2^31 to 2^32-1); shuffle() deals each deal from \
               its own seed, and its Math.random is V8's, recovered from 6 deals' seeds; checked against \
               fast-shuffle 6.2.1 on Node.js 20.20",
    instead: "a Fisher-Yates loop over crypto.randomInt (or crypto.getRandomValues with rejection)",
    min_cards: 3,
};

/// The seed search of one of the two shuffles, for [`Seeded`].
struct PcgSeeds {
    /// `shuffle(deck)`: each deal searched alone, with its own seed.
    per_deal: bool,
}

static SHUFFLE_ABOUT: About = About {
    shuffles: std::slice::from_ref(&SHUFFLES[0]),
    ..ABOUT
};
static CREATE_ABOUT: About = About {
    shuffles: SHUFFLES.split_at(1).1,
    ..ABOUT
};

/// The 32 bits of a seed, as a program gives them (`| 0`: signed).
fn signed(seed: u64) -> i64 {
    i64::from(seed as u32 as i32)
}

impl PcgSeeds {
    /// Whether shuffle number `shuffle` of [`SeededRuntime::about`] takes seeds from
    /// 2^31 unextended.
    fn unsigned(&self, shuffle: usize) -> bool {
        !self.per_deal && shuffle == 1
    }
}

impl SeededRuntime for PcgSeeds {
    fn about(&self) -> &'static About {
        if self.per_deal {
            &SHUFFLE_ABOUT
        } else {
            &CREATE_ABOUT
        }
    }
    fn seeds(&self) -> Range<u64> {
        0..1 << 32
    }
    fn direction(&self, _shuffle: usize) -> Direction {
        Direction::DescendingReversed
    }
    fn generator(&self, shuffle: usize, seed: u64) -> Box<dyn Draws> {
        Box::new(if self.unsigned(shuffle) {
            Pcg32::unsigned(seed as u32)
        } else {
            Pcg32::new(seed as u32)
        })
    }
    fn seed(&self, seed: u64) -> Seed {
        let seed = signed(seed);
        Seed {
            value: seed,
            usage: if self.per_deal {
                format!("the deal's own seed, (Math.random() * 2**32) | 0 = {seed} in shuffle()")
            } else {
                format!("createShuffle({seed})")
            },
        }
    }
    fn filter(&self, shuffle: usize, draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
        if self.unsigned(shuffle) {
            // Below 2^31 the integer is the signed seed, searched as the first shuffle.
            let seeds = seeds.start.max(1 << 31)..seeds.end.max(1 << 31);
            filter_fast(draws, true, seeds, out);
        } else {
            filter_fast(draws, false, seeds, out);
        }
    }
}

/// `shuffle(deck)` dealing on: each deal a PCG32 from the next known seed, then from the
/// next `Math.random`, or (when that is unknown) from a stand-in that says nothing.
#[derive(Clone)]
struct PerDeal {
    /// The seeds of the first deals, in order.
    known: Vec<u32>,
    random: Option<MathRandom>,
    /// The seed dealt from once `known` runs out and `Math.random` is unknown: two
    /// candidates with different stand-ins deal different next deals, so that none is
    /// predicted.
    stand_in: u32,
    pcg: Pcg32,
    dealt: usize,
    /// Draws in the current deal still to come, and in a deal.
    left: usize,
    per_deal: usize,
}

impl PerDeal {
    fn new(known: Vec<u32>, random: Option<MathRandom>, stand_in: u32, cards: usize) -> Self {
        Self {
            known,
            random,
            stand_in,
            pcg: Pcg32::new(0),
            dealt: 0,
            left: 0,
            per_deal: cards.saturating_sub(1),
        }
    }
}

impl Draws for PerDeal {
    fn below(&mut self, bound: u32) -> u32 {
        if self.left == 0 {
            let seed = match (self.known.get(self.dealt), &mut self.random) {
                (Some(&seed), random) => {
                    // The seed was drawn from Math.random all the same.
                    if let Some(random) = random {
                        random.next_double();
                    }
                    seed
                }
                (None, Some(random)) => seed_of(random.next_double()),
                (None, None) => self.stand_in,
            };
            self.pcg = Pcg32::new(seed);
            self.dealt += 1;
            self.left = self.per_deal;
        }
        self.left -= 1;
        self.pcg.below(bound)
    }
    fn boxed(&self) -> Box<dyn Draws> {
        Box::new(self.clone())
    }
}

/// `(x * 2**32) | 0`, as its 32 bits.
fn seed_of(x: f64) -> u32 {
    (x * 4_294_967_296.0).floor() as u64 as u32
}

/// The `Math.random` states whose values, in order, make `seeds` (each `(x * 2**32) | 0`),
/// and whether every cache place was settled (false: more seeds are needed).
pub fn math_random_from_seeds(seeds: &[u32]) -> (Vec<V8State>, bool) {
    // floor(x · 2^31) is the seed's top 31 bits; the replay checks the 32nd.
    let draws: Vec<Draw> = seeds
        .iter()
        .map(|&seed| Draw {
            bound: 1 << 31,
            value: seed >> 1,
        })
        .collect();
    let found = v8::search(&draws, &draws);
    let mut states: Vec<V8State> = found
        .states
        .into_iter()
        .filter(|state| {
            let mut random = state.random();
            seeds.iter().all(|&seed| seed_of(random.next_double()) == seed)
        })
        .collect();
    // Seeds that fall inside one 64-value cache are dealt alike by the generator placed
    // anywhere in it (the same numbers, refilled at another step): of those placings
    // only one is a whole number of refills after V8's own seeding, which another
    // state is by a chance of 2^-64 (as Node's recovery reasons). Five seeds leave
    // thousands of states, six one per placing.
    if (2..=v8::CACHE).contains(&states.len()) {
        let seeded: Vec<V8State> = states
            .iter()
            .filter(|state| v8::v8_seed(state.state).is_some())
            .cloned()
            .collect();
        if seeded.len() == 1 {
            states = seeded;
        }
    }
    (states, found.unsettled_bits == 0)
}

/// fast-shuffle's two shuffles.
pub struct FastShuffle;

/// Deals' seeds that pin V8's state in a fresh Node (five leave thousands of states).
const SEEDS_FOR_V8: usize = 6;

impl FastShuffle {
    /// Each deal's own seed (`shuffle(deck)`), deal by deal while each has exactly one,
    /// until [`SEEDS_FOR_V8`] or more of them pin one `Math.random` state (the later
    /// deals are then checked by replay, not searched): the seeds, the states when they
    /// were pinned, and the search's accounts (the seeds searched summed over the deals).
    fn seeds_of_deals(
        &self,
        observed: &Observed,
        control: &Control<'_>,
    ) -> Result<(Vec<u32>, Option<V8State>, Search), String> {
        let mut seeds = Vec::new();
        let mut last = Search::default();
        let mut searched = 0;
        for deal in 0..observed.deals.len() {
            let alone = Observed {
                deals: vec![fresh(observed, deal)],
                carried: false,
            };
            let mut search = Seeded(PcgSeeds { per_deal: true }).search(&alone, control)?;
            if let Some(seeds) = search.seeds.as_mut() {
                searched += seeds.searched;
                seeds.searched = searched;
            }
            let one = search.complete && search.candidates.len() == 1 && search.unlisted == 0;
            if !one {
                return Ok((seeds, None, search));
            }
            let state = &search.candidates[0].state;
            seeds.push(u32::from_str_radix(state.trim_start_matches("0x"), 16).map_err(|e| e.to_string())?);
            last = search;
            if seeds.len() >= SEEDS_FOR_V8 {
                let (mut states, _) = math_random_from_seeds(&seeds);
                if states.len() == 1 {
                    return Ok((seeds, states.pop(), last));
                }
            }
        }
        Ok((seeds, None, last))
    }
}

/// Whether the deals after the first `searched` are dealt by `shuffle()` from the next
/// `Math.random` values of `state` (positioned before the first deal).
fn deals_the_rest(state: &V8State, observed: &Observed, searched: usize) -> bool {
    let mut random = state.random();
    for _ in 0..searched {
        random.next_double();
    }
    (searched..observed.deals.len()).all(|deal| {
        let mut pcg = Pcg32::new(seed_of(random.next_double()));
        let mut deck: Vec<u16> = (0..observed.n() as u16).collect();
        Direction::DescendingReversed.deal(&mut deck, |bound| pcg.below(bound));
        deck == fresh(observed, deal)
    })
}

/// Deal number `deal` as if dealt from the unshuffled deck (a carried deal relabelled by
/// its starting deck), for a search of it alone.
fn fresh(observed: &Observed, deal: usize) -> Vec<u16> {
    let start = observed.start_of(deal);
    let mut place = vec![0u16; start.len()];
    for (at, &card) in start.iter().enumerate() {
        place[usize::from(card)] = at as u16;
    }
    observed.deals[deal]
        .iter()
        .map(|&card| place[usize::from(card)])
        .collect()
}

impl Runtime for FastShuffle {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn work(&self, observed: &Observed) -> u64 {
        let deals = observed.deals.len().min(SEEDS_FOR_V8) as u64;
        (1 << 32) * if deals > 1 { 1 + deals } else { 1 }
    }

    fn seed_space(&self) -> Option<Range<u64>> {
        Some(0..1 << 32)
    }

    fn search(&self, observed: &Observed, control: &Control<'_>) -> Result<Search, String> {
        let mut search = Seeded(PcgSeeds { per_deal: false }).search(observed, control)?;
        for candidate in &mut search.candidates {
            if std::ptr::eq(candidate.shuffle, &SHUFFLES[2]) {
                // A positive seed of 32 bits, as the program gave it.
                let seed = u32::from_str_radix(candidate.state.trim_start_matches("0x"), 16).unwrap_or(0);
                candidate.seed = Some(Seed {
                    value: i64::from(seed),
                    usage: format!("createShuffle({seed})"),
                });
            }
        }
        let cards = observed.n();
        if observed.deals.len() == 1 {
            // One deal: its seed is that of createShuffle(seed) and of shuffle() alike,
            // and shuffle()'s next deal depends on a Math.random not seen.
            let own: Vec<Candidate> = search
                .candidates
                .iter()
                .filter(|candidate| std::ptr::eq(candidate.shuffle, &SHUFFLES[1]))
                .map(|candidate| {
                    let seed = candidate.seed.as_ref().map_or(0, |seed| seed.value);
                    Candidate {
                        shuffle: &SHUFFLES[0],
                        state: candidate.state.clone(),
                        seed: Some(PcgSeeds { per_deal: true }.seed(seed as u32 as u64)),
                        note: Some(format!(
                            "this deal's own seed {seed}; the next deals follow Math.random, which about 6 \
                             deals' seeds give"
                        )),
                        generators: (0..2)
                            .map(|stand_in| {
                                Generator::Seeded(Box::new(PerDeal::new(
                                    vec![seed as u32],
                                    None,
                                    stand_in,
                                    cards,
                                )))
                            })
                            .collect(),
                        direction: Direction::DescendingReversed,
                    }
                })
                .collect();
            search.candidates.extend(own);
            return Ok(search);
        }
        if !search.candidates.is_empty() || !search.complete {
            return Ok(search);
        }
        let (seeds, pinned, mut per_deal) = self.seeds_of_deals(observed, control)?;
        if let (Some(each), Some(one)) = (per_deal.seeds.as_mut(), search.seeds.as_ref()) {
            each.searched += one.searched;
        }
        let searched_deals = seeds.len();
        if pinned.is_none() && searched_deals < observed.deals.len() {
            // A deal without exactly one seed of its own: not shuffle()'s.
            return Ok(Search {
                complete: per_deal.complete,
                seeds: per_deal.seeds,
                ..search
            });
        }
        let shown: Vec<String> = seeds
            .iter()
            .map(|&seed| signed(u64::from(seed)).to_string())
            .collect();
        let states = match pinned {
            Some(state) => vec![state],
            None => {
                let (states, settled) = math_random_from_seeds(&seeds);
                // Fewer than six seeds leave thousands of states (or equations unsolved).
                if (states.is_empty() && !settled) || states.len() > v8::CACHE {
                    return Err(format!(
                        "each of these {} deals has its own seed ({}), as fast-shuffle's shuffle() deals, but so \
                         few seeds leave Math.random unknown: give more deals ({SEEDS_FOR_V8} or more)",
                        seeds.len(),
                        shown.join(", ")
                    ));
                }
                states
            }
        };
        let states: Vec<V8State> = states
            .into_iter()
            .filter(|state| deals_the_rest(state, observed, searched_deals))
            .collect();
        let candidates = states
            .iter()
            .map(|state| Candidate {
                shuffle: &SHUFFLES[0],
                state: format!("{:016x}{:016x}", state.state.0, state.state.1),
                seed: Some(PcgSeeds { per_deal: true }.seed(u64::from(seeds[0]))),
                note: Some(format!(
                    "the own seeds of the first {searched_deals} deals: {}; Math.random's state before the refill of the 64-value cache \
                     whose place {} held the first deal's seed",
                    shown.join(", "),
                    state.first
                )),
                generators: state
                    .conversions
                    .iter()
                    .map(|&conversion| {
                        let random = state.random_with(conversion);
                        Generator::Seeded(Box::new(PerDeal::new(Vec::new(), Some(random), 0, cards)))
                    })
                    .collect(),
                direction: Direction::DescendingReversed,
            })
            .collect();
        Ok(Search {
            deals_used: searched_deals,
            candidates,
            unlisted: 0,
            complete: true,
            caveat: None,
            seeds: per_deal.seeds,
        })
    }
}

#[cfg(test)]
mod tests;
