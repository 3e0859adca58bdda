//! `java.util.Random` under `Collections.shuffle`, recovered from the deals alone.
//!
//! The model (unchanged from JDK 1.2 to 21, and checked against OpenJDK's own output):
//! a 48-bit linear congruential generator `s ← s·0x5DEECE66D + 0xB mod 2^48`, whose
//! `next(31)` is the top 31 bits `s >> 17`; `nextInt(bound)` takes the top bits
//! (`bound·r >> 31`) when `bound` is a power of two, and `r % bound` otherwise, drawing
//! again while `r - r % bound + bound - 1` overflows an `int`; `Collections.shuffle`
//! runs `for (int i = size; i > 1; i--) swap(list, i - 1, rnd.nextInt(i))`.
//!
//! Why a 52-card deal gives the state away in a fraction of a second, without trying
//! 2^48 states: the low bits of an LCG modulo 2^48 depend only on the low bits before
//! them, and a draw below an even bound `b = 2^e·o` tells `r mod 2^e`, that is bits
//! 17 to 17+e−1 of the state that drew it. So the search first tries the 2^(17+T) low
//! parts of the starting state against every such bit (about 40 of them in a deal of
//! 52: one part in 2^21 survives by chance), then, for each low part that survives, the
//! high 31 bits of one chosen draw's state, stepping through the values that draw allows
//! (`r ≡ value mod b`, its low bits known: about 10 million for a bound of 52). Each
//! candidate dies at the next draw unless it is the state; the survivor is replayed
//! through the real `nextInt` against every deal. A draw that was redrawn (the rejection
//! loop, about once in three million deals of 52) shifts the later draws by one number:
//! when no state is found, the search tries each place where one could have happened.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::draws::{Direction, Draw, Observed, bits_per_deal};
use super::{About, Candidate, Control, Generator, Runtime, Search, Seed, ShuffleCode};

/// The multiplier of the generator.
pub const MULTIPLIER: u64 = 0x5_DEEC_E66D;
/// The increment of the generator.
pub const ADDEND: u64 = 0xB;
/// The state is 48 bits.
pub const MASK: u64 = (1 << 48) - 1;

/// Bits of the state below the 31 that `next(31)` returns.
const HIDDEN: u32 = 17;

/// `java.util.Random`, step for step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JavaRandom {
    state: u64,
}

impl JavaRandom {
    /// A generator whose state (the 48 bits, already scrambled) is `state`.
    pub fn with_state(state: u64) -> Self {
        Self { state: state & MASK }
    }

    /// `new Random(seed)`.
    pub fn new(seed: i64) -> Self {
        Self::with_state(seed as u64 ^ MULTIPLIER)
    }

    /// The 48-bit state.
    pub fn state(&self) -> u64 {
        self.state
    }

    /// `next(31)`: the top 31 bits of the next state.
    fn next31(&mut self) -> u32 {
        self.state = Jump::ONE.apply(self.state);
        (self.state >> HIDDEN) as u32
    }

    /// `nextInt(bound)`, with its power-of-two branch and its rejection loop.
    pub fn next_int(&mut self, bound: u32) -> u32 {
        debug_assert!(bound > 0 && bound <= i32::MAX as u32);
        let r = self.next31();
        if bound.is_power_of_two() {
            return ((u64::from(bound) * u64::from(r)) >> 31) as u32;
        }
        let mut u = r;
        loop {
            let value = u % bound;
            // `u - value + (bound - 1) < 0` in Java's 32-bit arithmetic: overflow.
            if u64::from(u - value) + u64::from(bound - 1) <= i32::MAX as u64 {
                return value;
            }
            u = self.next31();
        }
    }
}

/// The seed `new Random(seed)` needs to start in `state`: every state has one (the seed's
/// low 48 bits; any higher bits are ignored).
pub fn seed_for(state: u64) -> u64 {
    (state ^ MULTIPLIER) & MASK
}

