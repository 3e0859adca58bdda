//! Exact tails of Pearson's statistic for multinomial counts: what a χ² fit reports where
//! the χ² law does not hold for the counts at hand.
//!
//! Why, in both tails:
//! - **lower**: Pearson's statistic takes only a lattice of values, and with few cells that
//!   lattice is coarse. With 19 deals in 3 groups (no card left in place, one, two or more)
//!   the counts nearest their expectations (7, 7, 5) have probability 0.04, where the χ²
//!   law's lower tail says 1e-4; with 2 cells the lower tail is off by a factor of 100 or
//!   more at any practical size.
//! - **upper**: a thin cell's count is skewed (Poisson-like), so its large deviations are
//!   far likelier than the χ² law's. The rising sequences of 4 cards (cells of 1/24, 11/24,
//!   11/24, 1/24) reach the χ² law's 1e-7 point 38 times as often as 1e-7 at 149 deals, 15
//!   times at 300, 6.6 times at 600 (and its 1e-3 point 1.9, 1.4 and 1.2 times): a fair
//!   input of 150 deals of 4 cards was failed at p = 1.7e-8 when its exact p-value is
//!   1.3e-6. The factor falls like `exp(9.5/√e)` for the thinnest cell's expectation `e`:
//!   below 1.5 at 1e-7 from about 500 expected.
//!
//! **The walk.** Cells are taken thinnest first. At each cell the counts it can hold are
//! split by what the cells after it can still do: the smallest statistic they can add is
//! that of their trials spread in proportion to their expectations, `(R − E')²/E'`, so a
//! count for which even that reaches the observed statistic puts the whole subtree in the
//! upper tail, and its probability, a binomial tail of this cell's count given the trials
//! left, is added at once; the other counts are walked. The last two cells are one
//! binomial count, and the counts of it that keep the statistic at or below the observed
//! one form an interval (the statistic is a parabola in it), so both tails of a leaf are
//! binomial sums too. Only the lattice points of the ellipsoid `X <= x`, projected on the
//! cells before the last two, are visited: few exactly where the χ² law is far off (few
//! trials, or a thin cell), and at most [`BUDGET`] nodes and terms; beyond, the cells
//! expect enough for the χ² law (the caller reads it).
//!
//! Probabilities are products of binomials (each cell's count given the trials left),
//! summed in log space (a running log-sum-exp), so tails far below `f64`'s range keep their
//! magnitude. Ties count in both tails (`P(X >= x)` and `P(X <= x)` both hold the observed
//! vector), so the p-values are exact for the discrete law: never below the probability a
//! fair source gives them. Statistics within `1e-10` of each other (relative) are ties:
//! equal values reached by different sums differ by rounding only.

use statrs::distribution::{Binomial, DiscreteCDF};
use statrs::function::factorial::ln_factorial;

use super::pvalue::PValue;

/// Work a walk may do, in nodes (counts of a cell given the ones before) and in terms of
/// the binomial laws it sums: a few tens of milliseconds.
pub const BUDGET: u64 = 1 << 20;

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
}

/// The tails that could be computed exactly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExactTails {
    /// `P(X >= statistic)`.
    pub upper: Option<PValue>,
    /// `P(X <= statistic)`.
    pub lower: Option<PValue>,
}

