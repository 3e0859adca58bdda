//! What `list` prints: every algorithm and sampler with the verdict it is known to get, what it
//! does and where it comes from, then the stream generators and the sources of randomness
//! with their exact definitions.

use crate::catalogue::generators::{GENERATORS, GeneratorEntry};
use crate::catalogue::{CatalogueEntry, SAMPLERS, SHUFFLES, entries};
use crate::randomness::{SOURCE_NAMES, SourceKind};
use crate::seeds::recover::RUNTIMES;

/// The whole list.
pub fn render() -> String {
    let width = entries()
        .map(|entry| display_name(entry).len())
        .max()
        .unwrap_or(0);
    let mut text = String::new();
    for (heading, family) in [("algorithm", SHUFFLES), ("sampler", SAMPLERS)] {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&format!(
            "{heading:<width$}  {:<16}  what it does, and where it comes from\n",
            "known to be"
        ));
        for entry in family {
            text.push_str(&format!(
                "{:<width$}  {:<16}  {}\n{:<width$}  {:<16}  from {}\n",
                display_name(entry),
                entry.expected_in_words(),
                entry.summary,
                "",
                "",
                entry.origin
            ));
        }
    }
    text.push_str(
        "\nParameters follow a colon: naive-repeated:3 runs three naive passes (default: n).\n\
         Samplers pick k of n items and need --k: shuffle-audit run bag-pick --n 10 --k 3.\n",
    );
    text.push_str(&generator_list());
    text.push_str(&source_list());
    text.push_str(&runtime_list());
    text
}

/// The runtimes `seeds recover` predicts, for `list`: the generator, the exact shuffle code
/// it models and the versions it holds for.
fn runtime_list() -> String {
    let mut text = "\nruntime  what `seeds recover --runtime NAME` recovers from deals, the code it models, the versions\n".to_string();
    for runtime in RUNTIMES {
        let about = runtime.about();
        let aliases = if about.aliases.is_empty() {
            String::new()
        } else {
            format!(" (also --runtime {})", about.aliases.join(", "))
        };
        text.push_str(&format!(
            "{:<7}  {} ({} bits of state), from decks of {} cards or more{aliases}\n",
            about.name, about.generator, about.state_bits, about.min_cards
        ));
        for shuffle in about.shuffles {
            text.push_str(&format!("{:<7}  {}: {}\n", "", shuffle.name, shuffle.code));
        }
        text.push_str(&format!("{:<7}  holds for {}\n", "", about.versions));
    }
    text.push_str(
        "\nRecover with shuffle-audit seeds recover --runtime NAME DEALS --predict 1 (one deal per line, in the order dealt).\n",
    );
    text
}

/// The sources under the algorithms, for `list`: each one's exact definition and origin.
fn source_list() -> String {
    let width = SOURCE_NAMES.iter().map(|name| name.len()).max().unwrap_or(0);
    let mut text = format!(
        "\n{:<width$}  what it is exactly, and where it comes from\n",
        "source"
    );
    for source in SourceKind::all() {
        text.push_str(&format!(
            "{:<width$}  {}\n{:<width$}  from {}\n",
            source.name(),
            source.definition(),
            "",
            source.origin()
        ));
    }
    text.push_str(
        "\nSources run under any algorithm or generator with --source NAME (run, stream, check); \
         clock-reseed takes --clock-step MS (default 0.001).\n",
    );
    text
}

/// The stream generators, for `list`.
fn generator_list() -> String {
    let name = |entry: &GeneratorEntry| match entry.parameter {
        Some(parameter) => format!("{}[:{}]", entry.name, parameter.name),
        None => entry.name.to_string(),
    };
    let width = GENERATORS
        .iter()
        .map(|entry| name(entry).len())
        .max()
        .unwrap_or(0);
    let mut text = format!(
        "\n{:<width$}  what it does, where it comes from, what it is known to be\n",
        "generator"
    );
    for entry in GENERATORS {
        text.push_str(&format!(
            "{:<width$}  {}\n{:<width$}  from {}; known to be: {}\n",
            name(entry),
            entry.summary,
            "",
            entry.origin,
            entry.known_to_be
        ));
    }
    text.push_str(
        "\nGenerators run with `shuffle-audit stream GENERATOR... --items SPEC`; unrandomness:0.5 moves the weights by 0.5 per draw (default: 1).\n",
    );
    text
}

fn display_name(entry: &CatalogueEntry) -> String {
    match entry.parameter {
        Some(parameter) => format!("{}[:{}]", entry.name, parameter.name),
        None => entry.name.to_string(),
    }
}
