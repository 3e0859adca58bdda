//! Exact tails of Pearson's statistic for multinomial counts, by enumerating the count
//! vectors: what a χ² fit reports where the χ² law does not hold for the counts at hand.
//!
//! Why: Pearson's statistic takes only a lattice of values, and with few cells that lattice
//! is coarse. With 19 deals in 3 groups (no card left in place, one, two or more) the
//! counts nearest their expectations (7, 7, 5) have probability 0.04, where the χ² law's
//! lower tail says 1e-4; with 2 cells the lower tail is off by a factor of 100 or more at
//! any practical size (about `√(π e)` at the statistic 0, `e` the expected count). The
//! upper tail is close to the χ² law from five expected counts per cell on, but coarser
//! and more conservative with few cells and few trials.
//!
//! Two enumerations, each stopped at [`BUDGET`] count vectors:
//! - **every vector**, when there are at most [`BUDGET`] of them (`C(T + g - 1, g - 1)`
//!   for `T` trials in `g` cells: 3 cells up to 722 trials, 4 up to 113, 5 up to 47):
//!   both tails exactly;
//! - **the vectors at or below the observed statistic** for the lower tail: an ellipsoid
//!   around the expectations, walked cell by cell with the smallest statistic the cells
//!   still to come can reach (the statistic of their total spread in proportion to their
//!   expectations) as the bound, so only vectors inside are visited. It is small exactly
//!   when the lower tail is in question: the lattice points inside number about its volume,
//!   `V_d · x^{d/2} · √(Π e_i / T)` (`d = g - 1`), so a statistic far below its mean has
//!   few. When they are more than the budget, the lattice is fine enough inside the
//!   ellipsoid for the χ² law's lower tail to hold (over [`BUDGET`] points means at least
//!   about 70 lattice steps across each of 5 axes, 12 across each of 9), and the caller
//!   reads it.
//!
//! Each vector's probability is the multinomial `T! Π p_i^{o_i} / o_i!`, summed in log
//! space (a running log-sum-exp), so tails far below `f64`'s range keep their magnitude.
//! Ties count in both tails (`P(X >= x)` and `P(X <= x)` both hold the observed vector),
//! so the p-values are exact for the discrete law: never below the probability a fair
//! source gives them. Statistics within `1e-10` of each other (relative) are ties: equal
//! values reached by different sums differ by rounding only.

use statrs::function::factorial::{ln_binomial, ln_factorial};
use statrs::function::gamma::ln_gamma;

use super::pvalue::PValue;

/// Count vectors visited at most, per enumeration: a few milliseconds.
pub const BUDGET: u64 = 1 << 18;

/// Cells walked at most (the walk recurses once per cell). Laws with more cells (the `n!`
/// orders of 6 cards and more) have so many degrees of freedom that the χ² law holds in
/// both tails; only counts exactly at their expectations are still given their exact
/// probability, in closed form.
pub const MAX_WALK_CELLS: usize = 64;

/// Relative difference below which two statistics are the same value.
const TIE_TOLERANCE: f64 = 1e-10;

/// The law of each cell.
#[derive(Clone, Copy, Debug)]
pub enum CellLaw<'a> {
    /// This many equally likely cells.
    Uniform(usize),
    /// These probabilities (positive, summing to 1).
    Given(&'a [f64]),
}

impl CellLaw<'_> {
    fn cells(&self) -> usize {
        match self {
            CellLaw::Uniform(cells) => *cells,
            CellLaw::Given(law) => law.len(),
        }
    }

    fn probabilities(&self) -> Vec<f64> {
        match self {
            CellLaw::Uniform(cells) => vec![1.0 / *cells as f64; *cells],
            CellLaw::Given(law) => law.to_vec(),
        }
    }

    /// `Σ ln p_i`, without building the cells.
    fn sum_ln_probabilities(&self) -> f64 {
        match self {
            CellLaw::Uniform(cells) => -(*cells as f64) * (*cells as f64).ln(),
            CellLaw::Given(law) => law.iter().map(|p| p.ln()).sum(),
        }
    }
}

