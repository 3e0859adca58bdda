//! Several bounded draws from one 64-bit word, exactly uniform.
//!
//! Why: a 3-card Fisher–Yates makes two draws, from `0..3` and `0..2`, and each costs a
//! step of the generator and a multiply. Brackett-Rozinsky and Lemire ("Batched ranged
//! random integer generation", Software: Practice and Experience, 2024) draw all of them
//! from one word: multiply the word `x` by the first bound, keep the high half as the
//! first answer and go on with the low half, bound after bound. The answers are then the
//! mixed-radix digits of `⌊x·P / 2^64⌋`, `P` being the product of the bounds, and the
//! final low half is `x·P mod 2^64`; rejecting the word when that low half is below
//! `2^64 mod P` is Lemire's exact method for one draw from `0..P`, so the answers are
//! exactly uniform and independent. The test below checks that on words of 8 and 12
//! bits, exhaustively: every tuple of answers comes from the same number of words.
//!
//! Which shuffles draw through it (the catalogue's swap shuffles, partial Fisher–Yates,
//! the shelf machine, the 8-bit sort keys; the riffles and the overhand take their coins
//! 64 to a word through `Randomness::coins` instead) and which do not (any whose draws
//! depend on their answers) is said in the catalogue; a source other than the default
//! answers draw by draw ([`super::Randomness::below_each`]'s default), so a flawed source
//! stays exactly as flawed as its text.

/// The most draws one word answers: the length of the arrays the shuffles pass.
pub const MOST_DRAWS_PER_WORD: usize = 8;

/// The largest product of bounds the shuffles draw from one word, `2^56`: a word is then
/// thrown away with probability below `P / 2^64 ≤ 1/256`, and the exact threshold (a
/// division) is computed only that rarely.
const PRODUCT_BITS: u32 = 56;

/// How many draws with bounds of at most `largest` one word answers, keeping the product
/// of the bounds at most 2^56: at least 1, at most [`MOST_DRAWS_PER_WORD`]. 52 cards: 8;
/// 200 cards: 7; 2,000 cards: 5; 8-bit keys: 7.
#[inline]
pub const fn draws_per_word(largest: u64) -> usize {
    // The bits of `largest` rounded up to a power of two: `largest <= 2^bits`.
    let bits = if largest <= 1 {
        0
    } else {
        u64::BITS - (largest - 1).leading_zeros()
    };
    if bits == 0 {
        return MOST_DRAWS_PER_WORD;
    }
    let fit = (PRODUCT_BITS / bits) as usize;
    if fit == 0 {
        1
    } else if fit > MOST_DRAWS_PER_WORD {
        MOST_DRAWS_PER_WORD
    } else {
        fit
    }
}

/// Draws `draws` numbers whose bounds are `bound(0)`, `bound(1)`, … (none above
/// `largest`), a word's worth at a time through [`super::Randomness::below_each`], and
/// hands each answer to `answer(step, value)` in order. The shuffles' loops are written
/// over it, so that their draws are batched one way.
#[inline(always)]
pub fn each_draw<R: super::Randomness + ?Sized>(
    rng: &mut R,
    draws: usize,
    largest: u64,
    bound: impl Fn(usize) -> u64,
    mut answer: impl FnMut(usize, usize),
) {
    if rng.draws_one_by_one() {
        for step in 0..draws {
            answer(step, rng.below(bound(step)) as usize);
        }
        return;
    }
    let per_word = draws_per_word(largest);
    let mut bounds = [1u64; MOST_DRAWS_PER_WORD];
    let mut answers = [0u64; MOST_DRAWS_PER_WORD];
    let mut step = 0;
    while step < draws {
        let count = per_word.min(draws - step);
        for (offset, slot) in bounds[..count].iter_mut().enumerate() {
            *slot = bound(step + offset);
        }
        rng.below_each(&bounds[..count], &mut answers[..count]);
        for (offset, &value) in answers[..count].iter().enumerate() {
            answer(step + offset, value as usize);
        }
        step += count;
    }
}

