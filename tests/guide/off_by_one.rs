// ANCHOR: test
use rand::RngExt;

/// Fisher-Yates with the exclusive bound by mistake (`0..i`, not `0..=i`).
fn off_by_one<T>(items: &mut [T], rng: &mut impl rand::Rng) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.random_range(0..i));
    }
}

#[test]
#[should_panic(expected = "FAIL: the shuffle is biased")]
fn the_off_by_one_bound_fails() {
    shuffle_audit::assert_fair_shuffle(off_by_one);
}
// ANCHOR_END: test

/// The guide shows this test's panic message under the test: it must be the message.
#[test]
fn its_panic_message_is_the_one_the_guide_shows() {
    let message = crate::panic_message(|| shuffle_audit::assert_fair_shuffle(off_by_one));
    let shown = crate::shown_block("thread 'off_by_one::the_off_by_one_bound_fails'");
    let (harness, shown) = shown.split_once('\n').expect("the block has the message");
    assert!(
        harness.ends_with("panicked at tests/guide/off_by_one.rs:14:5:"),
        "the harness line names this file and the line of the assertion: {harness}"
    );
    crate::same(shown, &message);
}