/// Pearson's statistic `Σ (o_i - e_i)² / e_i`, cell by cell.
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
    if cells < 2 || trials == 0 || !statistic.is_finite() {
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
    let mut probabilities = law.probabilities();
    // Thinnest first: the walk enumerates all cells but the last two, whose spread is
    // then the widest handled in closed form.
    probabilities.sort_by(|a, b| a.total_cmp(b));
    let walk = Walk::new(trials, &probabilities, statistic, tolerance);
    if walk.bounding_box() > 2.0 * BUDGET as f64 {
        return none;
    }
    let mut walk = walk;
    if !walk.node(0, trials, 0.0, 0.0, false) {
        return none;
    }
    ExactTails {
        upper: Some(walk.upper.p_value()),
        lower: Some(walk.lower.p_value()),
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
        if ln_term == f64::NEG_INFINITY {
            return;
        }
        if ln_term > self.max {
            self.sum = self.sum * (self.max - ln_term).exp() + 1.0;
            self.max = ln_term;
        } else {
            self.sum += (ln_term - self.max).exp();
        }
    }

    /// The natural log of the sum (`-inf` for none).
    fn ln(&self) -> f64 {
        if self.sum == 0.0 {
            return f64::NEG_INFINITY;
        }
        self.max + self.sum.ln()
    }

    fn p_value(&self) -> PValue {
        PValue::from_log10((self.ln() / std::f64::consts::LN_10).min(0.0))
    }
}

/// The law of one cell's count given the trials left to it and the cells after it,
/// Binomial(`left`, share), over the window of counts any node can walk (the ellipsoid's
/// projection: those for which the cell's parabola alone stays within the bound), with
/// the mass on either side of the window: every interval a node asks for is a sum of
/// stored terms, and the tails beyond are two numbers.
struct CountTable {
    /// The window's first count (the window holds `terms.len()` counts).
    low: u64,
    /// `P(count = low + i) / e^ln_scale`.
    terms: Vec<f64>,
    /// `ln P(count = low + i)`: for sums whose terms underflow `terms` (far tails).
    ln_terms: Vec<f64>,
    /// `from_left[i]` = Σ of `terms[..i]`; `from_right[i]` = Σ of `terms[i..]`: each a sum
    /// of positive terms from its own end, so a window's edge is as precise as its terms.
    from_left: Vec<f64>,
    from_right: Vec<f64>,
    ln_scale: f64,
    /// `ln P(count < low)` and `ln P(count > high)`.
    ln_below: f64,
    ln_above: f64,
}

impl CountTable {
    fn new(left: u64, share: f64, window: Option<(u64, u64)>) -> Self {
        let share = share.clamp(0.0, 1.0);
        let Some((low, high)) = window else {
            return Self {
                low: 0,
                terms: Vec::new(),
                ln_terms: Vec::new(),
                from_left: vec![0.0],
                from_right: vec![0.0],
                ln_scale: 0.0,
                ln_below: 0.0,
                ln_above: f64::NEG_INFINITY,
            };
        };
        let ln_terms = binomial_ln_pmfs(left, share, low, high);
        let ln_scale = ln_terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        // Terms below e^-746 of the largest are 0 in `f64` (and `exp` takes its slow
        // underflow path to say so): they are summed from `ln_terms` when needed.
        let terms: Vec<f64> = ln_terms
            .iter()
            .map(|ln| {
                if ln - ln_scale < -746.0 {
                    0.0
                } else {
                    (ln - ln_scale).exp()
                }
            })
            .collect();
        let mut from_left = vec![0.0; terms.len() + 1];
        for (i, term) in terms.iter().enumerate() {
            from_left[i + 1] = from_left[i] + term;
        }
        let mut from_right = vec![0.0; terms.len() + 1];
        for (i, term) in terms.iter().enumerate().rev() {
            from_right[i] = from_right[i + 1] + term;
        }
        // The window sits around the count's mean, so each side's mass is a tail on its
        // own side, which statrs computes directly (no `1 − …`).
        let law =
            (share < 1.0 && share > 0.0).then(|| Binomial::new(share, left).expect("a share in (0, 1)"));
        let ln_below = match (&law, low) {
            (_, 0) => f64::NEG_INFINITY,
            (Some(law), _) => law.cdf(low - 1).ln(),
            (None, _) => {
                if share >= 1.0 {
                    0.0
                } else {
                    f64::NEG_INFINITY
                }
            }
        };
        let ln_above = match (&law, high) {
            (_, h) if h >= left => f64::NEG_INFINITY,
            (Some(law), _) => law.sf(high).ln(),
            (None, _) => {
                if share <= 0.0 {
                    0.0
                } else {
                    f64::NEG_INFINITY
                }
            }
        };
        Self {
            low,
            terms,
            ln_terms,
            from_left,
            from_right,
            ln_scale,
            ln_below,
            ln_above,
        }
    }

