//! The noncentral χ² distribution, which statrs does not have.
//!
//! A χ² statistic computed on data from a biased shuffle is, for many trials, close to a
//! noncentral χ² with the test's degrees of freedom and a noncentrality that grows with
//! the number of trials ([`super::power`] uses this to say how many trials a test needs).
//!
//! With `df` degrees of freedom and noncentrality `λ`, the distribution is the Poisson
//! mixture of central χ² laws
//!
//! `P(X <= x) = Σ_j w_j · P(χ²_{df+2j} <= x)`, with `w_j = e^{-λ/2} (λ/2)^j / j!`,
//!
//! and the upper tail is the same mixture of central upper tails. Each central term is a
//! regularized incomplete gamma function of `(df/2 + j, x/2)` (statrs' `gamma_lr` for the
//! lower tail, `gamma_ur` for the upper; each is accurate when its own value is small).
//!
//! The sum starts at the Poisson mode `j = ⌊λ/2⌋` and goes outward in both directions.
//! The mode's weight is computed as a logarithm (`e^{-λ/2}` alone underflows once
//! `λ > 1490`), from a Stirling expansion that does not cancel for large `λ`; the others
//! follow from it by the ratio `w_{j+1}/w_j = (λ/2)/(j+1)`, shrinking away from the mode.
//!
//! # Accuracy
//!
//! Each direction stops once the Poisson mass it has not summed, times a bound on the
//! central probabilities it would multiply, is at most `5e-15` times the sum so far:
//!
//! - beyond the mode the weights fall at least geometrically, so the mass above `j` is at
//!   most `w_{j+1} / (1 - (λ/2)/(j+2))`, and the mass below `j` (below the mode) at most
//!   `w_{j-1} / (1 - (j-1)/(λ/2))`;
//! - the central probabilities are at most 1, and better: `P(χ²_{df+2j} <= x)` falls as
//!   `j` grows and `P(χ²_{df+2j} > x)` rises, so on the side where the summed term
//!   shrinks the last central probability bounds all the remaining ones.
//!
//! The truncation error is therefore at most `1e-14` times the result (so below `1e-14`
//! in absolute terms, and small tails keep their relative accuracy, which is why the upper
//! tail is summed directly and never taken as `1 - cdf`). What remains is the rounding of
//! statrs' incomplete gamma, whose prefactor `a·ln y - y - ln Γ(a)` loses about
//! `ulp(a·ln y)`: a relative error near `1e-15` for small arguments that grows to about
//! `1e-10` at `λ = 10^5` (checked against 50-digit values in the tests). Values below
//! about `1e-308` come out as 0.

use statrs::function::gamma::{gamma_lr, gamma_ur, ln_gamma};

/// Each direction of the sum stops when what it leaves out is at most this times the sum.
const TRUNCATION: f64 = 5e-15;

/// `P(X <= x)` for `X` noncentral χ² with `df` degrees of freedom and noncentrality
/// `lambda` (`λ = Σ μ_i²` for a sum of squared unit normals with means `μ_i`).
///
/// Equal to the central χ² cdf (statrs' `ChiSquared::cdf`) when `lambda` is 0.
///
/// # Panics
///
/// If `df` is not positive and finite, `lambda` is negative or not finite, or `x` is NaN.
pub fn noncentral_chi_square_cdf(x: f64, df: f64, lambda: f64) -> f64 {
    check_arguments(x, df, lambda);
    if x <= 0.0 {
        return 0.0;
    }
    if x.is_infinite() {
        return 1.0;
    }
    poisson_mixture(x, df, lambda, Tail::Lower)
}

/// `P(X > x)` for `X` noncentral χ² with `df` degrees of freedom and noncentrality
/// `lambda`, summed directly so that it keeps its relative accuracy when it is small.
///
/// Equal to the central χ² upper tail (statrs' `ChiSquared::sf`) when `lambda` is 0.
///
/// # Panics
///
/// As [`noncentral_chi_square_cdf`].
pub fn noncentral_chi_square_sf(x: f64, df: f64, lambda: f64) -> f64 {
    check_arguments(x, df, lambda);
    if x <= 0.0 {
        return 1.0;
    }
    if x.is_infinite() {
        return 0.0;
    }
    poisson_mixture(x, df, lambda, Tail::Upper)
}

