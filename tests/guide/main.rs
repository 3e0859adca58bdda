//! The Rust code of the guide's chapter "The library" (`docs/src/library.md`), compiled and
//! run. The chapter includes these files with mdbook's `{{#include}}`, so the code it shows
//! is the code that runs here, and the outputs it shows are compared with what that code
//! prints.

mod assert_in_a_test;
mod builder;
mod off_by_one;
mod run;
mod streams;

#[path = "../../examples/audit_my_shuffle/shuffles.rs"]
mod shuffles;

use std::path::Path;

/// The chapter, as the guide has it.
fn page() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/library.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The one ```` ```text ```` block of the chapter whose first line starts with `first`,
/// without its fences.
fn shown_block(first: &str) -> String {
    let page = page();
    let blocks: Vec<&str> = page
        .split("```text\n")
        .skip(1)
        .filter_map(|rest| rest.split_once("\n```").map(|(block, _)| block))
        .filter(|block| block.starts_with(first))
        .collect();
    assert_eq!(
        blocks.len(),
        1,
        "docs/src/library.md has one block starting {first:?}"
    );
    blocks[0].to_string()
}

/// The message `run` panics with.
fn panic_message(run: impl FnOnce() + std::panic::UnwindSafe) -> String {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let payload = std::panic::catch_unwind(run).expect_err("it panics");
    std::panic::set_hook(hook);
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .expect("a text message")
}

/// Fails with both texts, line by line, unless the guide shows what the code prints.
fn same(shown: &str, printed: &str) {
    let shown = shown.trim_end();
    let printed = printed.trim_end();
    if shown != printed {
        let mut diff = String::new();
        for (k, (a, b)) in shown.lines().zip(printed.lines()).enumerate() {
            if a != b {
                diff += &format!("line {}:\n  the guide: {a}\n  the code:  {b}\n", k + 1);
            }
        }
        panic!(
            "docs/src/library.md no longer shows what the code prints ({} lines shown, {} \
             printed):\n{diff}\nwhat the code prints:\n{printed}",
            shown.lines().count(),
            printed.lines().count()
        );
    }
}

/// The output of `cargo run --release --example audit_my_shuffle` that the guide shows:
/// its first three lines hold times (checked for their words), the rest is the two
/// audits' reports, checked whole.
#[test]
fn the_example_prints_what_the_guide_shows() {
    use shuffle_audit::FairShuffleAudit;
    let shown = shown_block("assert_fair_shuffle(fisher_yates): passed in ");
    let lines: Vec<&str> = shown.lines().collect();
    assert!(lines[1].starts_with("assert_fair_shuffle(naive_swap): panicked in "));
    assert!(lines[1].ends_with(" s; its message begins:"));
    let naive_message = panic_message(|| shuffle_audit::assert_fair_shuffle(shuffles::naive_swap));
    assert_eq!(lines[2], format!("  {}", naive_message.lines().next().unwrap()));
    let mut printed = String::new();
    for (name, shuffle) in [
        (
            "fisher_yates",
            shuffles::fisher_yates::<usize> as fn(&mut [usize], &mut shuffle_audit::AuditRng),
        ),
        ("naive_swap", shuffles::naive_swap::<usize>),
    ] {
        let audit = FairShuffleAudit::new()
            .n(5)
            .trials(200_000)
            .seed(7)
            .run(shuffle)
            .unwrap();
        printed += &format!("\nFairShuffleAudit::new().n(5).trials(200_000).seed(7).run({name}):\n{audit}");
    }
    same(&lines[3..].join("\n"), &printed);
}