/// The tails that could be computed exactly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExactTails {
    /// `P(X >= statistic)`, when every count vector was enumerated.
    pub upper: Option<PValue>,
    /// `P(X <= statistic)`, when the vectors at or below it were.
    pub lower: Option<PValue>,
}

/// Pearson's statistic `Σ (o_i - e_i)² / e_i` as the enumeration computes it, cell by cell
/// (callers compare with it the statistic of their observed counts).
pub fn pearson(observed: &[u64], expected: impl Fn(usize) -> f64) -> f64 {
    observed
        .iter()
        .enumerate()
        .map(|(i, &count)| {
            let e = expected(i);
            let difference = count as f64 - e;
            difference * difference / e
        })
        .sum()
}

/// The exact tails of Pearson's statistic at `statistic` for `trials` multinomial trials
/// over cells with law `law`, as far as [`BUDGET`] allows (see the module docs).
pub fn pearson_tails(statistic: f64, trials: u64, law: CellLaw) -> ExactTails {
    let cells = law.cells();
    let none = ExactTails {
        upper: None,
        lower: None,
    };
    if cells < 2 || trials == 0 || statistic.is_nan() {
        return none;
    }
    let tolerance = TIE_TOLERANCE * statistic.abs() + 1e-13;
    if cells > MAX_WALK_CELLS {
        return ExactTails {
            upper: None,
            lower: (statistic <= tolerance)
                .then(|| even_uniform_probability(trials, &law))
                .flatten(),
        };
    }
    let ln_budget = (BUDGET as f64).ln();
    let every_vector = ln_binomial(trials + cells as u64 - 1, cells as u64 - 1) <= ln_budget;
    if every_vector {
        let mut walk = Walk::new(trials, &law.probabilities(), statistic, tolerance, Region::Every);
        if walk.run() {
            return ExactTails {
                upper: Some(walk.upper.p_value()),
                lower: Some(walk.lower.p_value()),
            };
        }
        return none;
    }
    if !lower_walk_is_small(statistic + tolerance, trials, &law) {
        return none;
    }
    let mut walk = Walk::new(trials, &law.probabilities(), statistic, tolerance, Region::AtMost);
    ExactTails {
        upper: None,
        lower: walk.run().then(|| walk.lower.p_value()),
    }
}

/// `P(every count at its expectation)` for equally likely cells whose count divides the
/// trials, `T! / ((T/k)!^k · k^T)`: the lower tail at a statistic of 0, the only vector
/// there. `None` for other laws, or trials that no count vector splits evenly.
fn even_uniform_probability(trials: u64, law: &CellLaw) -> Option<PValue> {
    let CellLaw::Uniform(cells) = *law else {
        return None;
    };
    let cells = cells as u64;
    if trials % cells != 0 {
        return None;
    }
    let ln_p = ln_factorial(trials)
        - cells as f64 * ln_factorial(trials / cells)
        - trials as f64 * (cells as f64).ln();
    Some(PValue::from_log10(ln_p / std::f64::consts::LN_10))
}

/// Whether the ellipsoid `X <= bound` holds few enough lattice points to walk: its volume
/// `V_d · bound^{d/2} · √(Π e_i / T)`, `d = cells - 1`, against twice the budget (the
/// walk itself stops at the budget; this spares starting walks bound to stop).
fn lower_walk_is_small(bound: f64, trials: u64, law: &CellLaw) -> bool {
    let d = (law.cells() - 1) as f64;
    let t = trials as f64;
    let ln_unit_ball = 0.5 * d * std::f64::consts::PI.ln() - ln_gamma(0.5 * d + 1.0);
    // Σ ln e_i = cells · ln T + Σ ln p_i.
    let sum_ln_expected = law.cells() as f64 * t.ln() + law.sum_ln_probabilities();
    let ln_volume = ln_unit_ball + 0.5 * d * bound.max(1e-300).ln() + 0.5 * (sum_ln_expected - t.ln());
    ln_volume <= (2.0 * BUDGET as f64).ln()
}

/// Which count vectors a walk visits.
#[derive(Clone, Copy, PartialEq)]
enum Region {
    /// All of them.
    Every,
    /// Those whose statistic is at most the observed one.
    AtMost,
}