fn check_arguments(x: f64, df: f64, lambda: f64) {
    assert!(df > 0.0 && df.is_finite(), "a χ² law needs df > 0, not {df}");
    assert!(
        lambda >= 0.0 && lambda.is_finite(),
        "the noncentrality must be finite and >= 0, not {lambda}"
    );
    assert!(!x.is_nan(), "the argument of a χ² cdf is NaN");
}

#[derive(Clone, Copy)]
enum Tail {
    Lower,
    Upper,
}

impl Tail {
    /// `P(χ²_{2a} <= 2y)` or `P(χ²_{2a} > 2y)`.
    fn central(self, a: f64, y: f64) -> f64 {
        match self {
            Tail::Lower => gamma_lr(a, y),
            Tail::Upper => gamma_ur(a, y),
        }
    }
}

/// `Σ_j w_j · central(df/2 + j, x/2)` for `x` positive and finite.
fn poisson_mixture(x: f64, df: f64, lambda: f64, tail: Tail) -> f64 {
    let y = x / 2.0;
    let a = df / 2.0;
    if lambda == 0.0 {
        return tail.central(a, y);
    }
    let mu = lambda / 2.0;
    let mode = mu.floor();
    // At least 1/√(2π(μ+1)), so never underflows; the recurrences below multiply it by
    // ratios in (0, 1], whose rounding (an ulp a step) is smaller than that of adding
    // logarithms (an ulp of |ln w| a step), and let far weights underflow gradually.
    let mode_weight = ln_poisson_weight(mode, mu).exp();

    let mut sum = mode_weight * tail.central(a + mode, y);

    // Upward: central lower tails fall with j, upper tails rise towards 1.
    let mut weight = mode_weight;
    let mut j = mode;
    loop {
        j += 1.0;
        weight *= mu / j;
        let central = tail.central(a + j, y);
        sum += weight * central;
        // Mass above j: w_{j+1} Σ_k r^k with r = μ/(j+2) < 1 (as j + 2 > μ + 1).
        let mass_above = weight * (mu / (j + 1.0)) / (1.0 - mu / (j + 2.0));
        let central_bound = match tail {
            Tail::Lower => central,
            Tail::Upper => 1.0,
        };
        if mass_above * central_bound <= TRUNCATION * sum {
            break;
        }
    }

    // Downward: central lower tails rise with falling j, upper tails fall.
    let mut weight = mode_weight;
    let mut j = mode;
    while j > 0.0 {
        weight *= j / mu; // w_{j-1} = w_j · j/μ
        j -= 1.0;
        let central = tail.central(a + j, y);
        sum += weight * central;
        if j == 0.0 {
            break;
        }
        // Mass below j: w_{j-1} Σ_k r^k with r = (j-1)/μ < 1 (as j < μ).
        let mass_below = weight * (j / mu) / (1.0 - (j - 1.0) / mu);
        let central_bound = match tail {
            Tail::Lower => 1.0,
            Tail::Upper => central,
        };
        if mass_below * central_bound <= TRUNCATION * sum {
            break;
        }
    }
    sum.min(1.0)
}

/// `ln(e^{-μ} μ^m / m!)` for a whole number `m >= 0`, with `μ - m` in `[0, 1)`.
///
/// Written as `m·ln(1 + d/m) - d - ½ln(2πm) - δ(m)` with `d = μ - m` and `δ` the error of
/// Stirling's formula, so that the large terms `m·ln μ` and `ln m!` never meet (their
/// difference would lose `ulp(m ln m)`, about `1e-10` relative at `m = 5·10^4`).
fn ln_poisson_weight(m: f64, mu: f64) -> f64 {
    if m == 0.0 {
        return -mu;
    }
    let d = mu - m;
    m * (d / m).ln_1p() - d - 0.5 * (std::f64::consts::TAU * m).ln() - stirling_error(m)
}

