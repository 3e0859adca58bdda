//! A xorshift128+ state recovered from the sums it output, by meeting in the middle.
//!
//! Why: V8 since 2026, SpiderMonkey and JavaScriptCore make `Math.random` from the sum of
//! xorshift128+'s two words, not from one word. The words are linear over GF(2) in the
//! 128 starting bits, but a sum is not: its carries mix the bits. A deal still pins the
//! sum's top bits (the kept bits' top, for the engines that keep the low 53): a draw
//! `floor(x·k) = j` puts the sum in a range `low..=high`.
//!
//! How: take `t` top bits of each word (its window). If word `n`'s window is `X`, the
//! window of the sum `w_n + w_{n+1}` is `X + Y + c` with `c` the carry from below, so
//! the range leaves word `n + 1`'s window `Y` in a handful of consecutive values. A
//! *chain* of consecutive outputs, its first window guessed, so lists every way its
//! windows can be. Each window bit is a linear function of the 128 starting bits, so
//! two chains whose windows give more than 128 equations between them have dependencies:
//! combinations of window bits that are zero for every state. Each dependency splits
//! into a part over chain A's windows and a part over chain B's: their parities are a
//! key, equal on both sides for the true pair. Both chains are listed with their keys
//! (and the state their windows solve to, as an exclusive or of per-window parts),
//! sorted and joined; a pair with equal keys gives a state, checked at once against
//! every range. The work is the square root of guessing the windows of one long chain:
//! about 2^25 per side for one deal of 52 cards, where a SAT solver took minutes.
//!
//! [`plan`] picks the chains and `t` from the ranges at hand (the narrowest ranges, the
//! first draws of each deal, branch least), so more deals make the search smaller.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::simulate::Progress;

/// The progress a whole [`solve`] reports: its two lists, then its buckets' joins, each
/// half of it, so that a bar over several searches moves evenly.
pub const PROGRESS_PER_SOLVE: u64 = 2 * BUCKETS as u64;

/// One observed output: after `step` steps (1 for the first), the sum of the two words,
/// kept to its low `width` bits, lies in `low..=high`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SumRange {
    pub step: usize,
    pub low: u64,
    pub high: u64,
}

/// One step of xorshift128+: `(s0, s1)` to the next pair (the words swapped, the new
/// second word `s0 ^ s0 << 23 ^ (…) >> 17 ^ s1 ^ s1 >> 26`).
#[inline(always)]
pub fn step((s0, s1): (u64, u64)) -> (u64, u64) {
    let mut x = s0;
    x ^= x << 23;
    x ^= x >> 17;
    x ^= s1 ^ (s1 >> 26);
    (s1, x)
}

/// Every word `w_0, w_1, …, w_{count-1}` (the state after `n` steps is `(w_n, w_{n+1})`),
/// each of its 64 bits as the set of starting bits (`w_0` in 0–63, `w_1` in 64–127)
/// whose exclusive or it is.
pub(super) fn symbolic_words(count: usize) -> Vec<[u128; 64]> {
    let mut words: Vec<[u128; 64]> = Vec::with_capacity(count.max(2));
    words.push(std::array::from_fn(|bit| 1u128 << bit));
    words.push(std::array::from_fn(|bit| 1u128 << (64 + bit)));
    while words.len() < count {
        let (a, b) = (words[words.len() - 2], words[words.len() - 1]);
        let mut x = a;
        for bit in (23..64).rev() {
            x[bit] ^= x[bit - 23];
        }
        for bit in 0..64 - 17 {
            x[bit] ^= x[bit + 17];
        }
        for bit in 0..64 {
            x[bit] ^= b[bit];
        }
        for bit in 0..64 - 26 {
            x[bit] ^= b[bit + 26];
        }
        words.push(x);
    }
    words
}

/// A run of consecutive observed outputs: steps `start..start + len`, whose words are
/// `w_start ..= w_{start + len}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Chain {
    start: usize,
    len: usize,
}