    /// `ln P(count = k)`, for `k` in the window.
    fn ln_pmf(&self, k: u64) -> f64 {
        self.terms[(k - self.low) as usize].ln() + self.ln_scale
    }

    /// `ln P(a <= count <= b)`, for `a..=b` within the window: summed term by term.
    fn ln_between(&self, a: u64, b: u64) -> f64 {
        if a > b {
            return f64::NEG_INFINITY;
        }
        let range = (a - self.low) as usize..=(b - self.low) as usize;
        let sum: f64 = self.terms[range.clone()].iter().sum();
        if sum > 0.0 {
            return sum.ln() + self.ln_scale;
        }
        // Every term below 1e-308 of the window's largest: summed as logarithms.
        let mut tiny = LogSum::new();
        for &ln_term in &self.ln_terms[range] {
            tiny.add(ln_term);
        }
        tiny.ln()
    }

    /// `ln P(count < a or count > b)`, for `a..=b` within the window, or of every count
    /// when `inside` is `None`.
    fn ln_outside(&self, inside: Option<(u64, u64)>) -> f64 {
        let Some((a, b)) = inside else {
            return 0.0;
        };
        let mut sum = LogSum::new();
        sum.add(self.ln_below);
        sum.add(self.ln_above);
        let end = self.low + self.terms.len() as u64;
        // Each edge from its running sum; only one that underflowed is summed again, as
        // logarithms.
        let left_part = self.from_left[(a - self.low) as usize];
        let right_part = self.from_right[(b - self.low) as usize + 1];
        if left_part > 0.0 {
            sum.add(left_part.ln() + self.ln_scale);
        } else if a > self.low {
            sum.add(self.ln_between(self.low, a - 1));
        }
        if right_part > 0.0 {
            sum.add(right_part.ln() + self.ln_scale);
        } else if b + 1 < end {
            sum.add(self.ln_between(b + 1, end - 1));
        }
        sum.ln()
    }
}

/// Counts between two exact values of [`binomial_ln_pmfs`]: the rounding of the running
/// sum of ratios grows by about `1e-16` of it a count, so stays below `1e-12` of a term.
const EXACT_EVERY: u64 = 256;

/// `ln P(count = k)` for `k` in `low..=high`, count ~ Binomial(`left`, `share`). Each term
/// comes from the one before by the ratio `P(k + 1)/P(k) = (left − k)/(k + 1) · share/(1 −
/// share)`, one logarithm, where the closed form costs three `ln_gamma`s; every
/// [`EXACT_EVERY`] counts it restarts from the closed form. A window of a million counts (a
/// one-sided law of two cells: Sattolo's 2 cards, a million deals) takes milliseconds,
/// not half a second.
fn binomial_ln_pmfs(left: u64, share: f64, low: u64, high: u64) -> Vec<f64> {
    let (ln_share, ln_rest) = (share.ln(), (-share).ln_1p());
    let exact = |k: u64| {
        if share >= 1.0 {
            return if k == left { 0.0 } else { f64::NEG_INFINITY };
        }
        binomial_ln_pmf(left, k, ln_share, ln_rest)
    };
    if share <= 0.0 || share >= 1.0 {
        return (low..=high).map(exact).collect();
    }
    let ln_odds = ln_share - ln_rest;
    let mut ln_terms = Vec::with_capacity((high - low + 1) as usize);
    let (mut start, mut steps) = (0.0, 0.0);
    for k in low..=high {
        if (k - low) % EXACT_EVERY == 0 {
            start = exact(k);
            steps = 0.0;
        } else {
            steps += ((left - k + 1) as f64 / k as f64).ln() + ln_odds;
        }
        ln_terms.push(start + steps);
    }
    ln_terms
}

