use rand::RngExt;
use shuffle_audit::{FairShuffleAudit, Verdict};

fn naive_swap<T>(items: &mut [T], rng: &mut impl rand::Rng) {
    for i in 0..items.len() {
        items.swap(i, rng.random_range(0..items.len()));
    }
}

#[test]
fn the_naive_swap_fails() {
    let audit = FairShuffleAudit::new()
        .n(5)
        .trials(200_000)
        .seed(7)
        .threads(2)
        .alpha(1e-6)
        .run(naive_swap)
        .unwrap();
    assert_eq!(audit.verdict(), Verdict::Fail);
    println!("{audit}"); // the report
}