impl Chain {
    fn words(self) -> std::ops::RangeInclusive<usize> {
        self.start..=self.start + self.len
    }
}

/// The chains and window width a search uses, and what it will cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// Window bits per word of each chain.
    bits_a: u32,
    bits_b: u32,
    a: Chain,
    b: Chain,
    /// log2 of the ways each chain's windows can be (the lists' lengths).
    pub log_a: f64,
    pub log_b: f64,
    /// log2 of the pairs expected to share a key by chance.
    pub log_false: f64,
}

impl Plan {
    /// log2 of the work: the longer list, or the chance pairs when they outnumber it.
    pub fn log_work(&self) -> f64 {
        // A leaf costs about five chance pairs (listed twice and written, against a
        // lookup and a step of the generator; measured on 2 cores).
        let total = self.log_a.exp2() + self.log_b.exp2() + self.log_false.exp2() / 5.0;
        total.log2()
    }
}

/// The most ways one chain may list (memory: 24 bytes each).
const MOST_LISTED_LOG2: f64 = 27.0;

/// The most pairs expected to share a key by chance (each is replayed, a few
/// nanoseconds): beyond, the lists are too wide for the equations that join them. Most
/// deals of 52 cards plan under 2^31 (seconds); about 1 in 100 branches so widely that
/// its best plan leaves 2^32 to 2^34 chance pairs (20 s to 2.5 min on 2 cores), which
/// is still an answer where "give one more deal" was none (a fresh page deals once).
const MOST_FALSE_LOG2: f64 = 34.0;

/// Longest chain considered.
const LONGEST_CHAIN: usize = 48;

/// The window values word `n + 1` can take for each of word `n`'s: the first of them is
/// `(first − X) mod 2^bits`, then `count` consecutive (mod 2^bits).
#[derive(Clone, Copy, Debug)]
struct Branch {
    first: u32,
    count: u32,
}

fn branch(range: SumRange, width: u32, bits: u32) -> Branch {
    let shift = width - bits;
    let (low, high) = (range.low >> shift, range.high >> shift);
    let count = ((high - low) as u32 + 2).min(1 << bits);
    // Y = S − X − c, c ∈ {0, 1}: from low − 1 − X up to high − X.
    Branch {
        first: (low as u32).wrapping_sub(1) & ((1 << bits) - 1),
        count,
    }
}

/// The cheapest plan for `ranges` (sorted by step, one per step), or `None` when no two
/// chains among them give enough equations within the lists' bound.
pub fn plan(ranges: &[SumRange], width: u32) -> Option<Plan> {
    // Every chain at every window width: its start, length and log2 size.
    let chains: Vec<(u32, Chain, f64)> = (3..=7u32)
        .flat_map(|bits| {
            let mut chains = Vec::new();
            for (at, first) in ranges.iter().enumerate() {
                let mut log = f64::from(bits);
                for len in 1..=LONGEST_CHAIN {
                    let Some(range) = ranges.get(at + len - 1) else {
                        break;
                    };
                    if range.step != first.step + len - 1 {
                        break;
                    }
                    log += f64::from(branch(*range, width, bits).count).log2();
                    if log > MOST_LISTED_LOG2 {
                        break;
                    }
                    chains.push((
                        bits,
                        Chain {
                            start: first.step,
                            len,
                        },
                        log,
                    ));
                }
            }
            chains
        })
        .collect();
    let mut best: Option<Plan> = None;
    for &(bits_a, a, log_a) in &chains {
        for &(bits_b, b, log_b) in &chains {
            // B after A, their words apart or (at one width) sharing one.
            let shared = b.start == a.start + a.len;
            if b.start < a.start + a.len || (shared && bits_a != bits_b) {
                continue;
            }
            let rows = bits_a * (a.len as u32 + 1) + bits_b * (b.len as u32 + 1);
            let distinct = rows - if shared { bits_a } else { 0 };
            if distinct < 128 {
                continue;
            }
            let dependencies = f64::from(rows - 128).min(64.0);
            let candidate = Plan {
                bits_a,
                bits_b,
                a,
                b,
                log_a,
                log_b,
                log_false: log_a + log_b - dependencies,
            };
            if candidate.log_false <= MOST_FALSE_LOG2
                && best.is_none_or(|best| candidate.log_work() < best.log_work())
            {
                best = Some(candidate);
            }
        }
    }
    best
}