/// A sum of probabilities kept as `max + ln(sum)`, so that terms far below `f64`'s range
/// add without underflow.
struct LogSum {
    max: f64,
    sum: f64,
}

impl LogSum {
    fn new() -> Self {
        Self {
            max: f64::NEG_INFINITY,
            sum: 0.0,
        }
    }

    fn add(&mut self, ln_term: f64) {
        if ln_term > self.max {
            self.sum = self.sum * (self.max - ln_term).exp() + 1.0;
            self.max = ln_term;
        } else {
            self.sum += (ln_term - self.max).exp();
        }
    }

    fn p_value(&self) -> PValue {
        if self.sum == 0.0 {
            return PValue::from_log10(f64::NEG_INFINITY);
        }
        PValue::from_log10((self.max + self.sum.ln()) / std::f64::consts::LN_10)
    }
}

/// One enumeration of count vectors, cell by cell.
struct Walk {
    expected: Vec<f64>,
    ln_p: Vec<f64>,
    /// `Σ_{j >= i} e_j`.
    expected_from: Vec<f64>,
    trials: u64,
    ln_trials_factorial: f64,
    region: Region,
    /// Vectors with a statistic at most this are in the lower tail.
    lower_bound: f64,
    /// Vectors with a statistic at least this are in the upper tail.
    upper_bound: f64,
    lower: LogSum,
    upper: LogSum,
    visited: u64,
}

impl Walk {
    fn new(trials: u64, probabilities: &[f64], statistic: f64, tolerance: f64, region: Region) -> Self {
        let t = trials as f64;
        let expected: Vec<f64> = probabilities.iter().map(|p| t * p).collect();
        let mut expected_from = vec![0.0; expected.len() + 1];
        for i in (0..expected.len()).rev() {
            expected_from[i] = expected_from[i + 1] + expected[i];
        }
        Self {
            ln_p: probabilities.iter().map(|p| p.ln()).collect(),
            expected,
            expected_from,
            trials,
            ln_trials_factorial: ln_factorial(trials),
            region,
            lower_bound: statistic + tolerance,
            upper_bound: statistic - tolerance,
            lower: LogSum::new(),
            upper: LogSum::new(),
            visited: 0,
        }
    }

    /// Walks the region; false when it held more than [`BUDGET`] vectors (and the sums
    /// are then partial).
    fn run(&mut self) -> bool {
        self.cell(0, self.trials, 0.0, self.ln_trials_factorial)
    }

    /// `o_i · ln p_i − ln o_i!`.
    fn weight(&self, cell: usize, count: u64) -> f64 {
        count as f64 * self.ln_p[cell] - ln_factorial(count)
    }

    fn term(&self, cell: usize, count: u64) -> f64 {
        let difference = count as f64 - self.expected[cell];
        difference * difference / self.expected[cell]
    }

    /// The counts of cell `cell` that can still end at or below the lower bound, given the
    /// statistic so far and the trials left for it and the cells after it: the cells after
    /// it contribute at least `(left − E')² / E'` (their counts in proportion to their
    /// expectations), so the count must keep `term + that` within what is left.
    fn range(&self, cell: usize, left: u64, so_far: f64) -> Option<(u64, u64)> {
        if self.region == Region::Every {
            return Some((0, left));
        }
        let a = self.expected[cell];
        let rest = self.expected_from[cell + 1];
        let b = left as f64 - rest;
        let centre = (a * rest + b * a) / (a + rest);
        let least = (a - b) * (a - b) / (a + rest);
        let room = self.lower_bound - so_far - least;
        if room < 0.0 {
            return None;
        }
        let radius = (room * a * rest / (a + rest)).sqrt();
        let slack = 1e-9 * (1.0 + centre.abs() + radius);
        let low = (centre - radius - slack).ceil().max(0.0);
        let high = (centre + radius + slack).floor().min(left as f64);
        (low <= high).then_some((low as u64, high as u64))
    }