/// `δ(m) = ln m! - (m + ½) ln m + m - ½ ln(2π)`.
fn stirling_error(m: f64) -> f64 {
    if m < 16.0 {
        // Small terms: no cancellation to speak of.
        return ln_gamma(m + 1.0) - (m + 0.5) * m.ln() + m - 0.5 * std::f64::consts::TAU.ln();
    }
    // Asymptotic series; the first omitted term, 1/(1188 m^9), is below 2e-14 for m >= 16.
    let inverse = 1.0 / m;
    let inverse_squared = inverse * inverse;
    inverse
        * (1.0 / 12.0
            - inverse_squared * (1.0 / 360.0 - inverse_squared * (1.0 / 1260.0 - inverse_squared / 1680.0)))
}

#[cfg(test)]
// Reference values are kept with the 17 digits they were printed with.
#[allow(clippy::excessive_precision)]
mod tests {
    use super::*;
    use statrs::distribution::{ChiSquared, ContinuousCDF};

    fn relative_error(actual: f64, expected: f64) -> f64 {
        ((actual - expected) / expected).abs()
    }

    #[test]
    fn published_values_mathematica_via_burkardt() {
        // John Burkardt, TEST_VALUES library, `chi_square_noncentral_cdf_values`
        // (LGPL; values computed in Mathematica with NoncentralChiSquareDistribution[df, λ],
        // as stated there). (x, df, λ, cdf). Printed to 16 digits; we re-derived each with a
        // 50-digit Poisson mixture (mpmath) and they agree to every printed digit.
        let table = [
            (3.0, 1.0, 0.5, 0.8399444269398261),
            (3.0, 2.0, 0.5, 0.6959060300435139),
            (3.0, 3.0, 0.5, 0.5350879697078847),
            (3.0, 1.0, 1.0, 0.7647841496310313),
            (3.0, 2.0, 1.0, 0.6206436532195436),
            (3.0, 3.0, 1.0, 0.4691667375373180),
            (3.0, 1.0, 5.0, 0.3070884345937569),
            (3.0, 2.0, 5.0, 0.2203818092990903),
            (3.0, 3.0, 5.0, 0.1500251895581519),
            (3.0, 1.0, 20.0, 0.3071163194335791e-2),
            (3.0, 2.0, 20.0, 0.1763982670131894e-2),
            (3.0, 3.0, 20.0, 0.9816792594625022e-3),
            (60.0, 60.0, 30.0, 0.1651753140866208e-1),
            (60.0, 80.0, 30.0, 0.2023419573950451e-3),
            (60.0, 100.0, 30.0, 0.4984476352854074e-6),
            (0.05, 1.0, 5.0, 0.1513252400654827e-1),
            (0.05, 2.0, 5.0, 0.2090414910614367e-2),
            (0.05, 3.0, 5.0, 0.2465021206048452e-3),
            (4.0, 10.0, 2.0, 0.2636835050342939e-1),
            (4.0, 10.0, 3.0, 0.1857983220079215e-1),
            (4.0, 10.0, 4.0, 0.1305736595486640e-1),
            (5.0, 10.0, 2.0, 0.5838039534819351e-1),
            (5.0, 10.0, 3.0, 0.4249784402463712e-1),
            (5.0, 10.0, 4.0, 0.3082137716021596e-1),
            (6.0, 10.0, 2.0, 0.1057878223400849),
            (6.0, 10.0, 3.0, 0.7940842984598509e-1),
            (6.0, 10.0, 4.0, 0.5932010895599639e-1),
            (5.0, 8.0, 0.5, 0.2110395656918684),
        ];
        // Sixteen printed digits (5e-16) are finer than what statrs' gamma allows.
        for (x, df, lambda, cdf) in table {
            let ours = noncentral_chi_square_cdf(x, df, lambda);
            assert!(
                relative_error(ours, cdf) < tolerance(x, df, lambda),
                "cdf({x}; {df}, {lambda}) = {ours:e}, published {cdf:e}"
            );
        }
    }