/// One way a chain's windows can be: the key its window bits give the dependencies, and
/// the state they solve to (their part of it).
#[derive(Clone, Copy, Debug, Default)]
struct Leaf {
    key: u64,
    state: (u64, u64),
}

/// What each window value of each word of a chain adds to a leaf.
struct Tables {
    /// Per word of the chain, per window value: (key, state) parts.
    words: Vec<Vec<(u64, u128)>>,
    branches: Vec<Branch>,
    bits: u32,
}

/// The dependencies and the solution of the windows' equations: per row (a window bit of
/// a word of A, then of B), its column of the key and its part of the state.
struct Algebra {
    key_columns: Vec<u64>,
    state_parts: Vec<u128>,
}

/// Gaussian elimination of `rows` (each with its index as a label): dependencies become
/// key bits, and each starting bit is expressed through the rows that solve to it.
/// `None` when the rows leave some starting bit free.
fn algebra(rows: &[u128]) -> Option<Algebra> {
    let count = rows.len();
    let label_words = count.div_ceil(64);
    let mut work: Vec<(u128, Vec<u64>)> = rows
        .iter()
        .enumerate()
        .map(|(at, &row)| {
            let mut label = vec![0u64; label_words];
            label[at / 64] |= 1 << (at % 64);
            (row, label)
        })
        .collect();
    // Row `bit` becomes the pivot of starting bit `bit`, the only row holding it.
    for bit in 0..128 {
        let found = (bit..count).find(|&at| work[at].0 >> bit & 1 == 1)?;
        work.swap(bit, found);
        let (pivot, pivot_label) = work[bit].clone();
        for (at, (row, label)) in work.iter_mut().enumerate() {
            if at != bit && *row >> bit & 1 == 1 {
                *row ^= pivot;
                for (word, add) in label.iter_mut().zip(&pivot_label) {
                    *word ^= add;
                }
            }
        }
    }
    let mut key_columns = vec![0u64; count];
    for (dependency, (_, label)) in work[128..].iter().take(64).enumerate() {
        for (row, column) in key_columns.iter_mut().enumerate() {
            if label[row / 64] >> (row % 64) & 1 == 1 {
                *column |= 1 << dependency;
            }
        }
    }
    let mut state_parts = vec![0u128; count];
    for (bit, (_, label)) in work[..128].iter().enumerate() {
        for (row, part) in state_parts.iter_mut().enumerate() {
            if label[row / 64] >> (row % 64) & 1 == 1 {
                *part |= 1u128 << bit;
            }
        }
    }
    Some(Algebra {
        key_columns,
        state_parts,
    })
}

