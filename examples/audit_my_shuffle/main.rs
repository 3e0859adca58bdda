//! Auditing shuffles you wrote yourself, the way a test in your own crate would.
//!
//! Two user-written shuffles (in `shuffles.rs`): Durstenfeld's Fisher-Yates (fair) and the naive swap
//! (biased: n^n equally likely paths cannot fall evenly onto n! orders). Each is audited
//! with the panicking one-liner, `assert_fair_shuffle`, as a `#[test]` would, and with the
//! non-panicking builder, `FairShuffleAudit::run`, which returns the report.
//!
//! ```text
//! cargo run --release --example audit_my_shuffle
//! ```

use std::panic;
use std::time::Instant;

use shuffle_audit::{FairShuffleAudit, assert_fair_shuffle};

mod shuffles;

use shuffles::{fisher_yates, naive_swap};

fn main() {
    // The one-liner, as in a test: returns quietly when the shuffle is fair.
    let started = Instant::now();
    assert_fair_shuffle(fisher_yates);
    println!(
        "assert_fair_shuffle(fisher_yates): passed in {:.2} s",
        started.elapsed().as_secs_f64()
    );

    // The same one-liner on the biased shuffle panics with the report; a test would fail
    // here. Caught, so that this program can go on.
    let started = Instant::now();
    let default_hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let caught = panic::catch_unwind(|| assert_fair_shuffle(naive_swap));
    panic::set_hook(default_hook);
    let message = caught
        .err()
        .and_then(|payload| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no panic: the naive swap passed, which it must not)".to_string());
    println!(
        "assert_fair_shuffle(naive_swap): panicked in {:.2} s; its message begins:\n  {}",
        started.elapsed().as_secs_f64(),
        message.lines().next().unwrap_or_default()
    );

    // The builder's non-panicking form: the whole report, to read or to inspect.
    for (name, shuffle) in [
        (
            "fisher_yates",
            fisher_yates::<usize> as fn(&mut [usize], &mut shuffle_audit::AuditRng),
        ),
        ("naive_swap", naive_swap::<usize>),
    ] {
        let audit = FairShuffleAudit::new()
            .n(5)
            .trials(200_000)
            .seed(7)
            .run(shuffle)
            .expect("the settings are valid and both shuffles return a permutation");
        print!("\nFairShuffleAudit::new().n(5).trials(200_000).seed(7).run({name}):\n{audit}");
    }
}