    #[test]
    fn published_values_nag_g01gcc_example() {
        // NAG Library, routine g01gcc (nag_stat_prob_chisq_noncentral), example program
        // results: (x, df, λ, lower tail) printed to 4 decimals, so ±5e-5.
        for (x, df, lambda, cdf) in [
            (8.26, 20.0, 3.5, 0.0032),
            (6.2, 7.5, 2.0, 0.2699),
            (55.76, 45.0, 1.0, 0.8443),
        ] {
            let ours = noncentral_chi_square_cdf(x, df, lambda);
            assert!(
                (ours - cdf).abs() <= 5e-5,
                "cdf({x}; {df}, {lambda}) = {ours}, NAG {cdf}"
            );
        }
    }

    /// (x, df, λ, cdf, sf) from a 50-digit Poisson mixture, produced by
    /// `python ref.py X,DF,LAMBDA ...` with mpmath 1.4.1 (`mp.dps = 50`): the sum of
    /// `exp(-μ + j ln μ - lnΓ(j+1)) · gammainc(df/2 + j, …, regularized=True)` over
    /// `|j - ⌊μ⌋| <= 14√μ + 60` (the Poisson mass left out is below 1e-40), rounded to 17
    /// digits. scipy 1.17.1's `ncx2.cdf`/`ncx2.sf` agree to about 1e-12 relative except
    /// where noted. Points: for each df and λ, the mean minus 4 sd (or mean/50 where that
    /// is negative) and the mean plus 7 sd, rounded to 3 digits.
    const GRID: [(f64, f64, f64, f64, f64); 40] = [
        (0.02, 1.0, 0.0, 1.1246291601828489e-1, 8.8753708398171511e-1),
        (10.9, 1.0, 0.0, 9.9903835739927539e-1, 9.6164260072461461e-4),
        (0.03, 1.0, 0.5, 1.0735957857198559e-1, 8.9264042142801441e-1),
        (15.5, 1.0, 0.5, 9.993791185050412e-1, 6.208814949588022e-4),
        (0.22, 1.0, 10.0, 3.3971190870352242e-3, 9.9660288091296478e-1),
        (56.4, 1.0, 10.0, 9.9999312186154839e-1, 6.8781384516105735e-6),
        (748.0, 1.0, 1000.0, 9.6348952115797011e-6, 9.9999036510478842e-1),
        (1440.0, 1.0, 1000.0, 9.9999999987301857e-1, 1.2698142947354325e-10),
        (97500.0, 1.0, 1e5, 3.4768255100448479e-5, 9.9996523174489955e-1),
        (104000.0, 1.0, 1e5, 9.9999999981062642e-1, 1.8937358212373416e-10),
        (0.1, 5.0, 0.0, 1.6231661192261504e-4, 9.9983768338807738e-1),
        (27.1, 5.0, 0.0, 9.9994545928368813e-1, 5.4540716311870764e-5),
        (0.11, 5.0, 0.5, 1.6048137578544007e-4, 9.9983951862421456e-1),
        (29.7, 5.0, 0.5, 9.9994951925290946e-1, 5.0480747090544768e-5),
        (0.3, 5.0, 10.0, 1.95431258656656e-5, 9.9998045687413433e-1),
        (64.5, 5.0, 10.0, 9.9999635097028336e-1, 3.6490297166398379e-6),
        (752.0, 5.0, 1000.0, 9.8602850403654408e-6, 9.9999013971495963e-1),
        (1450.0, 5.0, 1000.0, 9.9999999992155967e-1, 7.8440326056548995e-11),
        (97500.0, 5.0, 1e5, 3.384952907401971e-5, 9.9996615047092598e-1),
        (104000.0, 5.0, 1e5, 9.9999999980286716e-1, 1.9713284379168679e-10),
        (43.4, 100.0, 0.0, 1.4196219905104911e-7, 9.9999985803780095e-1),
        (199.0, 100.0, 0.0, 9.9999998473316124e-1, 1.5266838761002413e-8),
        (43.6, 100.0, 0.5, 1.4033660068269945e-7, 9.9999985966339932e-1),
        (200.0, 100.0, 0.5, 9.9999998476193898e-1, 1.523806101501645e-8),
        (48.0, 100.0, 10.0, 1.5437645549399462e-7, 9.9999984562354451e-1),
        (218.0, 100.0, 10.0, 9.9999998431404012e-1, 1.5685959878831188e-8),
        (841.0, 100.0, 1000.0, 1.0347242995098085e-5, 9.999896527570049e-1),
        (
            1550.0,
            100.0,
            1000.0,
            9.9999999989064412e-1,
            1.0935587740724898e-10,
        ),
        (97600.0, 100.0, 1e5, 3.5150524585640454e-5, 9.9996484947541436e-1),
        // scipy's ncx2.cdf gives exactly 1 here and its sf 9.6929119529522e-15 (2e-11 off).
        (
            105000.0,
            100.0,
            1e5,
            9.9999999999999031e-1,
            9.6929119529753306e-15,
        ),
        (2310.0, 2601.0, 0.0, 1.4167143597413484e-5, 9.9998583285640259e-1),
        (3110.0, 2601.0, 0.0, 9.9999999998557009e-1, 1.4429909532392766e-11),
        (2310.0, 2601.0, 0.5, 1.3757065133209569e-5, 9.9998624293486679e-1),
        (3110.0, 2601.0, 0.5, 9.9999999998482999e-1, 1.5170010441191422e-11),
        (2320.0, 2601.0, 10.0, 1.5246208048797887e-5, 9.999847537919512e-1),
        (
            3120.0,
            2601.0,
            10.0,
            9.9999999998302246e-1,
            1.6977542223182832e-11,
        ),
        (
            3220.0,
            2601.0,
            1000.0,
            2.0176265584960235e-5,
            9.9997982373441504e-1,
        ),
        (
            4270.0,
            2601.0,
            1000.0,
            9.9999999998078822e-1,
            1.9211776483587083e-11,
        ),
        (
            100000.0,
            2601.0,
            1e5,
            1.9702676950446815e-5,
            9.9998029732304955e-1,
        ),
        (
            107000.0,
            2601.0,
            1e5,
            9.9999999999601408e-1,
            3.985923914798184e-12,
        ),
    ];