/// Every state (`(w_0, w_1)`) whose sums, kept to `width` bits, lie in every range, by
/// `plan`; `None` when the search was stopped. Reports [`PROGRESS_PER_SOLVE`] to
/// `progress` by the end.
pub fn solve(
    ranges: &[SumRange],
    width: u32,
    plan: &Plan,
    stop: &AtomicBool,
    progress: &dyn Progress,
) -> Option<Vec<(u64, u64)>> {
    let last_word = plan.b.start + plan.b.len + 1;
    let words = symbolic_words(last_word + 1);
    let words = &words;
    let window_rows = |bits: u32| {
        move |word: usize| -> Vec<u128> {
            (0..bits)
                .map(|bit| words[word][(width - bits + bit) as usize])
                .collect()
        }
    };
    let rows: Vec<u128> = (plan.a.words().flat_map(window_rows(plan.bits_a)))
        .chain(plan.b.words().flat_map(window_rows(plan.bits_b)))
        .collect();
    let algebra = algebra(&rows)?;
    let range_at = |step: usize| -> SumRange {
        *ranges
            .iter()
            .find(|range| range.step == step)
            .expect("a chain's steps are observed")
    };
    let tables = |chain: Chain, bits: u32, first_row: usize| -> Tables {
        let words = (0..=chain.len)
            .map(|word| {
                let rows = first_row + word * bits as usize;
                (0..1u32 << bits)
                    .map(|value| {
                        (0..bits as usize).filter(|bit| value >> bit & 1 == 1).fold(
                            (0u64, 0u128),
                            |(key, state), bit| {
                                (
                                    key ^ algebra.key_columns[rows + bit],
                                    state ^ algebra.state_parts[rows + bit],
                                )
                            },
                        )
                    })
                    .collect()
            })
            .collect();
        let branches = (0..chain.len)
            .map(|output| branch(range_at(chain.start + output), width, bits))
            .collect();
        Tables {
            words,
            branches,
            bits,
        }
    };
    let a_rows = (plan.a.len + 1) * plan.bits_a as usize;
    let (a, b) = rayon::join(
        || list(&tables(plan.a, plan.bits_a, 0), stop, progress),
        || list(&tables(plan.b, plan.bits_b, a_rows), stop, progress),
    );
    // A list cut short by `stop` is `None`; one finished before it is whole.
    let (a, b) = (a?, b?);
    let mask = if width == 64 { u64::MAX } else { (1 << width) - 1 };
    let matches = |state: (u64, u64)| -> bool {
        let mut words = state;
        let mut at = 0;
        for range in ranges {
            while at < range.step {
                words = step(words);
                at += 1;
            }
            let sum = words.0.wrapping_add(words.1) & mask;
            if sum < range.low || sum > range.high {
                return false;
            }
        }
        true
    };
    let joined: Option<Vec<Vec<(u64, u64)>>> = (0..BUCKETS)
        .into_par_iter()
        .map_init(Join::default, |join, bucket| {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            progress.advance(1);
            Some(join.pairs(
                &a,
                &b,
                bucket,
                |state| {
                    if matches(state) { Some(state) } else { None }
                },
            ))
        })
        .collect();
    let mut found: Vec<(u64, u64)> = joined?.into_iter().flatten().collect();
    found.sort_unstable();
    found.dedup();
    Some(found)
}

/// One bucket's join: A's leaves in a small open-addressing table by key (kept between
/// buckets, so that a thread allocates once), B's looked up in it.
#[derive(Default)]
struct Join {
    left: Vec<Leaf>,
    /// Index + 1 of a leaf of `left`, 0 for an empty slot.
    slots: Vec<u32>,
}