/// `ln P(count = k)` for count ~ Binomial(`left`, share) in closed form, given `ln share`
/// and `ln(1 − share)`.
fn binomial_ln_pmf(left: u64, k: u64, ln_share: f64, ln_rest: f64) -> f64 {
    ln_factorial(left) - ln_factorial(k) - ln_factorial(left - k)
        + k as f64 * ln_share
        + (left - k) as f64 * ln_rest
}

/// One enumeration of count vectors, thinnest cell first.
struct Walk {
    expected: Vec<f64>,
    probabilities: Vec<f64>,
    /// `Σ_{j >= i} p_j`.
    mass_from: Vec<f64>,
    /// `Σ_{j >= i} e_j`.
    expected_from: Vec<f64>,
    /// Vectors with a statistic below this are not yet in the upper tail.
    upper_bound: f64,
    /// Vectors with a statistic at most this are in the lower tail.
    lower_bound: f64,
    lower: LogSum,
    upper: LogSum,
    visited: u64,
    /// The tables of each cell's count, by cell and trials left.
    tables: Vec<std::collections::HashMap<u64, std::rc::Rc<CountTable>>>,
}

impl Walk {
    fn new(trials: u64, probabilities: &[f64], statistic: f64, tolerance: f64) -> Self {
        let t = trials as f64;
        let expected: Vec<f64> = probabilities.iter().map(|p| t * p).collect();
        let mut mass_from = vec![0.0; probabilities.len() + 1];
        let mut expected_from = vec![0.0; probabilities.len() + 1];
        for i in (0..probabilities.len()).rev() {
            mass_from[i] = mass_from[i + 1] + probabilities[i];
            expected_from[i] = expected_from[i + 1] + expected[i];
        }
        Self {
            tables: vec![std::collections::HashMap::new(); probabilities.len()],
            expected,
            probabilities: probabilities.to_vec(),
            mass_from,
            expected_from,
            upper_bound: statistic - tolerance,
            lower_bound: statistic + tolerance,
            lower: LogSum::new(),
            upper: LogSum::new(),
            visited: 0,
        }
    }

    /// The lattice points of the box around the ellipsoid `X <= x` over the cells walked
    /// one by one and the last free one, whose counts a leaf sums: about the work, before
    /// any is done.
    fn bounding_box(&self) -> f64 {
        let walked = self.expected.len().saturating_sub(1);
        self.expected[..walked]
            .iter()
            .map(|e| 2.0 * (self.lower_bound.max(0.0) * e).sqrt() + 1.0)
            .product()
    }

    /// The statistic that cell `cell` holding `count` of the `left` trials adds at least,
    /// with the cells after it: `term(count) + (left − count − E')² / E'`, a parabola in
    /// `count`, as (its least value, where it is least, its curvature).
    fn parabola(&self, cell: usize, left: u64) -> (f64, f64, f64) {
        let a = self.expected[cell];
        let rest = self.expected_from[cell + 1];
        let b = left as f64 - rest;
        let centre = (a * rest + b * a) / (a + rest);
        let least = (a - b) * (a - b) / (a + rest);
        let curvature = (a + rest) / (a * rest);
        (least, centre, curvature)
    }

    /// `term(count) + (left − count − E')² / E'` itself.
    fn at(&self, cell: usize, left: u64, count: u64) -> f64 {
        let a = self.expected[cell];
        let rest = self.expected_from[cell + 1];
        let here = count as f64 - a;
        let after = (left - count) as f64 - rest;
        here * here / a + after * after / rest
    }