/// One word's draws planned ahead: their bounds and Lemire's threshold for their
/// product, computed once for every deck of a size ([`DrawPlan`]) instead of once per word
/// drawn. What a source answers for it is exactly what [`super::Randomness::below_each`]
/// answers for the same bounds: the plan only moves the product and its threshold out of
/// the loop over decks.
#[derive(Clone, Copy, Debug)]
pub struct PlannedWord {
    bounds: [u64; MOST_DRAWS_PER_WORD],
    /// The product of the bounds before each draw (1 before the first): see
    /// [`PlannedWord::answer`].
    before: [u64; MOST_DRAWS_PER_WORD],
    /// The product of all the bounds, `P`.
    product: u64,
    count: usize,
    /// `2^64 mod P`, `P` the product of the bounds: a word whose low half `x·P mod 2^64`
    /// falls below it is rejected (the same test as [`split_word`]'s, whose `fraction >=
    /// product` shortcut is implied, the threshold being below `P`).
    threshold: u64,
}

impl PlannedWord {
    /// The bounds of the word's draws, in order.
    #[inline(always)]
    pub fn bounds(&self) -> &[u64] {
        &self.bounds[..self.count]
    }

    /// Whether `word` (drawn from a source that batches,
    /// [`super::Randomness::batch_word`]) is kept: Lemire's test on its low half `word · P
    /// mod 2^64`, the same test as [`split_word`]'s (a test checks the answers agree on
    /// many words).
    #[inline(always)]
    fn keeps(&self, word: u64) -> bool {
        word.wrapping_mul(self.product) >= self.threshold
    }

    /// The answer of draw `k` of a kept `word`.
    ///
    /// Why not [`split_word`]'s loop: there, each draw multiplies the low half the draw
    /// before it left, a chain of dependent multiplies that bound the 52-card swap
    /// shuffles (issue 43). That low half is `word · Q mod 2^64`, `Q` the product of the
    /// bounds before the draw, which the plan knows: each draw is then two multiplies of
    /// its own, `⌊(word · Q mod 2^64) · bound / 2^64⌋`, the draws run side by side, and
    /// the word's test needs none of them ([`PlannedWord::keeps`]), so each answer is
    /// used as soon as it is made.
    #[inline(always)]
    fn answer(&self, word: u64, k: usize) -> u64 {
        let fraction = word.wrapping_mul(self.before[k]);
        ((u128::from(fraction) * u128::from(self.bounds[k])) >> 64) as u64
    }
}

/// The draws of one deck of a shuffle whose bounds depend on the deck size alone (the
/// swap shuffles), cut into words as [`each_draw`] cuts them and planned once for a batch
/// of decks ([`each_planned_draw`]).
///
/// Why: [`each_draw`] multiplies the bounds of each word together as it draws, to find
/// the product and Lemire's threshold; on decks of 13 to 64 cards that second chain of
/// multiplies, and the loop it needs to watch for overflow, cost as much as the draws
/// themselves (issue 43). The plan computes them once per deck size.
#[derive(Clone, Debug, Default)]
pub struct DrawPlan {
    words: Vec<PlannedWord>,
}

impl DrawPlan {
    /// The plan of `draws` draws with bounds `bound(0)`, `bound(1)`, … (each at least 1
    /// and at most `largest`), cut into words exactly as [`each_draw`] cuts them.
    pub fn new(draws: usize, largest: u64, bound: impl Fn(usize) -> u64) -> Self {
        let per_word = draws_per_word(largest);
        let mut words = Vec::with_capacity(draws.div_ceil(per_word));
        let mut step = 0;
        while step < draws {
            let count = per_word.min(draws - step);
            let mut bounds = [1u64; MOST_DRAWS_PER_WORD];
            for (offset, slot) in bounds[..count].iter_mut().enumerate() {
                *slot = bound(step + offset);
                assert!(
                    (1..=largest).contains(slot),
                    "a bound of {slot} outside 1..={largest}"
                );
            }
            // At most `largest^per_word <= 2^56`: it fits ([`draws_per_word`]). A shorter
            // last word's bounds of 1 beyond its own keep the product.
            let mut before = [1u64; MOST_DRAWS_PER_WORD];
            let mut product = 1u64;
            for (slot, &bound) in before.iter_mut().zip(&bounds) {
                *slot = product;
                product *= bound;
            }
            words.push(PlannedWord {
                bounds,
                before,
                product,
                count,
                threshold: threshold::<64>(product),
            });
            step += count;
        }
        Self { words }
    }
}

