//! How many orders a deck has: `n!`, exactly and as a power of two.
//!
//! 52! has 68 digits, far past `u128`, and the point of `seeds reach` is to set it beside
//! 2^32 in plain words, so it is computed exactly with a few lines of base-10^9 limbs
//! (no big-number crate for one product). Its base-2 logarithm is the sum of `log2 k`,
//! exact to about 1e-12 for every deck the tool takes.

use crate::tally::lehmer::factorial;

/// `n!`, the number of orders of `n` cards.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderCount {
    /// The deck size.
    pub n: usize,
    /// `log2(n!)`.
    pub log2: f64,
    /// `n!` in decimal digits, exactly.
    pub decimal: String,
    /// `n!` when it fits in a `u64` (`n <= 20`).
    pub exact: Option<u64>,
}

impl OrderCount {
    /// `n!`.
    pub fn of(n: usize) -> Self {
        Self {
            n,
            log2: (2..=n).map(|k| (k as f64).log2()).sum(),
            decimal: factorial_digits(n),
            exact: factorial(n),
        }
    }

    /// Whether `count` orders are all of them (`count >= n!`).
    pub fn at_most(&self, count: u64) -> bool {
        self.exact.is_some_and(|orders| orders <= count)
    }
}

/// `n!` in decimal, by schoolbook multiplication on limbs of nine decimal digits.
fn factorial_digits(n: usize) -> String {
    const LIMB: u64 = 1_000_000_000;
    // Least significant limb first.
    let mut limbs: Vec<u64> = vec![1];
    for factor in 2..=n as u64 {
        let mut carry = 0;
        for limb in &mut limbs {
            let product = *limb * factor + carry;
            *limb = product % LIMB;
            carry = product / LIMB;
        }
        while carry > 0 {
            limbs.push(carry % LIMB);
            carry /= LIMB;
        }
    }
    let mut digits = limbs.last().expect("at least one limb").to_string();
    for limb in limbs.iter().rev().skip(1) {
        digits.push_str(&format!("{limb:09}"));
    }
    digits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factorials_match_u64_arithmetic_where_it_reaches() {
        for n in 0..=20 {
            let count = OrderCount::of(n);
            assert_eq!(count.decimal, factorial(n).unwrap().to_string(), "{n}!");
            assert!((count.log2 - (factorial(n).unwrap() as f64).log2()).abs() < 1e-9);
        }
        assert_eq!(OrderCount::of(21).exact, None);
    }

    #[test]
    fn fifty_two_factorial_is_the_known_68_digit_number() {
        // 52! as tables of factorials give it (OEIS A000142), about 8.07e67 as text
        // 001 says, and 2^225.58.
        let count = OrderCount::of(52);
        assert_eq!(
            count.decimal,
            "80658175170943878571660636856403766975289505440883277824000000000000"
        );
        assert_eq!(count.decimal.len(), 68);
        assert!((count.log2 - 225.581).abs() < 1e-3, "{}", count.log2);
        // 34! fits in u128: the limbs agree with native arithmetic past u64.
        let native: u128 = (1..=34u128).product();
        assert_eq!(OrderCount::of(34).decimal, native.to_string());
    }

    #[test]
    fn whether_a_count_covers_every_order() {
        assert!(OrderCount::of(5).at_most(120));
        assert!(!OrderCount::of(5).at_most(119));
        assert!(!OrderCount::of(52).at_most(u64::MAX));
    }
}