impl Join {
    /// The states of every pair of the bucket with equal keys that `keep` keeps.
    fn pairs(
        &mut self,
        a: &Bucketed,
        b: &Bucketed,
        bucket: usize,
        keep: impl Fn((u64, u64)) -> Option<(u64, u64)>,
    ) -> Vec<(u64, u64)> {
        self.left.clear();
        for (leaves, starts) in &a.parts {
            self.left
                .extend_from_slice(&leaves[starts[bucket]..starts[bucket + 1]]);
        }
        let size = (self.left.len() * 2).next_power_of_two().max(16);
        let mask = size - 1;
        self.slots.clear();
        self.slots.resize(size, 0);
        let slot_of =
            |key: u64| ((key >> BUCKET_BITS).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask;
        for (at, leaf) in self.left.iter().enumerate() {
            let mut slot = slot_of(leaf.key);
            while self.slots[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            self.slots[slot] = at as u32 + 1;
        }
        let mut out = Vec::new();
        for (leaves, starts) in &b.parts {
            for other in &leaves[starts[bucket]..starts[bucket + 1]] {
                let mut slot = slot_of(other.key);
                while self.slots[slot] != 0 {
                    let one = &self.left[self.slots[slot] as usize - 1];
                    if one.key == other.key {
                        let state = (one.state.0 ^ other.state.0, one.state.1 ^ other.state.1);
                        out.extend(keep(state));
                    }
                    slot = (slot + 1) & mask;
                }
            }
        }
        out
    }
}

/// Buckets the lists are split into by their keys' low bits, each joined on its own
/// (small enough for its table to stay in cache).
const BUCKET_BITS: u32 = 12;
const BUCKETS: usize = 1 << BUCKET_BITS;

/// A chain's list in parts (one per group of first windows, listed in parallel), each
/// part's leaves grouped by bucket.
struct Bucketed {
    parts: Vec<(Vec<Leaf>, Vec<usize>)>,
}

fn bucket_of(leaf: &Leaf) -> usize {
    (leaf.key as usize) & (BUCKETS - 1)
}

/// Parts a list is made in: enough for every thread to have work.
const PARTS: usize = 8;

/// Every way a chain's windows can be, as leaves grouped by bucket. Each part walks its
/// first windows twice: once counting the leaves of each bucket, once writing each leaf
/// in its place (every leaf is stored once, already grouped). Reports half of
/// [`BUCKETS`] to `progress` as the leaves are written. `None` when `stop` cut it short.
fn list(tables: &Tables, stop: &AtomicBool, progress: &dyn Progress) -> Option<Bucketed> {
    let firsts = 1usize << tables.bits;
    let share = |first: usize| (first * BUCKETS / 2 / firsts) as u64;
    let parts = (0..PARTS.min(firsts))
        .into_par_iter()
        .map(|part| {
            let range = firsts * part / PARTS.min(firsts)..firsts * (part + 1) / PARTS.min(firsts);
            let mut starts = vec![0usize; BUCKETS + 1];
            for first in range.clone() {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                walk_from(tables, first, &mut |leaf| starts[bucket_of(&leaf) + 1] += 1);
            }
            for bucket in 0..BUCKETS {
                starts[bucket + 1] += starts[bucket];
            }
            let mut next = starts.clone();
            let mut leaves = vec![Leaf::default(); starts[BUCKETS]];
            for first in range {
                walk_from(tables, first, &mut |leaf| {
                    let at = &mut next[bucket_of(&leaf)];
                    leaves[*at] = leaf;
                    *at += 1;
                });
                progress.advance(share(first + 1) - share(first));
            }
            Some((leaves, starts))
        })
        .collect::<Option<_>>()?;
    Some(Bucketed { parts })
}

/// Every leaf under the first window `first`.
fn walk_from(tables: &Tables, first: usize, visit: &mut impl FnMut(Leaf)) {
    let (key, state) = tables.words[0][first];
    walk(tables, 0, first as u32, key, state, visit);
}

fn walk(tables: &Tables, output: usize, window: u32, key: u64, state: u128, visit: &mut impl FnMut(Leaf)) {
    let Some(branch) = tables.branches.get(output) else {
        visit(Leaf {
            key,
            state: (state as u64, (state >> 64) as u64),
        });
        return;
    };
    let mask = (1u32 << tables.bits) - 1;
    let next_words = &tables.words[output + 1];
    let first = branch.first.wrapping_sub(window);
    let last = output + 1 == tables.branches.len();
    for offset in 0..branch.count {
        let next = first.wrapping_add(offset) & mask;
        let (next_key, next_state) = next_words[next as usize];
        let (key, state) = (key ^ next_key, state ^ next_state);
        if last {
            // The leaves themselves, without a call each.
            visit(Leaf {
                key,
                state: (state as u64, (state >> 64) as u64),
            });
        } else {
            walk(tables, output + 1, next, key, state, visit);
        }
    }
}

#[cfg(test)]
mod tests;