    /// The relative error allowed against a reference value. Each central term's
    /// prefactor `exp(a·ln y - y - ln Γ(a))` in statrs is computed from numbers as large
    /// as `a·ln y`, with `a = df/2 + j`, `j` up to about `λ/2` and `y = x/2`, and loses a few
    /// ulps of that: `5e-16 · (df + λ + x) · ln x`, plus a floor for terms near 1. That is
    /// 1e-13 for the small cases and 1e-9 at λ = 10^5; the errors seen are 3 to 30 times
    /// smaller (largest: 4e-11, at x = 107000, df = 2601, λ = 10^5).
    fn tolerance(x: f64, df: f64, lambda: f64) -> f64 {
        5e-16 * (50.0 + (df + lambda + x) * x.max(std::f64::consts::E).ln())
    }

    #[test]
    fn both_tails_against_high_precision_values() {
        for (x, df, lambda, cdf, sf) in GRID {
            let tolerance = tolerance(x, df, lambda);
            let our_cdf = noncentral_chi_square_cdf(x, df, lambda);
            let our_sf = noncentral_chi_square_sf(x, df, lambda);
            assert!(
                relative_error(our_cdf, cdf) < tolerance,
                "cdf({x}; {df}, {lambda}) = {our_cdf:e}, expected {cdf:e}"
            );
            assert!(
                relative_error(our_sf, sf) < tolerance,
                "sf({x}; {df}, {lambda}) = {our_sf:e}, expected {sf:e}"
            );
        }
    }

