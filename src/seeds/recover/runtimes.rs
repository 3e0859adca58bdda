//! The runtimes `seeds recover` knows, one line each: a runtime is its own module (its
//! generator, its shuffles and its search) plus a line here.

use super::Runtime;
use super::c_rand::CRand;
use super::dotnet::Dotnet;
use super::fast_shuffle::FastShuffle;
use super::go::Go;
use super::java::Java;
use super::js::Js;
use super::jsc::Jsc;
use super::numpy::Numpy;
use super::php::Php;
use super::python::Python;
use super::seeded::Seeded;
use super::spidermonkey::SpiderMonkey;
use super::v8_runtime::V8;

/// Every runtime, in the order `list` shows them.
pub static RUNTIMES: &[&dyn Runtime] = &[
    &Java,
    &Js,
    &V8,
    &SpiderMonkey,
    &Seeded(Php),
    &Seeded(Numpy),
    &Seeded(Python),
    &Seeded(CRand),
    &Seeded(Go),
    &Seeded(Dotnet),
    &Seeded(Jsc),
    &FastShuffle,
];

/// The runtimes started from a small seed, searched seed by seed (`--window`,
/// `ingest --seed-search`).
pub fn seeded_runtime_names() -> Vec<&'static str> {
    RUNTIMES
        .iter()
        .filter(|runtime| runtime.seed_space().is_some())
        .map(|runtime| runtime.about().name)
        .collect()
}

/// The runtimes recovered from their state (every `ingest` tries them), in the registry's
/// order.
pub fn state_runtime_names() -> Vec<&'static str> {
    RUNTIMES
        .iter()
        .filter(|runtime| runtime.seed_space().is_none())
        .map(|runtime| runtime.about().name)
        .collect()
}

/// The runtimes as `--runtime`'s help lists them, drawn from [`RUNTIMES`]: those
/// recovered from their state first, then those whose every seed is tried.
pub fn runtimes_help() -> String {
    let listed = |seeded: bool| -> Vec<String> {
        RUNTIMES
            .iter()
            .filter(|runtime| runtime.seed_space().is_some() == seeded)
            .map(|runtime| {
                let about = runtime.about();
                let aliases = if about.aliases.is_empty() {
                    String::new()
                } else {
                    format!(", or {}", about.aliases.join(", "))
                };
                format!("{}{aliases} ({})", about.name, about.summary)
            })
            .collect()
    };
    format!(
        "{}, or one started from a small seed, whose every seed is tried: {}",
        listed(false).join(", "),
        listed(true).join(", ")
    )
}

/// The runtime named `name`, or the one-line error that lists them (with the nearest
/// name when the name is a near miss).
pub fn runtime_named(name: &str) -> Result<&'static dyn Runtime, String> {
    let names: Vec<&str> = RUNTIMES.iter().map(|runtime| runtime.about().name).collect();
    RUNTIMES
        .iter()
        .copied()
        .find(|runtime| {
            let about = runtime.about();
            about.name.eq_ignore_ascii_case(name)
                || about.aliases.iter().any(|alias| alias.eq_ignore_ascii_case(name))
        })
        .ok_or_else(|| {
            let known = RUNTIMES.iter().flat_map(|runtime| {
                std::iter::once(runtime.about().name).chain(runtime.about().aliases.iter().copied())
            });
            let suggestion = crate::catalogue::names::suggestion_among(name, known);
            format!(
                "names no runtime: '{}'{suggestion} (the runtimes are {})",
                crate::format::escaped_for_terminals(name),
                names.join(", ")
            )
        })
}