/// `k` steps of the generator as one affine map `s ← a·s + c mod 2^48`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Jump {
    multiplier: u64,
    addend: u64,
}

impl Jump {
    const ONE: Jump = Jump {
        multiplier: MULTIPLIER,
        addend: ADDEND,
    };
    const NONE: Jump = Jump {
        multiplier: 1,
        addend: 0,
    };

    fn apply(self, state: u64) -> u64 {
        state.wrapping_mul(self.multiplier).wrapping_add(self.addend) & MASK
    }

    /// This jump, then `then`.
    fn then(self, then: Jump) -> Jump {
        Jump {
            multiplier: self.multiplier.wrapping_mul(then.multiplier) & MASK,
            addend: self
                .addend
                .wrapping_mul(then.multiplier)
                .wrapping_add(then.addend)
                & MASK,
        }
    }

    fn steps(count: u64) -> Jump {
        let (mut result, mut power, mut count) = (Jump::NONE, Jump::ONE, count);
        while count > 0 {
            if count & 1 == 1 {
                result = result.then(power);
            }
            power = power.then(power);
            count >>= 1;
        }
        result
    }

    /// The jump back: `apply` of the inverse undoes `apply` of this one.
    fn inverse(self) -> Jump {
        // The multiplier is odd: its inverse modulo 2^48 by Newton's iteration.
        let mut inverse: u64 = 1;
        for _ in 0..6 {
            inverse = inverse.wrapping_mul(2u64.wrapping_sub(self.multiplier.wrapping_mul(inverse)));
        }
        let inverse = inverse & MASK;
        Jump {
            multiplier: inverse,
            addend: inverse.wrapping_mul(self.addend.wrapping_neg()) & MASK,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Found {
    /// Every starting state (before the first draw) that deals the draws, ascending.
    pub states: Vec<u64>,
    /// The search stopped early (its budget ran out): `states` may miss some.
    pub stopped: bool,
    /// No state dealt the draws, and the searches for a number redrawn by the rejection
    /// loop were left out for their cost: the chance that one was redrawn.
    pub rejection_unsearched: Option<f64>,
}

/// How one draw constrains the state that made it: the number of the generator step it
/// used (1 for the first number after the starting state), its low bits, and the range
/// of values it allows.
#[derive(Clone, Copy, Debug)]
struct Constraint {
    draw: Draw,
    step: u64,
}

/// What a search costs: candidate states stepped in its second phase.
pub fn estimated_work(draws: &[Draw]) -> f64 {
    Plan::new(draws, &identity_steps(draws.len())).work()
}

fn identity_steps(count: usize) -> Vec<u64> {
    (1..=count as u64).collect()
}

/// The low bits the first phase searches above the hidden 17, and the draw the second
/// phase steps through.
struct Plan {
    constraints: Vec<Constraint>,
    /// Low bits of `r` searched in the first phase (0 to 6).
    extra: u32,
    /// The draw whose state the second phase enumerates.
    pivot: usize,
}

impl Plan {
    /// Candidate states its second phase steps through, expected.
    fn work(&self) -> f64 {
        self.survivors() * self.high_candidates() as f64
    }

    fn new(draws: &[Draw], steps: &[u64]) -> Self {
        let constraints: Vec<Constraint> = draws
            .iter()
            .zip(steps)
            .map(|(&draw, &step)| Constraint { draw, step })
            .collect();
        let extra = draws
            .iter()
            .filter(|draw| !draw.bound.is_power_of_two())
            .map(|draw| draw.bound.trailing_zeros())
            .max()
            .unwrap_or(0)
            .min(6);
        let pivot = (0..draws.len())
            .min_by_key(|&at| high_count(draws[at], extra))
            .unwrap_or(0);
        Self {
            constraints,
            extra,
            pivot,
        }
    }

    /// Low parts expected to survive the first phase: the right one, and those that
    /// pass every bit by chance.
    fn survivors(&self) -> f64 {
        let known: u32 = self
            .constraints
            .iter()
            .filter(|constraint| !constraint.draw.bound.is_power_of_two())
            .map(|constraint| constraint.draw.bound.trailing_zeros().min(self.extra))
            .sum();
        1.0 + 2f64.powi(HIDDEN as i32 + self.extra as i32 - known as i32)
    }

    fn high_candidates(&self) -> u64 {
        self.constraints
            .get(self.pivot)
            .map_or(0, |constraint| high_count(constraint.draw, self.extra))
    }

    /// Phase one: the low `17 + extra` bits of the starting state that every draw's
    /// low bits allow.
    fn low_parts(&self) -> Vec<u64> {
        let bits = HIDDEN + self.extra;
        let mask = (1u64 << bits) - 1;
        // Each checked draw: the jump from the previous checked one, and the bits of r it
        // tells (mask, value).
        let mut checks = Vec::new();
        let mut at = 0;
        for constraint in &self.constraints {
            let bound = constraint.draw.bound;
            if bound.is_power_of_two() || bound.trailing_zeros() == 0 {
                continue;
            }
            let known = (1u64 << bound.trailing_zeros().min(self.extra)) - 1;
            checks.push((
                Jump::steps(constraint.step - at),
                known,
                u64::from(constraint.draw.value) & known,
            ));
            at = constraint.step;
        }
        (0..mask as usize + 1)
            .into_par_iter()
            .with_min_len(1 << 12)
            .map(|low| low as u64)
            .filter(|&low| {
                let mut state = low;
                checks.iter().all(|&(jump, known, value)| {
                    state = jump.apply(state) & mask;
                    (state >> HIDDEN) & known == value
                })
            })
            .collect()
    }
}

/// How many values of `r` (31 bits) a draw allows once the low `extra` bits of `r` are
/// known.
fn high_count(draw: Draw, extra: u32) -> u64 {
    let (start, stride) = stride_of(draw, extra);
    let end = range_end(draw);
    if start >= end {
        0
    } else {
        (end - start).div_ceil(stride)
    }
}

/// The values of `r` a draw allows, as the first one before adding the low bits and the
/// stride between them: `r ≡ value (mod bound)` for a bound that is not a power of two;
/// the block of `r` whose top bits are `value` for one that is.
fn stride_of(draw: Draw, extra: u32) -> (u64, u64) {
    let bound = u64::from(draw.bound);
    if draw.bound.is_power_of_two() {
        let shift = 31 - draw.bound.trailing_zeros();
        (u64::from(draw.value) << shift, 1u64 << extra.min(shift))
    } else {
        let odd = bound >> bound.trailing_zeros();
        (u64::from(draw.value), odd << extra.max(bound.trailing_zeros()))
    }
}

fn range_end(draw: Draw) -> u64 {
    if draw.bound.is_power_of_two() {
        let shift = 31 - draw.bound.trailing_zeros();
        (u64::from(draw.value) + 1) << shift
    } else {
        1 << 31
    }
}

/// Every starting state whose `nextInt` calls, from the first, give `draws` exactly
/// (the verification replays them, so a rejected number is allowed anywhere), and which
/// also deals `check` (the draws of every deal given, of which `draws` are the first).
/// Stops early when `stop` is set (`Found::stopped`).
///
/// When no state deals the draws, one more search per draw allows a number redrawn by
/// `nextInt`'s rejection loop there, when those searches cost at most
/// [`MOST_REJECTION_WORK`]. A rejection is likeliest on large bounds (the 52-card deck,
/// where the searches are cheap) and all but impossible on small decks (where they may
/// not be), and `Found::rejection_unsearched` says when it was left out.
pub fn search(draws: &[Draw], check: &[Draw], stop: &AtomicBool, advance: &(dyn Fn(u64) + Sync)) -> Found {
    let mut found = search_with_steps(draws, check, &identity_steps(draws.len()), stop, advance);
    if found.states.is_empty() && !found.stopped {
        // The draws where the rejection loop can redraw: a bound that is not a power of
        // two (the power-of-two branch never rejects).
        let redrawable: Vec<usize> = (0..draws.len())
            .filter(|&at| !draws[at].bound.is_power_of_two())
            .collect();
        let shifted = |at: usize| -> Vec<u64> {
            (0..draws.len() as u64)
                .map(|draw| draw + 1 + u64::from(draw >= at as u64))
                .collect()
        };
        let cost: f64 = redrawable
            .iter()
            .map(|&at| Plan::new(draws, &shifted(at)).work())
            .sum();
        if cost > MOST_REJECTION_WORK {
            found.rejection_unsearched = Some(rejection_chance(draws));
            return found;
        }
        // A number redrawn by the rejection loop at draw `at`: the draws after it use one
        // number more.
        for at in redrawable {
            if stop.load(Ordering::Relaxed) {
                found.stopped = true;
                break;
            }
            let more = search_with_steps(draws, check, &shifted(at), stop, advance);
            found.stopped |= more.stopped;
            found.states.extend(more.states);
            if found.stopped {
                break;
            }
        }
        found.states.sort_unstable();
        found.states.dedup();
    }
    found
}

/// Draws searched at most: a deal of hundreds of cards tells far more than 48 bits in
/// its first draws (64 draws of a 200-card deck, about 480 bits), and the search, with
/// its one more search per draw for a redrawn number, would otherwise grow with the deck
/// (30 s for one deal of 2,000 cards). The draws after them are checked by replaying
/// `nextInt` itself, redraws included.
const MOST_SEARCHED_DRAWS: usize = 64;

/// The most work the searches for a redrawn number may add (about a second on two
/// cores): they are 51 more searches of a 52-card deal, which cost 2.6 M each.
const MOST_REJECTION_WORK: f64 = (1u64 << 29) as f64;

/// The chance that `nextInt` redrew a number somewhere in `draws`: a 31-bit number is
/// redrawn when it falls in the last, partial run of `bound` values, `2^31 mod bound` of
/// the `2^31`.
pub fn rejection_chance(draws: &[Draw]) -> f64 {
    let keep: f64 = draws
        .iter()
        .filter(|draw| !draw.bound.is_power_of_two())
        .map(|draw| 1.0 - ((1u64 << 31) % u64::from(draw.bound)) as f64 / (1u64 << 31) as f64)
        .product();
    1.0 - keep
}

/// Candidates of the second phase stepped between two looks at the stop flag.
const BLOCK: u64 = 1 << 20;

fn search_with_steps(
    draws: &[Draw],
    check: &[Draw],
    steps: &[u64],
    stop: &AtomicBool,
    advance: &(dyn Fn(u64) + Sync),
) -> Found {
    let mut found = Found::default();
    if draws.is_empty() {
        return found;
    }
    let plan = Plan::new(draws, steps);
    let pivot = plan.constraints[plan.pivot];
    // The neighbour the candidates are first tested against (the next draw, or the one
    // before when the pivot is last).
    let neighbour = if plan.pivot + 1 < draws.len() {
        plan.constraints[plan.pivot + 1]
    } else if plan.pivot > 0 {
        plan.constraints[plan.pivot - 1]
    } else {
        pivot
    };
    let to_neighbour = if neighbour.step >= pivot.step {
        Jump::steps(neighbour.step - pivot.step)
    } else {
        Jump::steps(pivot.step - neighbour.step).inverse()
    };
    let back_to_start = Jump::steps(pivot.step).inverse();
    let low_bits = HIDDEN + plan.extra;
    let (start, stride) = stride_of(pivot.draw, plan.extra);
    let end = range_end(pivot.draw);
    for low in plan.low_parts() {
        // The pivot's state, as far as the low part knows it: its hidden bits, and the
        // low `extra` bits of its r.
        let pivot_low = Jump::steps(pivot.step).apply(low) & ((1 << low_bits) - 1);
        let hidden = pivot_low & ((1 << HIDDEN) - 1);
        let r_low = pivot_low >> HIDDEN;
        let Some(first) = first_allowed(start, r_low, plan.extra, pivot.draw) else {
            continue;
        };
        if first >= end {
            continue;
        }
        let count = (end - first).div_ceil(stride);
        let blocks = count.div_ceil(BLOCK);
        let states: Vec<u64> = (0..blocks)
            .into_par_iter()
            .flat_map_iter(|block| {
                let mut states = Vec::new();
                if stop.load(Ordering::Relaxed) {
                    return states;
                }
                let from = first + block * BLOCK * stride;
                let to = (from + BLOCK * stride).min(end);
                let mut r = from;
                while r < to {
                    let state = (r << HIDDEN) | hidden;
                    let next = to_neighbour.apply(state);
                    if allows(neighbour.draw, (next >> HIDDEN) as u32) {
                        let start = back_to_start.apply(state);
                        if deals(start, draws) && deals(start, check) {
                            states.push(start);
                        }
                    }
                    r += stride;
                }
                advance((to - from).div_ceil(stride));
                states
            })
            .collect();
        found.states.extend(states);
        if stop.load(Ordering::Relaxed) {
            found.stopped = true;
            break;
        }
    }
    found.states.sort_unstable();
    found.states.dedup();
    found
}

/// The first `r` the pivot draw allows (the progression from `start`) whose low `extra`
/// bits are `r_low`, or `None` when there is none.
fn first_allowed(start: u64, r_low: u64, extra: u32, draw: Draw) -> Option<u64> {
    let mask = (1u64 << extra) - 1;
    let zeros = draw.bound.trailing_zeros();
    if draw.bound.is_power_of_two() {
        // A block of consecutive values whose top bits are the value: its low bits below
        // the block size are free, those above are the value's.
        let shift = 31 - zeros;
        let r = start | (r_low & ((1u64 << extra.min(shift)) - 1));
        return (r & mask == r_low).then_some(r);
    }
    // r ≡ value (mod bound) and r ≡ r_low (mod 2^extra): one of the first 2^(extra − e)
    // values of the progression, when the two agree modulo 2^e.
    let tries = 1u64 << extra.saturating_sub(zeros);
    (0..tries)
        .map(|i| start + i * u64::from(draw.bound))
        .find(|&r| r & mask == r_low)
}

/// Whether `nextInt(draw.bound)` could return `draw.value` from the number `r` without a
/// redraw.
fn allows(draw: Draw, r: u32) -> bool {
    if draw.bound.is_power_of_two() {
        ((u64::from(draw.bound) * u64::from(r)) >> 31) as u32 == draw.value
    } else {
        r % draw.bound == draw.value
    }
}

/// Whether a generator starting in `state` draws `draws` with `nextInt`.
pub fn deals(state: u64, draws: &[Draw]) -> bool {
    let mut random = JavaRandom::with_state(state);
    draws.iter().all(|draw| random.next_int(draw.bound) == draw.value)
}

#[cfg(test)]
mod tests;

/// `java.util.Random` under `Collections.shuffle`.
pub struct Java;

static ABOUT: About = About {
    name: "java",
    aliases: &[],
    summary: "Collections.shuffle over java.util.Random",
    generator: "java.util.Random",
    state_bits: 48,
    shuffles: &[ShuffleCode {
        name: "Collections.shuffle",
        code: "Collections.shuffle(list, rnd) and Collections.shuffle(list): \
               for (int i = size; i > 1; i--) swap(list, i - 1, rnd.nextInt(i));",
    }],
    versions: "JDK 1.2 to 21 (the generator, nextInt(bound) and the shuffle loop are unchanged); \
               checked against OpenJDK 17",
    instead: "java.security.SecureRandom: Collections.shuffle(list, new SecureRandom())",
    min_cards: 6,
};

/// Bits the deals must show beyond the state's 48, so that a second state dealing them
/// all by chance is a one-in-65,536 event (and then the answer says "2 states").
const MARGIN_BITS: f64 = 16.0;

/// The most candidates a search should step through before it is worth asking for more
/// deals: a few seconds on two cores.
const MOST_WORK: f64 = (1u64 << 31) as f64;

/// The draws of `deals` deals of `n` cards with every value 0: what a search's cost
/// depends on is the bounds.
fn bounds_of(n: usize, deals: usize) -> Vec<Draw> {
    let mut draws = Vec::new();
    for _ in 0..deals {
        for bound in (2..=n as u32).rev() {
            draws.push(Draw { bound, value: 0 });
        }
    }
    draws
}

/// Whether `deals` deals of `n` cards pin the state and keep the search short.
fn enough(n: usize, deals: usize) -> bool {
    deals as f64 * bits_per_deal(n) >= 48.0 + MARGIN_BITS && estimated_work(&bounds_of(n, deals)) <= MOST_WORK
}

impl Java {
    /// The first deals to search with: the fewest that pin the state within
    /// [`MOST_WORK`], and then more of those given while each more divides the work (a
    /// deal of 10 cards shows 22 bits; 11 deals search 16 times fewer states than 7).
    fn deals_to_use(observed: &Observed) -> std::result::Result<usize, String> {
        let n = observed.n();
        let given = observed.deals.len();
        if let Some(fewest) = (1..=given).find(|&deals| enough(n, deals)) {
            let work = |deals: usize| estimated_work(&bounds_of(n, deals));
            let mut deals = fewest;
            while deals < given && work(deals + 1) < 0.75 * work(deals) {
                deals += 1;
            }
            return Ok(deals);
        }
        let needed = (given + 1..=4096).find(|&deals| enough(n, deals));
        Err(format!(
            "{given} deal{} of {n} cards {} too few to pin java.util.Random's 48-bit state{}",
            if given == 1 { "" } else { "s" },
            if given == 1 { "is" } else { "are" },
            needed.map_or(String::new(), |needed| format!(
                ": its search needs {needed} deals of {n} cards"
            ))
        ))
    }
}

impl Runtime for Java {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn work(&self, observed: &Observed) -> u64 {
        Java::deals_to_use(observed).map_or(0, |deals| {
            estimated_work(&observed.draws(Direction::Descending, deals)) as u64
        })
    }

    fn search(&self, observed: &Observed, control: &Control<'_>) -> std::result::Result<Search, String> {
        let deals_used = Java::deals_to_use(observed)?;
        let mut draws = observed.draws(Direction::Descending, deals_used);
        if deals_used == 1 {
            // A deck of more than 65 cards: its first draws are enough (smaller decks
            // use whole deals, as many as `deals_to_use` found cheapest).
            draws.truncate(MOST_SEARCHED_DRAWS);
        }
        let all = observed.draws(Direction::Descending, observed.deals.len());
        let found = search(&draws, &all, control.stop, &|work| control.progress.advance(work));
        Ok(Search {
            deals_used,
            complete: !found.stopped,
            caveat: found.rejection_unsearched.map(|chance| {
                format!(
                    "unless nextInt redrew a number in the deals searched (its rejection loop, a chance of 1 in {}), \
                     which is not searched at this deck size",
                    crate::format::group_thousands((1.0 / chance).round() as u64)
                )
            }),
            candidates: found
                .states
                .into_iter()
                .map(|state| Candidate {
                    shuffle: &ABOUT.shuffles[0],
                    state: format!("{state:012x}"),
                    seed: Some(Seed {
                        value: seed_for(state) as i64,
                        usage: format!("new Random({}L)", seed_for(state)),
                    }),
                    note: None,
                    generators: vec![Generator::Java(JavaRandom::with_state(state))],
                    direction: Direction::Descending,
                })
                .collect(),
            ..Search::default()
        })
    }
}
