//! The samples and draws the item guessing game looks at, dealt again.
//!
//! As for the card game ([`super::game`]), the item game ([`crate::tally::item_game`])
//! plays the first samples of a sampler's run (all in chunk 0) or the first draws of a
//! generator's first streams, which are fixed by the seed alone: any part of a run (a
//! thread, a shard, `merge`, a step of the live page) deals them again and plays exactly
//! the same game, and the tallies' hot loops are left as they were.

use super::Engine;
use super::selections::deal_samples;
use crate::catalogue::generators::{Generator, GeneratorSpec, StreamScenario};
use crate::catalogue::items::Items;
use crate::catalogue::{SamplerAlgorithm, SamplerWorkspace};
use crate::randomness::SimulationSource;
use crate::tally::guessing::GAME_TRAINING_DEALS;
use crate::tally::item_game::{
    FairLaw, ITEM_GAME_MIN_WINDOWS, ItemGameTally, STREAM_GAME_DRAWS, WindowSplit, play_item_game,
};

/// The guessing game on the first samples of a run of `trials` samples of `sampler`
/// (`k` of `n`): the first half of the first 16,384 studied, the next played, each pick
/// guessed in the promised order (in increasing order when the order is not promised).
pub fn play_sampler_game(
    engine: &Engine,
    sampler: SamplerAlgorithm,
    n: usize,
    k: usize,
    trials: u64,
    seed: u64,
) -> Option<ItemGameTally> {
    let split = WindowSplit::of(trials, GAME_TRAINING_DEALS);
    if k == 0 || split.training == 0 {
        return None;
    }
    let mut samples = vec![0u16; k * split.windows() as usize];
    let mut source = SimulationSource::for_unit(engine.source(), seed, 0, 0);
    let mut workspace = SamplerWorkspace::default();
    let mut selection = vec![0u16; k];
    let mut filled = samples.chunks_exact_mut(k);
    deal_samples(
        sampler,
        n,
        split.windows(),
        &mut source,
        &mut workspace,
        &mut selection,
        |picked| {
            filled
                .next()
                .expect("as many as asked for")
                .copy_from_slice(picked)
        },
    );
    sampler_game(n, k, &mut samples, trials, sampler.promises_order())
}

/// The game on samples of `k` of `n` laid end to end (the first of a run or input of
/// `total` samples): guessed in their order when `ordered`, else sorted first.
pub fn sampler_game(
    n: usize,
    k: usize,
    samples: &mut [u16],
    total: u64,
    ordered: bool,
) -> Option<ItemGameTally> {
    let split = WindowSplit::of(total, GAME_TRAINING_DEALS);
    if k == 0 || split.training == 0 {
        return None;
    }
    let law = if ordered {
        FairLaw::OrderedSelection { n }
    } else {
        for sample in samples.chunks_exact_mut(k) {
            sample.sort_unstable();
        }
        FairLaw::SortedSelection { n, k }
    };
    let units: Vec<(&[u16], u64)> = samples
        .chunks_exact(k)
        .take(split.windows() as usize)
        .map(|sample| (sample, 1))
        .collect();
    play_item_game(&law, &units, k, split, false, "samples")
}

/// How a stream's game cuts it: a bag's cycle when it is short, else 100 draws, never
/// more than the stream.
pub fn stream_window(law: &FairLaw, length: u64) -> usize {
    let base = match law {
        FairLaw::Bag { slots, .. } if *slots <= 1_000 => *slots,
        _ => 100,
    };
    base.min(length).max(1) as usize
}

/// The windows of the stream game in a run of `streams` streams of `length` draws.
pub fn stream_split(law: &FairLaw, streams: u64, length: u64) -> WindowSplit {
    let window = stream_window(law, length) as u64;
    let most = (STREAM_GAME_DRAWS / window).max(ITEM_GAME_MIN_WINDOWS / 2);
    WindowSplit::of(streams.saturating_mul(length / window), most)
}

/// The guessing game on the first draws of a generator's first streams, scored against
/// `law`: whole windows ([`stream_window`]), the first half studied and the next played,
/// at most [`STREAM_GAME_DRAWS`] draws each.
#[allow(clippy::too_many_arguments)]
pub fn play_stream_game(
    engine: &Engine,
    spec: &GeneratorSpec,
    items: &Items,
    scenario: &StreamScenario,
    law: &FairLaw,
    streams: u64,
    length: u64,
    seed: u64,
) -> Option<ItemGameTally> {
    let split = stream_split(law, streams, length);
    if split.training == 0 {
        return None;
    }
    let window = stream_window(law, length);
    let per_stream = length / window as u64;
    let mut dealt: Vec<(Vec<u16>, u64)> = Vec::new();
    let mut left = split.windows();
    let mut stream = 0u64;
    while left > 0 {
        let windows = per_stream.min(left);
        let mut source =
            SimulationSource::for_unit(engine.source(), seed, stream, stream.saturating_mul(length));
        let mut generator: Generator = spec.build(items, scenario);
        let mut draws = Vec::with_capacity(windows as usize * window);
        crate::with_source!(&mut source, |source| generator.draw_each(
            source,
            windows * window as u64,
            &mut |item| draws.push(item)
        ));
        dealt.push((draws, windows));
        left -= windows;
        stream += 1;
    }
    let units: Vec<(&[u16], u64)> = dealt
        .iter()
        .map(|(draws, windows)| (draws.as_slice(), *windows))
        .collect();
    play_item_game(law, &units, window, split, true, "draws")
}