    #[test]
    fn central_case_is_statrs_exactly() {
        for df in [1.0, 5.0, 100.0, 2601.0] {
            let central = ChiSquared::new(df).unwrap();
            for x in [0.01, 1.0, df, 3.0 * df + 50.0] {
                assert_eq!(noncentral_chi_square_cdf(x, df, 0.0), central.cdf(x));
                assert_eq!(noncentral_chi_square_sf(x, df, 0.0), central.sf(x));
            }
        }
    }

    #[test]
    fn tails_are_complementary_and_monotone() {
        for (df, lambda) in [(1.0, 0.5), (5.0, 10.0), (100.0, 1000.0), (2601.0, 3e4)] {
            let mean = df + lambda;
            let mut previous_cdf = 0.0;
            for step in 1..=40 {
                let x = mean * f64::from(step) / 20.0;
                let cdf = noncentral_chi_square_cdf(x, df, lambda);
                let sf = noncentral_chi_square_sf(x, df, lambda);
                assert!(
                    (cdf + sf - 1.0).abs() < 1e-12,
                    "df {df} λ {lambda} x {x}: {cdf} + {sf}"
                );
                assert!(cdf >= previous_cdf, "cdf falls at x = {x}");
                previous_cdf = cdf;
            }
            // Stochastically increasing in λ.
            let x = mean;
            assert!(noncentral_chi_square_sf(x, df, lambda * 1.01) > noncentral_chi_square_sf(x, df, lambda));
        }
    }

    #[test]
    fn far_tails_keep_their_magnitude() {
        // Upper tails far below 1e-16, which `1 - cdf` would give as 0; the same 50-digit
        // mpmath computation as GRID (scipy agrees to 1e-13 relative).
        for (x, df, lambda, sf) in [
            (200.0, 5.0, 10.0, 4.7301792376365277e-27),
            (1000.0, 100.0, 10.0, 4.4461082685877169e-134),
            (5000.0, 2601.0, 1000.0, 1.3952360056136227e-39),
        ] {
            let ours = noncentral_chi_square_sf(x, df, lambda);
            assert!(
                relative_error(ours, sf) < tolerance(x, df, lambda),
                "sf({x}; {df}, {lambda}) = {ours:e}, expected {sf:e}"
            );
            // The cdf is 1 to within the rounding of a few hundred Poisson weights (each
            // an ulp or two off): it cannot carry this tail.
            assert!(1.0 - noncentral_chi_square_cdf(x, df, lambda) < 1e-14);
        }
    }

    #[test]
    fn edges() {
        assert_eq!(noncentral_chi_square_cdf(0.0, 3.0, 2.0), 0.0);
        assert_eq!(noncentral_chi_square_sf(0.0, 3.0, 2.0), 1.0);
        assert_eq!(noncentral_chi_square_cdf(-1.0, 3.0, 2.0), 0.0);
        assert_eq!(noncentral_chi_square_cdf(f64::INFINITY, 3.0, 2.0), 1.0);
        assert_eq!(noncentral_chi_square_sf(f64::INFINITY, 3.0, 2.0), 0.0);
        // Far beyond any term: both the weights and the central tails underflow.
        assert_eq!(noncentral_chi_square_sf(1e7, 5.0, 10.0), 0.0);
        assert_eq!(noncentral_chi_square_cdf(1e-3, 5.0, 1e5), 0.0);
    }

    #[test]
    fn stirling_weight_matches_the_direct_formula_where_that_is_exact_enough() {
        for (m, mu) in [(16.0, 16.5), (40.0, 40.25), (300.0, 300.9)] {
            let direct: f64 = -mu + m * f64::ln(mu) - ln_gamma(m + 1.0);
            let ours = ln_poisson_weight(m, mu);
            assert!((ours - direct).abs() < 1e-12, "m {m}: {ours} vs {direct}");
        }
        // Poisson(5·10^4) mode weight ≈ 1/√(2π·5·10^4) (1 - 1/(12·5·10^4)).
        let mode = ln_poisson_weight(5e4, 5e4).exp();
        let approximation = (1.0 - 1.0 / 6e5) / (std::f64::consts::TAU * 5e4).sqrt();
        assert!(relative_error(mode, approximation) < 1e-9);
    }
}