    /// The counts `0..=left` of `cell` whose parabola, added to `so_far`, stays below
    /// `bound` (`strict`) or at most `bound`: an interval, found from the parabola and then
    /// checked count by count at its ends (the roots' rounding cannot move an end).
    fn interval(&self, cell: usize, left: u64, so_far: f64, bound: f64, strict: bool) -> Option<(u64, u64)> {
        let (least, centre, curvature) = self.parabola(cell, left);
        let room = bound - so_far - least;
        if room < 0.0 {
            return None;
        }
        let radius = (room / curvature).sqrt();
        let inside = |count: u64| {
            let value = so_far + self.at(cell, left, count);
            if strict { value < bound } else { value <= bound }
        };
        let mut low = (centre - radius - 2.0).ceil().max(0.0) as u64;
        let mut high = ((centre + radius + 2.0).floor().max(0.0) as u64).min(left);
        while low <= high && !inside(low) {
            low += 1;
        }
        while high > low && !inside(high) {
            high -= 1;
        }
        (low <= high && inside(low)).then_some((low, high))
    }

    /// The table of cell `cell`'s count with `left` trials left, made once.
    fn table(&mut self, cell: usize, left: u64) -> std::rc::Rc<CountTable> {
        if let Some(table) = self.tables[cell].get(&left) {
            return table.clone();
        }
        let share = self.probabilities[cell] / self.mass_from[cell];
        let window = self.interval(cell, left, 0.0, self.lower_bound, false);
        // Each term of a table is work, as a node is.
        self.visited += window.map_or(0, |(low, high)| high - low + 1);
        let table = std::rc::Rc::new(CountTable::new(left, share, window));
        self.tables[cell].insert(left, table.clone());
        table
    }

