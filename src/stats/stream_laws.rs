//! Exact laws of run lengths and gaps in item streams, where theory knows them.
//!
//! - **i.i.d. draws** (item `i` with probability `p`): runs and gaps are geometric in an
//!   endless stream. A stream of `L` draws sees only the runs that end inside it and the
//!   gaps that fit in it, which tilts both laws towards short values: for `L = 10,000`
//!   and `p = 0.001` the plain geometric law would be 10 % off in the middle of the gap
//!   distribution. So the laws here are the exact expected counts for a stream of `L`:
//!   - a complete run of length `ℓ` (followed by another item) starts at draw 0 or right
//!     after another item: `E = p^ℓ (1-p) [1 + (L-1-ℓ)(1-p)]`, for `ℓ <= L-1`;
//!   - a gap of `d` between consecutive occurrences: `E = (L-d) p² (1-p)^(d-1)`.
//!
//!   Summed over items and normalised, they are the laws the observed histograms of all
//!   items together are tested against.
//! - **A bag holding one of each of `m` items**, dealt in whole cycles: an item at
//!   position `a` of one cycle and `q` of the next is `d = m + q - a` apart, with `a` and
//!   `q` uniform and independent, so `P(d) = (m - |d - m|) / m²` for `d = 1..2m-1` (the
//!   7-bag: no gap over 13). A final partial cycle of `r` draws adds the gaps that end in
//!   its first `r` positions, counted exactly too.

/// Cells beyond which a law is not computed; a law whose mass beyond is not negligible
/// is not offered (the test says why).
const MOST_CELLS: usize = 1 << 22;

/// A term this small against the running total ends a decreasing law.
const NEGLIGIBLE: f64 = 1e-18;

/// Complete run lengths `1..` of i.i.d. draws with these probabilities, in streams of
/// `length` draws. Entry `v - 1` is for length `v`; the last entry also covers longer
/// runs. `None` if no run can be complete or the law would need too many cells.
pub fn iid_run_law(probabilities: &[f64], length: u64) -> Option<Vec<f64>> {
    let items: Vec<f64> = probabilities
        .iter()
        .copied()
        .filter(|&p| p > 0.0 && p < 1.0)
        .collect();
    let longest = length.checked_sub(1)?;
    let mut powers = items.clone(); // p^ℓ
    decreasing_law(longest, |run| {
        let remaining = (length - 1 - run) as f64;
        let mut expected = 0.0;
        for (power, &p) in powers.iter_mut().zip(&items) {
            expected += *power * (1.0 - p) * (1.0 + remaining * (1.0 - p));
            *power *= p;
        }
        expected
    })
}

/// Gaps `1..` between consecutive occurrences of an item, for i.i.d. draws with these
/// probabilities, in streams of `length` draws. Entry `d - 1` is for gap `d`.
pub fn iid_gap_law(probabilities: &[f64], length: u64) -> Option<Vec<f64>> {
    let items: Vec<f64> = probabilities.iter().copied().filter(|&p| p > 0.0).collect();
    let longest = length.checked_sub(1)?;
    let mut misses: Vec<f64> = vec![1.0; items.len()]; // (1-p)^(d-1)
    decreasing_law(longest, |gap| {
        let fits = (length - gap) as f64;
        let mut expected = 0.0;
        for (miss, &p) in misses.iter_mut().zip(&items) {
            expected += fits * p * p * *miss;
            *miss *= 1.0 - p;
        }
        expected
    })
}

/// Gaps `1..=2m-1` in a bag dealing one of each of `items` items per cycle, for streams
/// of `length` draws starting at a cycle boundary. `None` before two cycles have begun.
pub fn one_of_each_gap_law(items: u64, length: u64) -> Option<Vec<f64>> {
    let m = items;
    let cycles = length / m;
    let partial = length % m;
    if m < 1 || cycles < 1 || (cycles == 1 && partial == 0) {
        return None;
    }
    let expected: Vec<f64> = (1..2 * m)
        .map(|d| {
            let complete_pairs = (cycles - 1) * (m - d.abs_diff(m));
            // Positions q < partial of the last, partial cycle with d - m <= q < d.
            let in_partial = partial.min(d).saturating_sub(d.saturating_sub(m));
            (complete_pairs + in_partial) as f64
        })
        .collect();
    normalised(expected)
}

/// Evaluates `term(1), term(2), ...` up to `longest`, stopping once the terms (which
/// must not increase) are negligible, and normalises.
fn decreasing_law(longest: u64, mut term: impl FnMut(u64) -> f64) -> Option<Vec<f64>> {
    let mut law = Vec::new();
    let mut total = 0.0;
    for value in 1..=longest {
        let expected = term(value);
        total += expected;
        law.push(expected);
        if expected <= NEGLIGIBLE * total {
            return normalised(law);
        }
        if law.len() == MOST_CELLS {
            return None;
        }
    }
    normalised(law)
}

fn normalised(mut law: Vec<f64>) -> Option<Vec<f64>> {
    let total: f64 = law.iter().sum();
    if total.is_nan() || total <= 0.0 {
        return None;
    }
    for value in &mut law {
        *value /= total;
    }
    Some(law)
}

