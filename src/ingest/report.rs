//! What an ingest hands back: one type for the three kinds of input, so that the renderers
//! and the `check` gate read the verdict, the tests and what was read without asking
//! which kind it was.

use super::*;
use crate::analysis::power::{Power, power_to_catch};

/// A finished ingest: the report every renderer takes, and the figures a gate reads.
#[derive(Clone, Debug)]
pub enum IngestReport {
    /// Permutations or selections, shaped as a `run`'s report (one result, named after
    /// the input).
    Samples(RunReport),
    /// A stream, shaped as a `stream` run's report (one stream, named after the input).
    Stream(StreamReport),
}

impl IngestReport {
    /// The graded verdict: the one the headline, JSON, CSV, report and exit status all
    /// give (the analysis decides `inconclusive` once, see [`crate::analysis`]).
    pub fn verdict(&self) -> Verdict {
        match self {
            IngestReport::Samples(run) => match (run.results.first(), run.sampler_results.first()) {
                (Some(result), _) => result.analysis.verdict,
                (None, Some(result)) => result.analysis.verdict,
                (None, None) => unreachable!("an ingest report holds one result"),
            },
            IngestReport::Stream(stream) => stream.results[0].analysis.verdict,
        }
    }

    /// The smallest Holm-adjusted p-value, the one the verdict is read from.
    pub fn smallest_p_adjusted(&self) -> Option<PValue> {
        smallest_p_adjusted(self.tests())
    }

    /// Samples read and tallied (for a stream, its items).
    pub fn samples(&self) -> u64 {
        match self {
            IngestReport::Samples(run) => run.settings.trials,
            IngestReport::Stream(stream) => stream.settings.length,
        }
    }

    /// The repeats test found far more repeated decks than a fair shuffle deals (p below
    /// 10^-6): the sign of a program started from a small seed, whose seed
    /// `seeds recover` finds.
    pub fn repeated_decks(&self) -> bool {
        match self {
            IngestReport::Samples(run) => run.results.first().is_some_and(|result| {
                result.analysis.repeats.as_ref().is_some_and(|finding| {
                    finding.test.repeats > 0 && finding.test.p().is_some_and(|p| p.value_floored() < 1e-6)
                })
            }),
            IngestReport::Stream(_) => false,
        }
    }

    /// What was read.
    pub fn input(&self) -> &SampleInput {
        let input = match self {
            IngestReport::Samples(run) => &run.input,
            IngestReport::Stream(stream) => &stream.input,
        };
        input.as_ref().expect("an ingest report says what it read")
    }

    /// What was read, to be amended (the command as the user typed it).
    pub fn input_mut(&mut self) -> &mut SampleInput {
        let input = match self {
            IngestReport::Samples(run) => &mut run.input,
            IngestReport::Stream(stream) => &mut stream.input,
        };
        input.as_mut().expect("an ingest report says what it read")
    }

    /// Notes on what the findings cannot show.
    pub fn notes(&self) -> &[String] {
        match self {
            IngestReport::Samples(run) => &run.notes,
            IngestReport::Stream(stream) => &stream.notes,
        }
    }

    /// Malformed lines skipped (`--skip-invalid`).
    pub fn skipped(&self) -> u64 {
        self.input().skipped_total()
    }

    /// The tests that ran, with their p-values.
    pub fn tests(&self) -> &[TestReport] {
        match self {
            IngestReport::Samples(run) => match (run.results.first(), run.sampler_results.first()) {
                (Some(result), _) => &result.analysis.tests,
                (None, Some(result)) => &result.analysis.tests,
                (None, None) => &[],
            },
            IngestReport::Stream(stream) => &stream.results[0].analysis.tests,
        }
    }

    /// `check`'s rule for a pass: on fewer samples than the whole-sample test needs to
    /// catch a total variation of 0.05 with 99 % power ([`power_to_catch`]), it proves
    /// nothing, and the verdict becomes `inconclusive`, with a note that says why (`ingest
    /// --powered`, and the in-process audits of Python and JavaScript). Returns the power
    /// when it fell short.
    pub fn require_power(&mut self) -> Option<Power> {
        if self.verdict() != Verdict::Pass {
            return None;
        }
        let alpha = match self {
            IngestReport::Samples(run) => run.settings.alpha,
            IngestReport::Stream(stream) => stream.settings.alpha,
        };
        let power = power_to_catch(self.tests(), self.samples(), alpha).filter(Power::short)?;
        let note = format!("underpowered: {}: inconclusive (deal more)", power.shortfall());
        match self {
            IngestReport::Samples(run) => {
                match (run.results.first_mut(), run.sampler_results.first_mut()) {
                    (Some(result), _) => result.analysis.verdict = Verdict::Inconclusive,
                    (None, Some(result)) => result.analysis.verdict = Verdict::Inconclusive,
                    (None, None) => unreachable!("an ingest report holds one result"),
                }
                run.notes.push(note);
            }
            IngestReport::Stream(stream) => {
                stream.results[0].analysis.verdict = Verdict::Inconclusive;
                stream.notes.push(note);
            }
        }
        Some(power)
    }

    /// The samples the tests that could not run would need, when some could not
    /// (an inconclusive verdict): the largest of their needs.
    pub fn samples_needed(&self) -> Option<u64> {
        self.tests()
            .iter()
            .filter_map(|test| match test.outcome {
                crate::analysis::TestOutcome::Fit(Fit::TooFewTrials { needed }) => Some(needed),
                _ => None,
            })
            .max()
    }
}