/// [`each_draw`] with the words planned ahead: the same answers, handed to
/// `answer(step, value)` in the same order, from the same words of any source. A source
/// that does not batch ([`super::Randomness::batch_word`]) answers each word through
/// [`super::Randomness::below_each`], draw by draw.
#[inline(always)]
pub fn each_planned_draw<R: super::Randomness + ?Sized>(
    rng: &mut R,
    plan: &DrawPlan,
    mut answer: impl FnMut(usize, usize),
) {
    let mut step = 0;
    for word in &plan.words {
        match rng.batch_word() {
            Some(first) => {
                let mut drawn = first;
                while !word.keeps(drawn) {
                    drawn = rng
                        .batch_word()
                        .expect("a source that batches batches every word");
                }
                for k in 0..word.count {
                    answer(step + k, word.answer(drawn, k) as usize);
                }
            }
            None => {
                let mut answers = [0u64; MOST_DRAWS_PER_WORD];
                rng.below_each(word.bounds(), &mut answers[..word.count]);
                for (k, &value) in answers[..word.count].iter().enumerate() {
                    answer(step + k, value as usize);
                }
            }
        }
        step += word.count;
    }
}

/// What one word made of a batch of draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Split {
    /// The answers are written and exactly uniform; with them, read as one mixed-radix
    /// number (see [`mixed_radix`]).
    Kept(u64),
    /// The word fell in Lemire's rejected sliver: draw another.
    Rejected,
    /// The bounds' product does not fit in the word: draw them another way.
    TooWide,
}

/// Splits a word of `BITS` bits (64 in use; fewer in the exhaustive test) into the
/// answers for `bounds` (see the module docs). The product of the bounds is computed in
/// the same loop as the answers, two chains of multiplies side by side: a loop of its own
/// before them cost a fifth of a 200-card Fisher–Yates.
#[inline(always)]
pub(crate) fn split_word<const BITS: u32>(word: u64, bounds: &[u64], answers: &mut [u64]) -> Split {
    let mask = if BITS == 64 { u64::MAX } else { (1u64 << BITS) - 1 };
    let mut fraction = word;
    let mut product = 1u64;
    let mut fits = true;
    for (answer, &bound) in answers.iter_mut().zip(bounds) {
        let wide = u128::from(fraction) * u128::from(bound);
        *answer = (wide >> BITS) as u64;
        fraction = (wide as u64) & mask;
        let (next, overflowed) = product.overflowing_mul(bound);
        product = next;
        fits &= !overflowed;
    }
    assert!(product != 0 || !fits, "cannot sample empty range");
    if !fits || (BITS < 64 && product > 1 << BITS) {
        return Split::TooWide;
    }
    // `fraction` is now `word · product mod 2^BITS`. Lemire: reject below `2^BITS mod P`,
    // which is below `P`, so the division runs only when `fraction < P`.
    if fraction >= product || fraction >= threshold::<BITS>(product) {
        // The answers' digits are those of the high part of `word · product`.
        Split::Kept(((u128::from(word) * u128::from(product)) >> BITS) as u64)
    } else {
        Split::Rejected
    }
}

/// `answers` read as one number in mixed radix with digit bounds `bounds`, the first the
/// most significant (wrapping beyond 2^64).
#[inline(always)]
pub(crate) fn mixed_radix(bounds: &[u64], answers: &[u64]) -> u64 {
    answers
        .iter()
        .zip(bounds)
        .fold(0u64, |number, (&answer, &bound)| {
            number.wrapping_mul(bound).wrapping_add(answer)
        })
}