/// Mean and variance of the number of positions at which two independent, uniformly
/// shuffled cycles of a bag hold the same item, for a bag of `copies` of each item.
///
/// With `S` slots and `q = Σ (c_i/S)²`: `E = S q`, and
/// `Var = S q (1-q) + S (S-1) (r - q²)` where `r = Σ_{i,j} [c_i (c_j - δ_ij) / (S (S-1))]²`
/// is the chance that two given positions both match. For one copy of each item this is
/// the fixed-point count of a random permutation: mean 1, variance 1.
pub fn cycle_repeat_moments(copies: &[u64]) -> Option<(f64, f64)> {
    let slots: u64 = copies.iter().sum();
    if slots < 2 {
        return None;
    }
    let s = slots as f64;
    let q: f64 = copies.iter().map(|&c| (c as f64 / s).powi(2)).sum();
    let pair = s * (s - 1.0);
    // Σ_{i,j} [c_i (c_j - δ_ij)]² = Σ_i c_i² [ (Σ_j c_j²) - c_i² + (c_i - 1)² ].
    let squares: f64 = copies.iter().map(|&c| (c as f64).powi(2)).sum();
    let r: f64 = copies
        .iter()
        .map(|&c| {
            let c = c as f64;
            c * c * (squares - c * c + (c - 1.0) * (c - 1.0))
        })
        .sum::<f64>()
        / (pair * pair);
    let mean = s * q;
    let variance = s * q * (1.0 - q) + pair * (r - q * q);
    Some((mean, variance))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::randomness::SimulationSource;

    #[test]
    fn the_seven_bag_gap_law_is_the_triangle() {
        // 100 complete cycles and no partial one: (c-1)·(7 - |d-7|), normalised.
        let law = one_of_each_gap_law(7, 700).unwrap();
        assert_eq!(law.len(), 13);
        for d in 1..=13u64 {
            let triangle = (7 - d.abs_diff(7)) as f64 / 49.0;
            assert!((law[d as usize - 1] - triangle).abs() < 1e-15, "d = {d}");
        }
        // A partial cycle of 3 adds gaps ending at its positions 0, 1, 2.
        let with_partial = one_of_each_gap_law(7, 703).unwrap();
        assert!(with_partial[0] > law[0] && with_partial[12] < law[12]);
        assert_eq!(one_of_each_gap_law(7, 7), None);
    }

    #[test]
    fn iid_laws_match_a_brute_force_count() {
        // Exact expected counts for short streams, by enumerating every stream of 6 draws
        // over 2 items with P(A) = 0.3.
        let p = [0.3, 0.7];
        let length = 6u64;
        let mut runs = vec![0.0; 6];
        let mut gaps = vec![0.0; 6];
        for code in 0..(1u32 << length) {
            let stream: Vec<usize> = (0..length).map(|i| ((code >> i) & 1) as usize).collect();
            let probability: f64 = stream.iter().map(|&item| p[item]).product();
            let mut start = 0;
            for i in 1..stream.len() {
                if stream[i] != stream[i - 1] {
                    runs[i - start] += probability;
                    start = i;
                }
            }
            for item in 0..2 {
                let places: Vec<usize> = (0..stream.len()).filter(|&i| stream[i] == item).collect();
                for pair in places.windows(2) {
                    gaps[pair[1] - pair[0]] += probability;
                }
            }
        }
        let normalise = |counts: &[f64]| {
            let total: f64 = counts.iter().sum();
            counts[1..].iter().map(|c| c / total).collect::<Vec<_>>()
        };
        let run_law = iid_run_law(&p, length).unwrap();
        let gap_law = iid_gap_law(&p, length).unwrap();
        for (law, brute) in [(run_law, normalise(&runs)), (gap_law, normalise(&gaps))] {
            assert_eq!(law.len(), 5);
            for (a, b) in law.iter().zip(&brute) {
                assert!((a - b).abs() < 1e-14, "{law:?} vs {brute:?}");
            }
        }
    }

    #[test]
    fn repeat_moments_match_simulation_and_the_permutation_case() {
        let (mean, variance) = cycle_repeat_moments(&[1; 7]).unwrap();
        assert!((mean - 1.0).abs() < 1e-12 && (variance - 1.0).abs() < 1e-12);
        // Two independent shuffles of A A A B B C, 200,000 times: the sample mean and
        // variance are within 0.01 and 0.02 of the formula (standard errors ~0.002 and
        // ~0.004: five standard errors of room, and a fixed seed).
        let copies = [3u64, 2, 1];
        let bag: Vec<u16> = vec![0, 0, 0, 1, 1, 2];
        let mut rng = SimulationSource::from_seed(4);
        let (mut sum, mut sum_squares) = (0.0, 0.0);
        let rounds = 200_000;
        for _ in 0..rounds {
            let mut x = bag.clone();
            let mut y = bag.clone();
            crate::randomness::fisher_yates_for_tests(&mut x, &mut rng);
            crate::randomness::fisher_yates_for_tests(&mut y, &mut rng);
            let matches = x.iter().zip(&y).filter(|(a, b)| a == b).count() as f64;
            sum += matches;
            sum_squares += matches * matches;
        }
        let sample_mean = sum / rounds as f64;
        let sample_variance = sum_squares / rounds as f64 - sample_mean * sample_mean;
        let (mean, variance) = cycle_repeat_moments(&copies).unwrap();
        assert!((sample_mean - mean).abs() < 0.01, "{sample_mean} vs {mean}");
        assert!(
            (sample_variance - variance).abs() < 0.02,
            "{sample_variance} vs {variance}"
        );
    }
}
