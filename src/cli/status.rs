//! Exit statuses decided by verdicts: 0 when every result gets the verdict it should,
//! 1 when one does not (a line on standard error names each), kept apart from 2, the
//! status of a usage or input error, so that CI can tell "biased" from "broken".

use std::process::ExitCode;

use shuffle_audit::catalogue::Graded;

/// The exit status of a gate (`check`, `ingest`) whose verdict is not the one wanted, and
/// of `seeds crack` when no seed matches (as grep's when no line does). Kept apart from 2
/// (usage or input error) so that CI can tell "biased" from "broken".
pub const VERDICT_NOT_AS_WANTED: u8 = 1;

/// The exit status of a command whose results each have a verdict they should get: 0 when
/// every one does, 1 when one does not, with a line on standard error naming each (a CI
/// log must say why a step failed). `against` says where the expectation comes from.
pub fn verdict_status(graded: &[Graded], against: &str) -> ExitCode {
    let wrong: Vec<String> = graded
        .iter()
        .filter(|graded| !graded.as_expected())
        .map(|graded| {
            format!(
                "{} is {} where {against} says {}",
                graded.name, graded.verdict, graded.expected
            )
        })
        .collect();
    if wrong.is_empty() {
        ExitCode::SUCCESS
    } else {
        say!(
            "shuffle-audit: not as expected: {} (exit status 1)",
            wrong.join("; ")
        );
        ExitCode::from(VERDICT_NOT_AS_WANTED)
    }
}
