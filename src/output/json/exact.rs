//! The JSON export of `shuffle-audit exact` (schema in README.md, "Exact analysis").
//!
//! The `source` the draws come from is recorded as `run` records it, and under a flawed
//! source the `model` in which the figures are exact. Per algorithm: `paths`,
//! `denominator`, every outcome with its `permutation` (or `selection`, items from 0),
//! `numerator`, `denominator` (reduced) and `probability`, then `total_variation`,
//! `max_ratio` and the `impossible` count. `uniform` says whether the law (or matrix) is
//! exactly uniform, which tells a `samples_needed` of null for "no bias" from null for
//! "more trials than a u64 holds" (a Delphi bias). Numerators and
//! denominators are exact integers (they fit in 128 bits; JSON readers that hold numbers
//! as doubles should read them as text: each is also given as a string). Outcomes are
//! streamed one per line: 10! of them make a file of hundreds of megabytes.
//!
//! So this document is written by hand, line by line (serde writes each value), not
//! derived from one struct as the other exports are: outcomes are produced while they are
//! written and never held, each on its own line, and `samples_needed` on one line.

use std::io::Write;

use serde::Serialize;

use crate::exact::{ExactReport, ExactResult};
use crate::tally::combinadic;
use crate::tally::lehmer::{partial_unrank, unrank};

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(super) struct Outcome<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    permutation: Option<&'a [u16]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    selection: Option<&'a [u16]>,
    numerator: u128,
    denominator: u128,
    fraction: String,
    probability: f64,
}

/// Writes the whole export.
pub fn write(report: &ExactReport, out: &mut dyn Write) -> std::io::Result<()> {
    let settings = &report.settings;
    writeln!(out, "{{")?;
    writeln!(out, "  \"schema_version\": \"{}\",", super::SCHEMA_VERSION)?;
    writeln!(out, "  \"tool\": \"shuffle-audit\",")?;
    writeln!(out, "  \"version\": \"{}\",", env!("CARGO_PKG_VERSION"))?;
    writeln!(out, "  \"command\": \"exact\",")?;
    writeln!(
        out,
        "  \"source\": {},",
        serde_json::to_string(&settings.source).expect("a source serialises")
    )?;
    if let Some(model) = settings.source.draw_law().ok().and_then(|law| law.model()) {
        writeln!(
            out,
            "  \"model\": {},",
            serde_json::to_string(model).expect("text serialises")
        )?;
    }
    writeln!(out, "  \"n\": {},", settings.n)?;
    if let Some(k) = settings.k {
        writeln!(out, "  \"k\": {k},")?;
    }
    writeln!(out, "  \"all_as_expected\": {},", report.all_as_expected())?;
    writeln!(out, "  \"results\": [")?;
    for (i, result) in report.results.iter().enumerate() {
        write_result(report, result, out)?;
        writeln!(out, "{}", if i + 1 < report.results.len() { "," } else { "" })?;
    }
    writeln!(out, "  ]")?;
    writeln!(out, "}}")
}

/// The test a `samples_needed` figure is for: the χ² over every order (or selection), over
/// the card × position matrix, or over the number of rising sequences (riffles).
fn samples_needed_test(report: &ExactReport, result: &ExactResult) -> &'static str {
    match (
        result.riffle_law.is_some(),
        result.law.is_some(),
        report.settings.k.is_some(),
    ) {
        (true, _, _) => "rising-sequences",
        (false, true, true) => "selections",
        (false, true, false) => "permutation",
        (false, false, _) => "positions",
    }
}

fn write_result(report: &ExactReport, result: &ExactResult, out: &mut dyn Write) -> std::io::Result<()> {
    let (n, k) = (report.settings.n, report.settings.k);
    let text = |value: &str| serde_json::to_string(value).expect("strings serialise");
    writeln!(out, "    {{")?;
    writeln!(out, "      \"algorithm\": {},", text(&result.name))?;
    writeln!(out, "      \"expected\": \"{}\",", result.expected)?;
    writeln!(out, "      \"uniform\": {},", result.is_uniform(n))?;
    writeln!(out, "      \"verdict\": \"{}\",", result.verdict(n))?;
    writeln!(out, "{}", super::exact_guessing::line(result.guessing.as_ref()))?;
    let null = || "null".to_string();
    writeln!(
        out,
        "      \"samples_needed\": {{\"test\": \"{}\", \"alpha\": {}, \"power\": {}, \"trials\": {}, \
         \"noncentrality_per_trial\": {}, \"df\": {}}}{}",
        samples_needed_test(report, result),
        report.settings.alpha,
        crate::exact::POWER,
        result.trials_needed.map_or_else(null, |t| t.to_string()),
        result
            .detection
            .map_or_else(null, |d| d.noncentrality_per_trial.to_string()),
        result.detection.map_or_else(null, |d| d.df.to_string()),
        // Nothing follows for a result with neither a law nor a matrix (a dealer refused
        // earlier never gets here, but an object must not end with a comma).
        if result.law.is_some() || result.position_method.is_some() || result.riffle_law.is_some() {
            ","
        } else {
            ""
        },
    )?;
    if let Some(method) = result.position_method {
        writeln!(
            out,
            "      \"position_method\": {},",
            serde_json::to_string(&method).expect("serialises")
        )?;
        match &result.position_matrix {
            Some(matrix) => {
                writeln!(out, "      \"position_matrix\": [")?;
                for (card, row) in matrix.chunks(n).enumerate() {
                    let line = serde_json::to_string(row).expect("numbers serialise");
                    let comma = if card + 1 < n { "," } else { "" };
                    writeln!(out, "        {line}{comma}")?;
                }
                writeln!(out, "      ]")?;
            }
            None => writeln!(out, "      \"position_matrix\": null")?,
        }
        return write!(out, "    }}");
    }
    if let Some(riffles) = &result.riffle_law {
        super::exact_riffles::write_json(out, riffles)?;
        return write!(out, "    }}");
    }
    let Some(law) = &result.law else {
        return write!(out, "    }}");
    };
    writeln!(out, "      \"paths\": {},", law.paths)?;
    writeln!(out, "      \"denominator\": {},", law.denominator)?;
    writeln!(out, "      \"denominator_string\": \"{}\",", law.denominator)?;
    writeln!(out, "      \"outcomes\": [")?;
    let mut items = vec![0u16; k.unwrap_or(n)];
    for cell in 0..law.numerators.len() {
        match k {
            None => unrank(cell, &mut items),
            Some(_) if result.ordered => partial_unrank(cell, n, &mut items),
            Some(_) => combinadic::unrank(cell as u64, &mut items),
        }
        let (numerator, denominator) = law.fraction(cell);
        let outcome = Outcome {
            permutation: k.is_none().then_some(&items[..]),
            selection: k.is_some().then_some(&items[..]),
            numerator,
            denominator,
            fraction: format!("{numerator}/{denominator}"),
            probability: law.probability(cell),
        };
        let line = serde_json::to_string(&outcome).expect("outcomes serialise");
        let comma = if cell + 1 < law.numerators.len() { "," } else { "" };
        writeln!(out, "        {line}{comma}")?;
    }
    writeln!(out, "      ],")?;
    writeln!(out, "      \"total_variation\": {},", law.total_variation())?;
    writeln!(out, "      \"max_ratio\": {},", law.max_ratio())?;
    writeln!(out, "      \"impossible\": {}", law.impossible().len())?;
    write!(out, "    }}")
}