/// `2^BITS mod product`.
#[cold]
fn threshold<const BITS: u32>(product: u64) -> u64 {
    if BITS == 64 {
        product.wrapping_neg() % product
    } else {
        (1u64 << BITS) % product
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::randomness::{Randomness, SimulationSource, XoshiroSource};

    /// The product of `bounds`, if it fits in 64 bits.
    fn product(bounds: &[u64]) -> Option<u64> {
        bounds
            .iter()
            .try_fold(1u64, |product, &bound| product.checked_mul(bound))
    }

    /// Every tuple of bounds whose product fits in a word of `BITS` bits (lengths 1 to 4,
    /// bounds 1 to 17): each tuple of answers comes from exactly `⌊2^BITS / P⌋` kept words,
    /// so the answers are exactly uniform and independent. Exhaustive: nothing random.
    fn exhaustively_uniform<const BITS: u32>() {
        let words = 1u64 << BITS;
        let mut tuples = 0;
        let mut stack = vec![Vec::<u64>::new()];
        while let Some(bounds) = stack.pop() {
            if bounds.len() < 4 {
                for next in 1..=17u64 {
                    let mut longer = bounds.clone();
                    longer.push(next);
                    if product(&longer).is_some_and(|p| p <= words) {
                        stack.push(longer);
                    }
                }
            }
            if bounds.is_empty() {
                continue;
            }
            let product = product(&bounds).unwrap();
            let mut counts = vec![0u64; product as usize];
            let mut answers = vec![0; bounds.len()];
            for word in 0..words {
                if let Split::Kept(number) = split_word::<BITS>(word, &bounds, &mut answers) {
                    assert_eq!(number, mixed_radix(&bounds, &answers), "{bounds:?}, word {word}");
                    let index = answers.iter().zip(&bounds).fold(0, |index, (&answer, &bound)| {
                        assert!(answer < bound, "{bounds:?}: answer {answer}");
                        index * bound + answer
                    });
                    counts[index as usize] += 1;
                }
            }
            let each = words / product;
            assert!(
                counts.iter().all(|&count| count == each),
                "{bounds:?} on {BITS}-bit words: {counts:?}, expected {each} each"
            );
            tuples += 1;
        }
        assert!(tuples > 1000, "only {tuples} tuples were checked");
    }

    #[test]
    fn batched_answers_are_exactly_uniform_on_8_and_12_bit_words() {
        exhaustively_uniform::<8>();
        exhaustively_uniform::<12>();
    }

    #[test]
    fn the_answers_are_the_digits_of_the_high_half() {
        // On 64-bit words: the answers, read as one mixed-radix number, are ⌊x·P / 2^64⌋.
        let mut source = XoshiroSource::from_seed(9);
        let bounds = [52u64, 51, 50, 49, 48, 47, 46, 45];
        let product = product(&bounds).unwrap();
        let mut answers = [0u64; 8];
        for _ in 0..10_000 {
            let word = source.below(u64::MAX) + 1;
            let Split::Kept(number) = split_word::<64>(word, &bounds, &mut answers) else {
                panic!("a word is rejected with probability below 2^-19: none of these 10,000 at this seed")
            };
            assert_eq!(u128::from(number), (u128::from(word) * u128::from(product)) >> 64);
            let digits = answers
                .iter()
                .zip(&bounds)
                .fold(0u128, |n, (&a, &b)| n * u128::from(b) + u128::from(a));
            assert_eq!(digits, (u128::from(word) * u128::from(product)) >> 64);
        }
    }

    #[test]
    fn words_answer_as_many_draws_as_the_product_allows() {
        assert_eq!(draws_per_word(1), MOST_DRAWS_PER_WORD);
        assert_eq!(draws_per_word(2), MOST_DRAWS_PER_WORD);
        assert_eq!(draws_per_word(52), 8);
        assert_eq!(draws_per_word(200), 7);
        assert_eq!(draws_per_word(256), 7);
        assert_eq!(draws_per_word(2_000), 5);
        assert_eq!(draws_per_word(1 << 40), 1);
        assert_eq!(draws_per_word(u64::MAX), 1);
        for largest in 2..5_000u64 {
            let count = draws_per_word(largest) as u32;
            assert!(u128::from(largest).pow(count) <= 1 << 56, "{largest}");
        }
    }

    /// A planned word answers and rejects exactly as [`split_word`] does: on 20,000 words
    /// from the default source and on words made to fall at the edge of the rejected
    /// sliver (the words just above and below each multiple of `2^64 / P`, where the low
    /// half `word · P mod 2^64` is smallest), for plans of 1 to 8 draws a word, with and
    /// without a shorter last word, and products from 6 up to almost 2^56 (where about one
    /// word in 256 is rejected).
    #[test]
    fn planned_words_answer_what_split_word_answers() {
        /// Draws, the largest bound, and the bound of each step.
        type Plan = (usize, u64, fn(usize) -> u64);
        let plans: [Plan; 7] = [
            (2, 3, |s| 3 - s as u64),
            (51, 52, |s| 52 - s as u64),
            (52, 52, |_| 52),
            (20, 20, |_| 20),
            (7, 255, |_| 255),
            (199, 200, |s| 200 - s as u64),
            (11, 2_000, |s| 2_000 - 7 * s as u64),
        ];
        let mut source = XoshiroSource::from_seed(43);
        let (mut kept, mut rejected) = (0, 0);
        for (draws, largest, bound) in plans {
            let plan = DrawPlan::new(draws, largest, bound);
            let mut step = 0;
            for word in &plan.words {
                let bounds = word.bounds();
                assert_eq!(bounds, (step..step + word.count).map(bound).collect::<Vec<_>>());
                step += word.count;
                let product = word.product;
                let edges = (1..200u64).flat_map(|k| {
                    let edge = (u128::from(k) << 64).div_ceil(u128::from(product)) as u64;
                    [edge.wrapping_sub(1), edge, edge.wrapping_add(1)]
                });
                let words = (0..20_000).map(|_| source.batch_word().unwrap()).chain(edges);
                for drawn in words {
                    let mut answers = vec![0; bounds.len()];
                    let split = split_word::<64>(drawn, bounds, &mut answers);
                    assert_eq!(
                        word.keeps(drawn),
                        matches!(split, Split::Kept(_)),
                        "{bounds:?}, {drawn}"
                    );
                    if word.keeps(drawn) {
                        kept += 1;
                        let planned: Vec<u64> = (0..word.count).map(|k| word.answer(drawn, k)).collect();
                        assert_eq!(planned, answers, "{bounds:?}, word {drawn}");
                    } else {
                        rejected += 1;
                    }
                }
            }
            assert_eq!(step, draws, "the plan covers every draw");
        }
        // The edge words include rejected ones (so the test can tell the two apart).
        assert!(
            rejected > 100 && kept > 100_000,
            "{kept} kept, {rejected} rejected"
        );
    }

    #[test]
    fn each_draw_draws_every_bound_in_order() {
        // A source that answers draw by draw (the default `below_each`) sees exactly the
        // bounds in order, whatever the batching.
        struct Bounds(Vec<u64>);
        impl Randomness for Bounds {
            fn below(&mut self, n: u64) -> u64 {
                self.0.push(n);
                n - 1
            }
            fn unit(&mut self) -> f64 {
                unreachable!()
            }
        }
        let mut bounds = Bounds(Vec::new());
        let mut seen = Vec::new();
        each_draw(
            &mut bounds,
            20,
            21,
            |step| 21 - step as u64,
            |step, answer| seen.push((step, answer)),
        );
        assert_eq!(bounds.0, (2..=21).rev().collect::<Vec<_>>());
        assert_eq!(seen, (0..20).map(|step| (step, 20 - step)).collect::<Vec<_>>());
    }

    #[test]
    fn the_default_source_gives_uniform_batched_answers() {
        // 600,000 words split into a 3-card and a 2-card draw... the 6 pairs (3 × 2) and
        // the 52 × 51 pairs of a 52-card Fisher–Yates's first two draws. Chi-square at a
        // fixed seed: its p-value must stay above 1e-6 (a fair result lies below that
        // once in a million seeds; a biased split, such as answers taken from the low
        // bits, would fail by hundreds of sigmas).
        use statrs::distribution::{ChiSquared, ContinuousCDF};
        for bounds in [vec![3u64, 2], vec![52, 51], vec![6; 6]] {
            let product = product(&bounds).unwrap() as usize;
            let mut source = SimulationSource::from_seed(2024);
            let mut counts = vec![0u64; product];
            let mut answers = vec![0u64; bounds.len()];
            let trials = 300 * product as u64;
            for _ in 0..trials {
                source.below_each(&bounds, &mut answers);
                let index = answers.iter().zip(&bounds).fold(0, |i, (&a, &b)| i * b + a);
                counts[index as usize] += 1;
            }
            let expected = trials as f64 / product as f64;
            let statistic: f64 = counts
                .iter()
                .map(|&c| (c as f64 - expected).powi(2) / expected)
                .sum();
            let p = ChiSquared::new((product - 1) as f64).unwrap().sf(statistic);
            assert!(p > 1e-6, "{bounds:?}: chi-square {statistic}, p = {p}");
        }
    }

    #[test]
    fn coins_are_fair_and_in_the_low_bits() {
        let mut source = SimulationSource::from_seed(5);
        let mut ones = [0u64; 64];
        for _ in 0..20_000 {
            let coins = source.coins(52);
            assert_eq!(coins >> 52, 0, "coins above the 52 asked for");
            for (bit, count) in ones.iter_mut().enumerate() {
                *count += (coins >> bit) & 1;
            }
        }
        // 20,000 fair coins per bit: mean 10,000, sd 70.7; ±600 is 8.5 sd (all 52 bits
        // together stay inside with probability 1 - 1e-15).
        for (bit, &count) in ones[..52].iter().enumerate() {
            assert!(count.abs_diff(10_000) < 600, "bit {bit}: {count}");
        }
        assert_eq!(source.coins(0), 0);
        assert!(source.coins(64) != source.coins(64));
    }
}
