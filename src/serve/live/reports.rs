//! What a live run reports after each step: `run`'s (or `stream`'s) report of the tallies
//! so far, made the way the commands make it, and the cheaper report a summarised
//! shuffle's views are made from while it runs.
//!
//! Apart from the stepping ([`super`]) because it is a different concern: the stepping
//! decides when tallies are added; this decides what the page and the download read of
//! them, and must give the commands' JSON bit for bit.

use std::time::Duration;

use crate::analysis::{analyse_permutation_summary, analyse_permutations};
use crate::run::{About, AlgorithmResult, RunReport, RunSettings, sampler_result, shuffle_result};
use crate::simulate::Engine;
use crate::stream::{GeneratorRun, StreamReport, StreamSettings};
use crate::tally::stream::StreamTally;
use crate::tally::{OrderSummary, PermutationRecorder, PermutationTally, SelectionTally};

use super::super::request::{LiveRequest, LiveRunSpec, LiveStreamSpec};
use super::{LiveRun, Progress, Tallied};

/// What a run reports: `run`'s report, or `stream`'s.
#[derive(Clone, Debug)]
pub enum LiveReport {
    Run(RunReport),
    Stream(StreamReport),
}

/// A summarised shuffle's state after a step: its tables but the order counts, their
/// summary, and what every report shares.
pub(super) struct Summarised {
    pub(super) tally: PermutationTally,
    pub(super) orders: OrderSummary,
    pub(super) base: Base,
}

impl LiveRun {
    /// The report `run --trials T` (or `stream --streams S`) writes for what is tallied
    /// so far, or `None` before the first step. With `simulator_check` a shuffle's is
    /// exactly `run`'s (the check enumerates the exact law, which is worth doing once, for
    /// the download); without, it is what the page shows as the run goes. A generator's
    /// report is `stream`'s once every stream ran (before, its cycle table keeps the bins
    /// chosen for the whole run).
    pub fn report(&self, simulator_check: bool) -> Option<LiveReport> {
        let progress = self.progress();
        let base = progress.base();
        let tally = progress.tally?;
        match (&self.request, tally) {
            (LiveRequest::Run(request), Tallied::Shuffle(recorder)) => Some(LiveReport::Run(shuffle_report(
                request,
                &base,
                recorder,
                simulator_check,
            )?)),
            (LiveRequest::Run(request), Tallied::Sampler(tally)) => {
                Some(LiveReport::Run(sampler_report(request, &base, tally)?))
            }
            (LiveRequest::Stream(request), Tallied::Stream(tally)) => {
                Some(LiveReport::Stream(stream_report(request, &base, tally)?))
            }
            _ => None,
        }
    }

    /// The report the page shows of a shuffle whose order counts are summarised (see
    /// [`Progress::orders`]), made from the summary without copying or reading the
    /// counts: the same tests and charts as [`LiveRun::report`]`(false)`, cheap enough
    /// for every step of a 10-card run. `None` when there is no summary (the caller then
    /// makes the report from the tallies).
    pub fn summary_report(&self) -> Option<LiveReport> {
        let Summarised { tally, orders, base } = {
            let summarised = self
                .summarised
                .lock()
                .unwrap_or_else(|poison| poison.into_inner());
            let summarised = summarised.as_ref()?;
            Summarised {
                tally: summarised.tally.clone(),
                orders: summarised.orders.clone(),
                base: summarised.base.clone(),
            }
        };
        let LiveRequest::Run(request) = &self.request else {
            return None;
        };
        let (settings, report) = run_report(request, &base, tally.trials)?;
        let spec = &request.spec;
        let thresholds = settings.validate(std::slice::from_ref(spec)).ok()?;
        let result = AlgorithmResult {
            name: spec.display_name(settings.n),
            about: About::of(spec.entry),
            expected: spec.expected_at(settings.n),
            analysis: analyse_permutation_summary(&tally, &orders, &thresholds),
            tally,
            simulator_check: None,
            elapsed: base.elapsed,
        };
        Some(LiveReport::Run(RunReport {
            results: vec![result],
            ..report
        }))
    }
}

/// What every report of a live run shares: threads, time, and what was tallied.
#[derive(Clone)]
pub(super) struct Base {
    threads: usize,
    elapsed: Duration,
    units: u64,
}

impl Progress {
    pub(super) fn base(&self) -> Base {
        Base {
            threads: self.threads,
            elapsed: self.elapsed,
            units: self.units,
        }
    }
}

fn run_report(request: &LiveRunSpec, base: &Base, trials: u64) -> Option<(RunSettings, RunReport)> {
    let LiveRunSpec {
        spec,
        settings,
        seed_origin,
        ..
    } = request;
    let settings = RunSettings {
        trials,
        threads: base.threads.max(1),
        ..settings.clone()
    };
    settings.validate(std::slice::from_ref(spec)).ok()?;
    let report = RunReport {
        seed: settings.seed.unwrap_or(0),
        seed_origin: *seed_origin,
        threads: base.threads,
        elapsed: base.elapsed,
        results: Vec::new(),
        sampler_results: Vec::new(),
        notes: settings.notes(std::slice::from_ref(spec)),
        input: None,
        settings: settings.clone(),
    };
    Some((settings, report))
}

fn shuffle_report(
    request: &LiveRunSpec,
    base: &Base,
    recorder: PermutationRecorder,
    simulator_check: bool,
) -> Option<RunReport> {
    let tally = recorder.finish();
    let (settings, report) = run_report(request, base, tally.trials)?;
    let spec = &request.spec;
    let thresholds = settings.validate(std::slice::from_ref(spec)).ok()?;
    let result = if simulator_check {
        let engine = Engine::new(1).ok()?.with_source(settings.source);
        shuffle_result(&engine, spec, tally, &thresholds)
    } else {
        AlgorithmResult {
            name: spec.display_name(settings.n),
            about: About::of(spec.entry),
            expected: spec.expected_at(settings.n),
            analysis: analyse_permutations(&tally, &thresholds),
            tally,
            simulator_check: None,
            elapsed: Duration::ZERO,
        }
    };
    Some(RunReport {
        results: vec![AlgorithmResult {
            elapsed: base.elapsed,
            ..result
        }],
        ..report
    })
}

fn sampler_report(request: &LiveRunSpec, base: &Base, tally: SelectionTally) -> Option<RunReport> {
    let (settings, report) = run_report(request, base, tally.trials)?;
    let thresholds = settings.validate(std::slice::from_ref(&request.spec)).ok()?;
    let result = sampler_result(&request.spec, tally, &thresholds);
    Some(RunReport {
        sampler_results: vec![crate::run::SamplerResult {
            elapsed: base.elapsed,
            ..result
        }],
        ..report
    })
}

fn stream_report(request: &LiveStreamSpec, base: &Base, tally: StreamTally) -> Option<StreamReport> {
    let LiveStreamSpec {
        spec,
        settings,
        seed_origin,
        ..
    } = request;
    let thresholds = settings.validate(std::slice::from_ref(spec)).ok()?;
    // Tallied into the tables laid out for the whole run (the tallies of every step add).
    let result = GeneratorRun::new(spec, settings)
        .ok()?
        .result(tally, &thresholds, base.elapsed);
    Some(StreamReport {
        settings: StreamSettings {
            streams: base.units.max(1),
            threads: base.threads.max(1),
            ..settings.clone()
        },
        seed: settings.seed.unwrap_or(0),
        seed_origin: *seed_origin,
        threads: base.threads,
        elapsed: base.elapsed,
        results: vec![result],
        input: None,
        notes: Vec::new(),
    })
}