    /// Walks cell `cell` with `left` trials, the statistic so far `so_far` and the prefix's
    /// log-probability; `upper_counted` when the prefix's whole subtree is already in the
    /// upper tail (a tie band: it is walked for the lower tail only). False when the budget
    /// ran out.
    fn node(&mut self, cell: usize, left: u64, so_far: f64, ln_prefix: f64, upper_counted: bool) -> bool {
        self.visited += 1;
        if self.visited > BUDGET {
            return false;
        }
        let table = self.table(cell, left);
        let below_upper = self.interval(cell, left, so_far, self.upper_bound, true);
        if !upper_counted {
            self.upper.add(ln_prefix + table.ln_outside(below_upper));
        }
        let Some((low, high)) = self.interval(cell, left, so_far, self.lower_bound, false) else {
            return true;
        };
        if cell + 2 == self.expected.len() {
            // The last two cells: one binomial count, the statistic exact.
            self.visited += high - low + 1;
            self.lower.add(ln_prefix + table.ln_between(low, high));
            return self.visited <= BUDGET;
        }
        for held in low..=high {
            let surely_upper = upper_counted || below_upper.is_none_or(|(from, to)| held < from || held > to);
            let here = held as f64 - self.expected[cell];
            let next = so_far + here * here / self.expected[cell];
            if !self.node(
                cell + 1,
                left - held,
                next,
                ln_prefix + table.ln_pmf(held),
                surely_upper,
            ) {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::chi_square::ln_multinomial;

    /// Both tails by brute force over every vector of `trials` in 3 cells.
    fn brute_force(statistic: f64, trials: u64, law: [f64; 3]) -> (f64, f64) {
        let (mut upper, mut lower) = (0.0, 0.0);
        for a in 0..=trials {
            for b in 0..=trials - a {
                let c = trials - a - b;
                let counts = [a, b, c];
                let x = pearson(&counts, |i| trials as f64 * law[i]);
                let ln_p = ln_multinomial(&counts, trials, |i| law[i]);
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
    fn the_running_binomial_terms_are_the_closed_form_ones() {
        // Deterministic arithmetic. The closed form subtracts numbers as large as
        // ln(left!) (1.3e7 for a million), so it is itself off by a few of their ulps
        // (2e-9 each); 64 of them bound both forms' rounding, and a wrong ratio is off by
        // whole units.
        for (left, share, low, high) in [
            (1_000_000, 0.5, 0, 1_000_000),
            (37, 1.0 / 24.0, 0, 37),
            (5_000, 0.3, 1_200, 1_800),
        ] {
            let running = binomial_ln_pmfs(left, share, low, high);
            for (k, ln_p) in (low..=high).zip(running) {
                let closed = binomial_ln_pmf(left, k, share.ln(), (-share).ln_1p());
                assert!(
                    (ln_p - closed).abs() <= 64.0 * f64::EPSILON * ln_factorial(left).max(1.0),
                    "Binomial({left}, {share}) at {k}: {ln_p} against {closed}"
                );
            }
        }
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
    fn both_tails_agree_with_brute_force_where_every_vector_is_too_many_to_list() {
        // 900 trials in 3 cells make C(902, 2) = 406,351 vectors: the walk visits only the
        // ellipsoid's, and gets both tails.
        let law = [0.5, 0.3, 0.2];
        let trials = 900;
        for counts in [
            [450u64, 270, 180],
            [452, 268, 180],
            [440, 280, 180],
            [470, 250, 180],
            [520, 200, 180],
        ] {
            let x = pearson(&counts, |i| trials as f64 * law[i]);
            let tails = pearson_tails(x, trials, CellLaw::Given(&law));
            let (upper_brute, lower_brute) = brute_force(x, trials, law);
            let lower = probability(tails.lower.expect("a small ellipsoid"));
            let upper = probability(tails.upper.expect("a small ellipsoid"));
            assert!(
                (lower - lower_brute).abs() <= 1e-10 * lower_brute,
                "{counts:?}: lower {lower} vs {lower_brute}"
            );
            assert!(
                (upper - upper_brute).abs() <= 1e-10 * upper_brute,
                "{counts:?}: upper {upper} vs {upper_brute}"
            );
        }
    }

    #[test]
    fn a_thin_cells_far_tail_is_exact_where_the_chi_square_law_is_far_too_small() {
        // The rising sequences of 4 cards pooled at 149 pairs of deals: cells 1/24, 11/24,
        // 11/24, 1/24. A fair input had 2, 61, 65, 21: the χ² law said 1.7e-8 (and failed
        // it), the exact tail is 1.3e-6, 77 times larger.
        let law = [1.0 / 24.0, 11.0 / 24.0, 11.0 / 24.0, 1.0 / 24.0];
        let trials = 149u64;
        let counts = [2u64, 61, 65, 21];
        let x = pearson(&counts, |i| trials as f64 * law[i]);
        let tails = pearson_tails(x, trials, CellLaw::Given(&law));
        let upper = probability(tails.upper.expect("a walk of a few thousand nodes"));
        // Brute force over the C(152, 3) = 573,800 vectors.
        let mut brute = 0.0;
        for a in 0..=trials {
            for b in 0..=trials - a {
                for c in 0..=trials - a - b {
                    let d = trials - a - b - c;
                    let vector = [a, b, c, d];
                    if pearson(&vector, |i| trials as f64 * law[i]) >= x - 1e-9 {
                        let ln_p = ln_multinomial(&vector, trials, |i| law[i]);
                        brute += ln_p.exp();
                    }
                }
            }
        }
        assert!((upper - brute).abs() <= 1e-9 * brute, "{upper} vs {brute}");
        assert!(upper > 1e-6 && upper < 2e-6, "{upper}");
        let chi_square = probability(crate::stats::pvalue::chi_square_upper_tail(x, 3.0));
        assert!(upper > 50.0 * chi_square, "{upper} vs the χ² law's {chi_square}");
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
    fn a_tail_far_below_the_windows_largest_term_keeps_its_magnitude() {
        // 999 selections identical (every one in the first of 2 cells, p = 0.3): the one
        // vector that extreme has probability 0.3^999, about 10^-522.4, far below the
        // largest term of its window (which a plain sum would lose).
        let law = [0.3, 0.7];
        let x = pearson(&[999, 0], |i| 999.0 * law[i]);
        let upper = pearson_tails(x, 999, CellLaw::Given(&law)).upper.unwrap();
        let expected = 999.0 * 0.3f64.log10();
        assert!(
            (upper.log10() - expected).abs() < 1e-6,
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
