//! Simulating samplers: `k` of `n` items, many times, on the same deterministic engine as
//! the shuffles.
//!
//! Each worker owns a recorder, a sampler workspace and a selection buffer, all made once,
//! so the inner loop allocates nothing. Chunks are seeded from `(seed, chunk)` by
//! [`Engine::run_chunks`], and the recorders are plain counts that add, so the tally does
//! not depend on the number of threads. Each chunk's work is a function of its own, not
//! inlined into the engine's closure, so that its `&mut` arguments carry the no-alias
//! guarantee (as for the shuffles' loops).

use super::{Engine, Progress};
use crate::catalogue::{SamplerAlgorithm, SamplerWorkspace};
use crate::randomness::SimulationSource;
use crate::tally::{SelectionRecorder, SelectionTally};

/// Items sampled from (`n` per sample) between two looks at whether the run is cancelled.
const ITEMS_PER_BATCH: usize = 1 << 16;

/// Picks `k` of the `n` items `0..n` with `sampler`, `trials` times, and tallies the
/// selections (ordered selections too when the sampler promises a random order).
#[allow(clippy::too_many_arguments)]
pub fn simulate_selections(
    engine: &Engine,
    sampler: SamplerAlgorithm,
    n: usize,
    k: usize,
    trials: u64,
    seed: u64,
    progress: &dyn Progress,
) -> SelectionTally {
    assert!(k <= n && n <= usize::from(u16::MAX), "{k} of {n} items");
    let ordered = sampler.promises_order();
    // Samplers start every sample afresh: on xoshiro the samples are independent by
    // construction, on a flawed source they may not be, and their overlaps are counted.
    let overlaps = !engine.source().is_default();
    let mut recorders = engine
        .run_chunks(
            trials,
            seed,
            progress,
            || {
                let recorder = SelectionRecorder::new(n, k, ordered);
                (
                    if overlaps {
                        recorder.with_overlaps()
                    } else {
                        recorder
                    },
                    SamplerWorkspace::default(),
                    vec![0u16; k],
                )
            },
            |(recorder, workspace, selection), source, count, progress| {
                recorder.start_chunk();
                // In batches, so that a cancelled run ends the chunk at the next one: a
                // chunk of 2,000-item samples is 33 million draws. The draws are those of
                // one call (each sample starts where the last ended).
                let batch = (ITEMS_PER_BATCH / n.max(1)).max(1) as u64;
                let mut left = count;
                while left > 0 && !progress.cancelled() {
                    let now = left.min(batch);
                    deal_samples(sampler, n, now, source, workspace, selection, |picked| {
                        recorder.record(picked)
                    });
                    left -= now;
                }
            },
        )
        .into_iter()
        .map(|(recorder, _, _)| recorder);
    let mut total = recorders.next().expect("an engine has at least one worker");
    // A cancelled run's recorders are thrown away by the caller: not added.
    for recorder in recorders.filter(|_| !progress.cancelled()) {
        total.merge(&recorder);
    }
    let mut tally = total.finish();
    // The game plays the run's first samples: a part of the run that starts at chunk 0
    // plays it, the same for all.
    if engine.first_chunk == 0 && !progress.cancelled() {
        tally.guessing = super::play_sampler_game(engine, sampler, n, k, trials, seed).map(Box::new);
    }
    tally
}

/// `count` samples of `sampler` from `source`, each handed to `record`: one chunk of a
/// run, or the first samples dealt again for the guessing game.
#[inline(never)]
pub(super) fn deal_samples(
    sampler: SamplerAlgorithm,
    n: usize,
    count: u64,
    source: &mut SimulationSource,
    workspace: &mut SamplerWorkspace,
    selection: &mut [u16],
    record: impl FnMut(&[u16]),
) {
    crate::with_source!(source, |source| sampler
        .sample_each(n, count, source, selection, workspace, record));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulate::{CHUNK_TRIALS, NoProgress};

    #[test]
    fn tallies_do_not_depend_on_the_thread_count() {
        for sampler in [SamplerAlgorithm::PartialFisherYates, SamplerAlgorithm::Reservoir] {
            let run = |threads| {
                let engine = Engine::new(threads).unwrap();
                simulate_selections(&engine, sampler, 7, 3, 3 * CHUNK_TRIALS + 5, 99, &NoProgress)
            };
            let one = run(1);
            assert_eq!(one.trials, 3 * CHUNK_TRIALS + 5);
            assert_eq!(one.inclusion_counts.iter().sum::<u64>(), 3 * one.trials);
            assert_eq!(one.subset_counts.as_ref().unwrap().len(), 35);
            assert_eq!(one.ordered_counts.is_some(), sampler.promises_order());
            assert_eq!(one, run(2), "{sampler:?}");
            assert_eq!(one, run(8), "{sampler:?}");
        }
    }

    #[test]
    fn the_c_code_of_bag_pick_lands_on_one_subset() {
        // Structural, not statistical: it stores k, k-1, …, 1 whatever it draws.
        let engine = Engine::new(2).unwrap();
        let tally = simulate_selections(&engine, SamplerAlgorithm::BagPickC, 6, 3, 50_000, 1, &NoProgress);
        assert_eq!(tally.inclusion_counts, vec![0, 50_000, 50_000, 50_000, 0, 0]);
        let subsets = tally.subset_counts.unwrap();
        assert_eq!(subsets.iter().filter(|&&count| count > 0).count(), 1);
    }
}