    fn cell(&mut self, cell: usize, left: u64, so_far: f64, ln_weight: f64) -> bool {
        let last = self.expected.len() - 1;
        let Some((low, high)) = self.range(cell, left, so_far) else {
            return true;
        };
        if cell + 1 == last {
            return self.last_two(cell, left, low, high, so_far, ln_weight);
        }
        // Inner nodes count against the budget too: a walk that dies in dead ends is
        // stopped as surely as one that finds too many vectors.
        self.visited += high - low + 1;
        if self.visited > BUDGET {
            return false;
        }
        for count in low..=high {
            let next = so_far + self.term(cell, count);
            if !self.cell(cell + 1, left - count, next, ln_weight + self.weight(cell, count)) {
                return false;
            }
        }
        true
    }

    /// The last free cell and the one it determines, with their weights updated by one
    /// step per count instead of a factorial each.
    fn last_two(&mut self, cell: usize, left: u64, low: u64, high: u64, so_far: f64, ln_weight: f64) -> bool {
        let last = cell + 1;
        let count_points = high - low + 1;
        self.visited += count_points;
        if self.visited > BUDGET {
            return false;
        }
        let mut weight_here = self.weight(cell, low);
        let mut weight_last = self.weight(last, left - low);
        for count in low..=high {
            let statistic = so_far + self.term(cell, count) + self.term(last, left - count);
            let ln_probability = ln_weight + weight_here + weight_last;
            if statistic <= self.lower_bound {
                self.lower.add(ln_probability);
            }
            if self.region == Region::Every && statistic >= self.upper_bound {
                self.upper.add(ln_probability);
            }
            if count < high {
                // One more in this cell, one fewer in the last.
                weight_here += self.ln_p[cell] - ((count + 1) as f64).ln();
                weight_last += ((left - count) as f64).ln() - self.ln_p[last];
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both tails by brute force over every vector of `trials` in 3 cells.
    fn brute_force(statistic: f64, trials: u64, law: [f64; 3]) -> (f64, f64) {
        let (mut upper, mut lower) = (0.0, 0.0);
        for a in 0..=trials {
            for b in 0..=trials - a {
                let c = trials - a - b;
                let counts = [a, b, c];
                let x = pearson(&counts, |i| trials as f64 * law[i]);
                let ln_p = ln_factorial(trials)
                    + counts
                        .iter()
                        .zip(law)
                        .map(|(&o, p)| o as f64 * p.ln() - ln_factorial(o))
                        .sum::<f64>();
                if x >= statistic - 1e-9 {
                    upper += ln_p.exp();
                }
                if x <= statistic + 1e-9 {
                    lower += ln_p.exp();
                }
            }
        }
        (upper, lower)
    }

    fn probability(p: PValue) -> f64 {
        10f64.powf(p.log10())
    }

    #[test]
    fn the_issue_s_nineteen_pairs_are_not_too_even() {
        // Issue 40: 19 consecutive pairs of 52-card deals in 3 groups (no card left in
        // place, one, two or more), counts 7, 7, 5. The χ² law's lower tail at their
        // statistic is about 1e-4; the exact probability of counts at least this even is
        // several percent.
        let law = {
            let p0 = (-1.0f64).exp();
            [p0, p0, 1.0 - 2.0 * p0]
        };
        let counts = [7, 7, 5];
        let x = pearson(&counts, |i| 19.0 * law[i]);
        let tails = pearson_tails(x, 19, CellLaw::Given(&law));
        let lower = probability(tails.lower.expect("every vector of 19 in 3 cells is walked"));
        assert!(lower > 0.03 && lower < 0.1, "{lower}");
        let (upper_brute, lower_brute) = brute_force(x, 19, law);
        assert!((lower - lower_brute).abs() < 1e-12, "{lower} vs {lower_brute}");
        let upper = probability(tails.upper.unwrap());
        assert!((upper - upper_brute).abs() < 1e-12);
        // Ties are in both tails: together they are 1 plus the observed values' mass.
        assert!(upper + lower > 1.0);
    }

    #[test]
    fn the_lower_walk_agrees_with_brute_force() {
        // 900 trials in 3 cells make C(902, 2) = 406,351 vectors, over the budget for
        // every vector: only the ellipsoid is walked.
        let law = [0.5, 0.3, 0.2];
        let trials = 900;
        for counts in [
            [450u64, 270, 180],
            [452, 268, 180],
            [440, 280, 180],
            [470, 250, 180],
        ] {
            let x = pearson(&counts, |i| trials as f64 * law[i]);
            let tails = pearson_tails(x, trials, CellLaw::Given(&law));
            assert_eq!(tails.upper, None, "too many vectors for the upper tail");
            let lower = probability(tails.lower.expect("a small ellipsoid"));
            let (_, lower_brute) = brute_force(x, trials, law);
            assert!(
                (lower - lower_brute).abs() <= 1e-10 * lower_brute.max(1e-300),
                "{counts:?}: {lower} vs {lower_brute}"
            );
        }
    }

    #[test]
    fn two_cells_are_a_binomial() {
        // 2 cells, 10 trials, fair coin, 5/5: X = 0, P(X <= 0) = C(10,5)/2^10.
        let tails = pearson_tails(0.0, 10, CellLaw::Uniform(2));
        let lower = probability(tails.lower.unwrap());
        assert!((lower - 252.0 / 1024.0).abs() < 1e-14, "{lower}");
        assert_eq!(tails.upper, Some(PValue::ONE));
        // 9/1: X = 6.4; P(X >= 6.4) = P(0,1,9,10 heads) = 22/1024.
        let tails = pearson_tails(6.4, 10, CellLaw::Uniform(2));
        assert!((probability(tails.upper.unwrap()) - 22.0 / 1024.0).abs() < 1e-14);
        // A billion trials: only the ellipsoid near the statistic is walked.
        let tails = pearson_tails(0.0, 1_000_000_000, CellLaw::Uniform(2));
        let lower = probability(tails.lower.unwrap());
        // P(exactly half) ≈ √(2 / (π · 10^9)).
        let expected = (2.0 / (std::f64::consts::PI * 1e9)).sqrt();
        // (ln 10^9! is about 2·10^10, so its last bits make the relative error ~1e-5.)
        assert!((lower / expected - 1.0).abs() < 1e-4, "{lower} vs {expected}");
    }

    #[test]
    fn far_tails_keep_their_magnitude() {
        // Every one of 600 trials in the first of 3 equal cells: probability 3^-600,
        // about 10^-286.3, and nothing as extreme.
        let x = pearson(&[600, 0, 0], |_| 200.0);
        let upper = pearson_tails(x, 600, CellLaw::Uniform(3)).upper.unwrap();
        // Three vectors are as extreme (all in one cell): 3 · 3^-600.
        let expected = (3f64.ln() - 600.0 * 3f64.ln()) / std::f64::consts::LN_10;
        assert!(
            (upper.log10() - expected).abs() < 1e-9,
            "{} vs {expected}",
            upper.log10()
        );
    }

    #[test]
    fn large_ellipsoids_are_left_to_the_chi_square_law() {
        // 24 equally likely orders, 1,200 deals, a typical statistic: the ellipsoid holds
        // about 10^30 vectors.
        let tails = pearson_tails(23.0, 1200, CellLaw::Uniform(24));
        assert_eq!(
            tails,
            ExactTails {
                upper: None,
                lower: None
            }
        );
        // 3.6 million cells are not even built, nor walked.
        let tails = pearson_tails(3_628_799.0, 40_000_000, CellLaw::Uniform(3_628_800));
        assert_eq!(tails.lower, None);
        // Except counts exactly even, which have their probability in closed form:
        // 5 deals of each of 720 orders, 3,600! / (5!^720 · 720^3600).
        let even = pearson_tails(0.0, 3_600, CellLaw::Uniform(720)).lower.unwrap();
        let expected =
            (ln_factorial(3_600) - 720.0 * ln_factorial(5) - 3_600.0 * 720f64.ln()) / std::f64::consts::LN_10;
        assert!((even.log10() - expected).abs() < 1e-9);
        assert!(even.log10() < -300.0 && even.log10().is_finite());
    }
}
