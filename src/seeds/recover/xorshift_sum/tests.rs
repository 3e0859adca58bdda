use super::*;
use crate::simulate::NoProgress;

/// The range of 64-bit sums whose top 53 bits `m` draw `floor(m / 2^53 · bound) = value`
/// (exact integer arithmetic).
fn top_range(bound: u32, value: u32) -> (u64, u64) {
    let unit = 1u128 << 53;
    let first = (u128::from(value) * unit).div_ceil(u128::from(bound));
    let end = (u128::from(value + 1) * unit).div_ceil(u128::from(bound));
    ((first << 11) as u64, (((end - 1) << 11) | 0x7ff) as u64)
}

fn low_range(bound: u32, value: u32) -> (u64, u64) {
    let unit = 1u128 << 53;
    let first = (u128::from(value) * unit).div_ceil(u128::from(bound));
    let end = (u128::from(value + 1) * unit).div_ceil(u128::from(bound));
    (first as u64, (end - 1) as u64)
}

/// Ranges of `deals` Fisher–Yates deals of `n` cards from state `(w0, w1)`.
fn deal_ranges(state: (u64, u64), n: u32, deals: usize, width: u32) -> Vec<SumRange> {
    let mut words = state;
    let mut ranges = Vec::new();
    let mut at = 0;
    for _ in 0..deals {
        for bound in (2..=n).rev() {
            words = step(words);
            at += 1;
            let sum = words.0.wrapping_add(words.1);
            let (low, high) = if width == 64 {
                let value = (((sum >> 11) as u128 * u128::from(bound)) >> 53) as u32;
                top_range(bound, value)
            } else {
                let kept = sum & ((1 << 53) - 1);
                let value = ((kept as u128 * u128::from(bound)) >> 53) as u32;
                low_range(bound, value)
            };
            ranges.push(SumRange { step: at, low, high });
        }
    }
    ranges
}

#[test]
fn one_deal_of_52_gives_the_state_back() {
    for width in [64, 53] {
        let state = (0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210);
        let ranges = deal_ranges(state, 52, 1, width);
        let plan = plan(&ranges, width).expect("a plan");
        // One deal holds 225 bits: the lists stay within their bound.
        assert!(
            plan.log_a <= MOST_LISTED_LOG2 && plan.log_b <= MOST_LISTED_LOG2,
            "{plan:?}"
        );
        let found = solve(&ranges, width, &plan, &AtomicBool::new(false), &NoProgress).unwrap();
        assert_eq!(found, vec![state]);
    }
}
