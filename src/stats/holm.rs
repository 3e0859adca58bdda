//! Holm's step-down correction over the tests of one result.
//!
//! One result runs several tests (orders, positions, fixed points, cycles); taking the
//! smallest raw p-value would make a fair shuffle "fail" more often than α. Holm's method
//! controls the family-wise error rate under any dependence between the tests (these are
//! strongly dependent: all come from the same tally), and is uniformly more powerful than
//! Bonferroni. Computed in log space so that p-values below 1e-308 survive.

use super::pvalue::PValue;

/// Holm-adjusted p-values, in the order given.
pub fn holm_adjust(p_values: &[PValue]) -> Vec<PValue> {
    let m = p_values.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| {
        p_values[a]
            .log10()
            .total_cmp(&p_values[b].log10())
            .then(a.cmp(&b))
    });
    let mut adjusted = vec![PValue::ONE; m];
    let mut running_max = f64::NEG_INFINITY;
    for (step, &index) in order.iter().enumerate() {
        let multiplier = (m - step) as f64;
        running_max = running_max.max(multiplier.log10() + p_values[index].log10());
        adjusted[index] = PValue::from_log10(running_max);
    }
    adjusted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn textbook_example() {
        // Sorted: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 -> max(0.06, 0.04).
        let p: Vec<PValue> = [0.01, 0.04, 0.03, 0.005].map(PValue::from_probability).to_vec();
        let adjusted: Vec<f64> = holm_adjust(&p).iter().map(|p| 10f64.powf(p.log10())).collect();
        let expected = [0.03, 0.06, 0.06, 0.02];
        for (a, e) in adjusted.iter().zip(expected) {
            assert!((a - e).abs() < 1e-12, "{adjusted:?}");
        }
    }

    #[test]
    fn adjusted_values_are_capped_at_one_and_keep_tiny_magnitudes() {
        // Sorted: 1e-5000·3, then 0.6·2 = 1.2 -> capped at 1, then max(0.7·1, 1) = 1.
        let p = [
            PValue::from_probability(0.6),
            PValue::from_probability(0.7),
            PValue::from_log10(-5000.0),
        ];
        let adjusted = holm_adjust(&p);
        assert_eq!(adjusted[0], PValue::ONE);
        assert_eq!(adjusted[1], PValue::ONE);
        assert!((adjusted[2].log10() - (-5000.0 + 3f64.log10())).abs() < 1e-9);
        assert!(holm_adjust(&[]).is_empty());
    }
}
