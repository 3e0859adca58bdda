//! Simulation throughput against the cost of the random draws alone.
//!
//! Small decks (issue 33, `cargo bench --bench throughput -- small` alone): Fisher–Yates
//! and naive swap on 3, 4, 5 and 6 cards with every tally, each against a loop that makes
//! the same batched draws (`each_draw`, several indices from one 64-bit word, exactly as
//! the catalogue's shuffles draw them) and tallies nothing, both on all cores through the
//! same chunked engine; the goal is at least 0.9x. The draw-only loop is compiled for
//! the deck size, on a copy of the generator kept in registers, so that the compiler makes
//! it as fast as it can: the reference must not be handicapped.
//!
//! The two loops run back to back, eleven times; each pair gives a ratio, and the figure
//! quoted is the median ratio, with the range beside it. A shared machine's load drifts
//! from second to second, and a pair measured together sees the same load.
//!
//! Large decks (issue 15): `run`'s default simulation of 52-card naive swap and
//! Fisher–Yates, and of Fisher–Yates on 200 and 2,000 cards, against the plain loop of
//! `common/plain_loop.rs` (the same crates, nothing of shuffle-audit's), paired the same
//! way.
//!
//! The plain loop draws one index per `random_range` call, as a loop written first does;
//! shuffle-audit's swap shuffles draw several from one word, and its riffles 64 coins
//! from one word (issue 33: that is how they beat it).
//!
//! Every catalogue shuffle at 52 cards (`cargo bench --bench throughput -- all52`, also
//! part of the full run): `run`'s default tallies for that shuffle beside a plain loop of
//! the same shuffle with the plain tally (matrix, fixed points, cycles). The plain loop
//! writes the swap loops by hand on rand, and calls the catalogue's own public function
//! for the sorts, insertion with retry, the riffles and the overhand (see
//! `common/plain_loop.rs`: the shuffle then costs the same on both sides, and the ratio
//! measures the engine and the tallies). Each shuffle deals at least `run`'s default 600,000
//! deals a side, as a default run does (the eighteen shuffles take about five minutes);
//! a summary table closes the section. For
//! `dealer-riffles` a second row compares with a plain loop that also tallies the
//! relative permutations of consecutive deals, as `run` does by default for a dealer.
//!
//! Then stream throughput (issue 3): `shuffle-bag` over text 000's 50/25/20/5 weights,
//! in draws per second with every stream tally, against the same generator dealing into
//! a sum (the generator alone).
//!
//! Run with `scripts/bench.sh` (or `cargo bench --bench throughput`).

#[path = "common/plain_loop.rs"]
mod plain_loop;

use std::hint::black_box;
use std::time::Instant;

use shuffle_audit::catalogue::PermutationAlgorithm;
use shuffle_audit::catalogue::generators::{GeneratorSpec, StreamScenario};
use shuffle_audit::randomness::SourceKind;
use shuffle_audit::randomness::batched::each_draw;
use shuffle_audit::simulate::{Engine, NoProgress, simulate_permutations};
use shuffle_audit::stream::items::Items;
use shuffle_audit::stream::{StreamSettings, run_streams};
use shuffle_audit::tally::TallyOptions;
use shuffle_audit::{Randomness, with_source};

use plain_loop::Shuffle;

const REPETITIONS: u64 = 11;

/// Trials are counted in whole pairs of the engine's chunks (16,384 deals each, fixed by
/// what a seed means), so that on the 2-core machine neither of shuffle-audit's workers
/// sits idle at the end of a run while the other finishes a chunk: a run of 20,000 deals
/// is one chunk of 16,384 and one of 3,616, and its time is the first chunk's, whatever
/// the speed per deal. The plain loop, cut into 1,024 small chunks, has no such tail; the
/// pairs make the comparison one of speed per deal, which is what a long run sees.
const PAIR: u64 = 2 * shuffle_audit::simulate::CHUNK_TRIALS;

/// `run`'s default number of deals (600,000), rounded up to whole pairs of chunks: 19
/// pairs, 622,592 deals.
const DEFAULT_RUN: u64 = 600_000_u64.div_ceil(PAIR) * PAIR;

fn main() {
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let engine = Engine::new(threads).expect("worker threads start");
    println!("threads: {threads}; {REPETITIONS} back-to-back pairs, medians");
    // `cargo bench --bench throughput -- plain` runs only the large decks against the
    // plain loop (a quicker measurement while working on them).
    // `-- all52` runs only every catalogue shuffle at 52 cards against its plain loop;
    // names after it (`-- all52 riffles dealer-riffles`) keep only those shuffles.
    let only_plain = std::env::args().skip(1).any(|argument| argument == "plain");
    let only_all52 = std::env::args().skip(1).any(|argument| argument == "all52");
    // `-- plain 200` keeps only the 200-card deck, and nothing after it.
    let sizes: Vec<usize> = std::env::args()
        .filter_map(|argument| argument.parse().ok())
        .collect();
    if only_all52 {
        all_shuffles_at_52(&engine);
        return;
    }
    let only_small = std::env::args().skip(1).any(|argument| argument == "small");
    if !only_plain {
        small_decks(&engine);
        if only_small {
            return;
        }
    }
    for (algorithm, shuffle, n, trials) in [
        (
            PermutationAlgorithm::NaiveSwap,
            Shuffle::NaiveSwap,
            52,
            122 * PAIR,
        ),
        (
            PermutationAlgorithm::FisherYates,
            Shuffle::FisherYates,
            52,
            122 * PAIR,
        ),
        (
            PermutationAlgorithm::FisherYates,
            Shuffle::FisherYates,
            200,
            30 * PAIR,
        ),
        (
            PermutationAlgorithm::FisherYates,
            Shuffle::FisherYates,
            2_000,
            2 * PAIR,
        ),
    ] {
        if only_plain && !sizes.is_empty() && !sizes.contains(&n) {
            continue;
        }
        // Issue 33's floors: 1.5x at 52 cards (both shuffles), 1.2x at 200 cards.
        let floor = match n {
            52 => Some(1.5),
            200 => Some(1.2),
            _ => None,
        };
        versus_plain_loop(
            &engine,
            &format!("{algorithm:?}"),
            algorithm,
            shuffle,
            n,
            trials,
            floor,
        );
    }
    if only_plain && !sizes.is_empty() {
        return;
    }
    all_shuffles_at_52(&engine);
    if !only_plain {
        stream_throughput(threads);
    }
}

/// Every catalogue shuffle at 52 cards with `run`'s default tallies, against a plain loop
/// of the same shuffle ([`plain_loop::Shuffle`]), then a table of the ratios.
fn all_shuffles_at_52(engine: &Engine) {
    let names: Vec<String> = std::env::args()
        .skip_while(|argument| argument != "all52")
        .skip(1)
        .filter(|argument| !argument.starts_with('-'))
        .collect();
    let mut rows = Vec::new();
    for entry in shuffle_audit::catalogue::SHUFFLES {
        if !names.is_empty() && !names.iter().any(|name| name == entry.name) {
            continue;
        }
        let algorithm = entry.algorithm().as_permutation().expect("a shuffle");
        // Shuffles per pair: at least `run`'s default of 600,000 deals (19 whole pairs of
        // chunks), so that each row measures what a default run pays, its fixed costs
        // (the guessing game's 16,384 deals) included once, as a user's run pays them;
        // the fast shuffles get more, so that each side takes at least about 0.2 s.
        let (shuffle, trials) = match algorithm {
            PermutationAlgorithm::NaiveSwap => (Shuffle::NaiveSwap, 30 * PAIR),
            PermutationAlgorithm::FisherYates => (Shuffle::FisherYates, 30 * PAIR),
            PermutationAlgorithm::FisherYatesForward => (Shuffle::FisherYatesForward, 30 * PAIR),
            PermutationAlgorithm::Sattolo => (Shuffle::Sattolo, 30 * PAIR),
            PermutationAlgorithm::RoguelikeShuffle => (Shuffle::Roguelike, 30 * PAIR),
            PermutationAlgorithm::NaiveRepeated { passes: None } => (Shuffle::NaiveRepeated, DEFAULT_RUN),
            PermutationAlgorithm::SortRandomKey => (Shuffle::SortRandomKey, DEFAULT_RUN),
            PermutationAlgorithm::SortRandomKeyU8 => (Shuffle::SortRandomKeyU8, DEFAULT_RUN),
            PermutationAlgorithm::SortComparatorInsertion => (Shuffle::SortComparatorInsertion, DEFAULT_RUN),
            PermutationAlgorithm::SortComparatorMerge => (Shuffle::SortComparatorMerge, DEFAULT_RUN),
            PermutationAlgorithm::InsertWithRetry => (Shuffle::InsertWithRetry, DEFAULT_RUN),
            PermutationAlgorithm::Riffle => (Shuffle::Riffle, 30 * PAIR),
            PermutationAlgorithm::AsfPoker => (Shuffle::AsfPoker, 30 * PAIR),
            PermutationAlgorithm::Riffles { times } => (Shuffle::Riffles(times), DEFAULT_RUN),
            PermutationAlgorithm::DealerRiffles { times } => (Shuffle::DealerRiffles(times), DEFAULT_RUN),
            PermutationAlgorithm::Overhand { times } => (Shuffle::Overhand(times), 30 * PAIR),
            PermutationAlgorithm::Shelf { shelves, passes } => (Shuffle::Shelf(shelves, passes), 30 * PAIR),
            other => panic!("no plain loop for {other:?}: add one to common/plain_loop.rs"),
        };
        let row = versus_plain_loop(
            engine,
            entry.name,
            algorithm,
            shuffle,
            52,
            trials,
            floor_at_52(entry.name),
        );
        rows.push((entry.name, shuffle.by_hand(), row));
        // `run` keeps for a dealer a second table set, of the relative permutations of
        // consecutive deals: beside the row above (the plain loop tallies the deals alone,
        // as the plain loop does), the plain loop that tallies both, like for like.
        if let Shuffle::DealerRiffles(times) = shuffle {
            let title = "dealer-riffles, plain loop with the relative tables";
            let shuffle = Shuffle::DealerRifflesRelative(times);
            let row = versus_plain_loop(engine, title, algorithm, shuffle, 52, trials, Some(1.0));
            rows.push(("dealer-riffles (+relative)", shuffle.by_hand(), row));
        }
    }
    println!("every catalogue shuffle, 52 cards, run's default tallies, against the plain loop");
    println!(
        "  {:<26} {:>8} {:>8} {:>6} {:>6}  {:<11} pairs",
        "shuffle", "M/s", "plain", "ratio", "floor", "plain loop"
    );
    for (name, by_hand, (simulate, plain, ratio, low, high)) in rows {
        let kind = if by_hand { "by hand" } else { "catalogue" };
        let floor = floor_at_52(name.split(' ').next().unwrap_or(name))
            .map_or("-".to_string(), |floor| format!("{floor:.1}"));
        println!(
            "  {name:<26} {:>8.3} {:>8.3} {ratio:>6.2} {floor:>6}  {kind:<11} {low:.2}-{high:.2}",
            simulate / 1e6,
            plain / 1e6
        );
    }
}

/// Issue 33's floor for a catalogue shuffle at 52 cards against its plain loop, where it
/// set one: 1.5x for the naive swap and Fisher–Yates, 1.0x for the riffles and the dealer.
fn floor_at_52(name: &str) -> Option<f64> {
    match name {
        "naive-swap" | "fisher-yates" => Some(1.5),
        "riffles" | "dealer-riffles" => Some(1.0),
        _ => None,
    }
}

/// `shuffle-bag` draws per second with every tally, and dealing alone.
fn stream_throughput(threads: usize) {
    let spec = GeneratorSpec::parse("shuffle-bag").expect("in the catalogue");
    let settings = StreamSettings {
        source: Default::default(),
        items: Items::parse("A:50,B:25,C:20,D:5").expect("valid items"),
        length: 100_000,
        streams: 2_000,
        seed: Some(0),
        threads,
        alpha: 1e-6,
        scenario: StreamScenario { add_every: None },
    };
    let draws = (settings.length * settings.streams) as f64;
    let engine = Engine::new(threads).expect("worker threads start");
    let mut tallied = Vec::new();
    let mut alone = Vec::new();
    for seed in 0..REPETITIONS {
        let settings = StreamSettings {
            seed: Some(seed),
            ..settings.clone()
        };
        let started = Instant::now();
        let report = run_streams(&[spec], &settings, &NoProgress).expect("valid settings");
        tallied.push(started.elapsed().as_secs_f64());
        assert_eq!(report.results[0].tally.draws() as f64, draws);

        let started = Instant::now();
        let sums = engine.run_streams(
            settings.streams,
            settings.length,
            seed,
            &NoProgress,
            || 0u64,
            |sum, source, _| {
                let mut generator = spec.build(&settings.items, &settings.scenario);
                let mut local = 0u64;
                generator.draw_each(source, settings.length, &mut |item| {
                    local = local.wrapping_add(u64::from(item))
                });
                *sum = sum.wrapping_add(local);
            },
        );
        black_box(sums);
        alone.push(started.elapsed().as_secs_f64());
    }
    println!("shuffle-bag stream, items A:50,B:25,C:20,D:5, 2,000 streams x 100,000 draws");
    println!(
        "  draws + every tally: {:>8.1} M draws/s",
        draws / median(&mut tallied) / 1e6
    );
    println!(
        "  draws only:          {:>8.1} M draws/s",
        draws / median(&mut alone) / 1e6
    );
}

/// Fisher–Yates and naive swap on 3 to 6 cards with every tally, each against the plain
/// loop that draws the same batched indices and tallies nothing (issue 33's floor: at
/// least 0.9x), then a table of the ratios.
fn small_decks(engine: &Engine) {
    let mut rows = Vec::new();
    for (name, algorithm) in [
        ("fisher-yates", PermutationAlgorithm::FisherYates),
        ("naive-swap", PermutationAlgorithm::NaiveSwap),
    ] {
        for n in 3..=6usize {
            // About a second a side at the draw loop's speed (3 cards: over 1,000 M/s).
            let trials = 6_000 * PAIR / n as u64;
            let title = format!("{name}, {n} cards, every tally");
            let row = match n {
                3 => compare::<3>(engine, &title, algorithm, trials),
                4 => compare::<4>(engine, &title, algorithm, trials),
                5 => compare::<5>(engine, &title, algorithm, trials),
                _ => compare::<6>(engine, &title, algorithm, trials),
            };
            rows.push((name, n, row));
        }
    }
    println!("small decks, every tally, against the batched draw-only loop (floor 0.9)");
    println!(
        "  {:<14} {:>5} {:>9} {:>9} {:>6}  pairs",
        "shuffle", "cards", "M/s", "draws", "ratio"
    );
    for (name, n, (simulate, draws, ratio, low, high)) in rows {
        println!(
            "  {name:<14} {n:>5} {:>9.1} {:>9.1} {ratio:>6.2}  {low:.2}-{high:.2}",
            simulate / 1e6,
            draws / 1e6
        );
    }
}

/// The draws one `N`-card shuffle of `algorithm` makes, batched exactly as the catalogue
/// batches them ([`each_draw`]), summed and nothing else: the floor the tallied
/// simulation is measured against.
#[inline(always)]
fn draws_only<const N: usize, R: Randomness>(algorithm: PermutationAlgorithm, rng: &mut R) -> usize {
    let mut sum = 0;
    match algorithm {
        PermutationAlgorithm::FisherYates => {
            each_draw(rng, N - 1, N as u64, |step| (N - step) as u64, |_, j| sum += j)
        }
        _ => each_draw(rng, N, N as u64, |_| N as u64, |_, j| sum += j),
    }
    sum
}

/// A chunk of the draw-only loop, on a copy of the generator kept in registers (as the
/// engine's loops keep theirs), so that the floor is as fast as the compiler makes it.
#[inline(never)]
fn draw_chunk<const N: usize, R: Randomness + Clone>(
    algorithm: PermutationAlgorithm,
    source: &mut R,
    count: u64,
) -> u64 {
    let mut local = source.clone();
    let mut sum = 0u64;
    for _ in 0..count {
        sum = sum.wrapping_add(draws_only::<N, R>(algorithm, &mut local) as u64);
    }
    *source = local;
    sum
}

/// Times `algorithm` on `N` cards with every tally against [`draws_only`], in
/// back-to-back pairs. Returns shuffles per second of both, the median ratio and the
/// range of the ratios.
fn compare<const N: usize>(
    engine: &Engine,
    title: &str,
    algorithm: PermutationAlgorithm,
    trials: u64,
) -> (f64, f64, f64, f64, f64) {
    let mut simulate_seconds = Vec::new();
    let mut draw_seconds = Vec::new();
    for seed in 0..REPETITIONS {
        let started = Instant::now();
        let tally = simulate_permutations(
            engine,
            algorithm,
            N,
            trials,
            seed,
            TallyOptions::default(),
            &NoProgress,
        );
        simulate_seconds.push(started.elapsed().as_secs_f64());
        assert_eq!(tally.trials, trials);

        let started = Instant::now();
        let sums = engine.run_chunks(
            trials,
            seed,
            &NoProgress,
            || 0u64,
            |sum, source, count, _| {
                let drawn = with_source!(source, |source| draw_chunk::<N, _>(algorithm, source, count));
                *sum = sum.wrapping_add(drawn);
            },
        );
        black_box(sums);
        draw_seconds.push(started.elapsed().as_secs_f64());
    }
    let mut ratios: Vec<f64> = draw_seconds
        .iter()
        .zip(&simulate_seconds)
        .map(|(d, s)| d / s)
        .collect();
    let simulate = trials as f64 / median(&mut simulate_seconds);
    let draws = trials as f64 / median(&mut draw_seconds);
    let ratio = median(&mut ratios);
    println!("{title}");
    println!("  simulate + tally: {:>8.1} M shuffles/s", simulate / 1e6);
    println!("  draws only:       {:>8.1} M shuffles/s", draws / 1e6);
    println!(
        "  ratio:            {ratio:>8.2}  (pairs ranged {:.2} to {:.2})",
        ratios[0],
        ratios[ratios.len() - 1]
    );
    print_floor(ratio, Some(0.9));
    (simulate, draws, ratio, ratios[0], ratios[ratios.len() - 1])
}

/// Times `run`'s default 52-, 200- or 2,000-card simulation (every table `run` keeps by
/// default for `algorithm`) against the plain loop of issue 15 ([`plain_loop`]), in
/// back-to-back pairs.
/// Returns shuffles per second of both, the median ratio and the range of the ratios.
fn versus_plain_loop(
    engine: &Engine,
    title: &str,
    algorithm: PermutationAlgorithm,
    shuffle: Shuffle,
    n: usize,
    trials: u64,
    floor: Option<f64>,
) -> (f64, f64, f64, f64, f64) {
    let options = shuffle_audit::run::tally_options(algorithm, n, SourceKind::Xoshiro);
    let plain = |seed| match n {
        52 => plain_loop::run::<u8, 52>(shuffle, trials, seed),
        200 => plain_loop::run::<u8, 200>(shuffle, trials, seed),
        2_000 => plain_loop::run::<u16, 2_000>(shuffle, trials, seed),
        _ => unreachable!("a deck size the plain loop is compiled for"),
    };
    let mut simulate_seconds = Vec::new();
    let mut plain_seconds = Vec::new();
    for seed in 0..REPETITIONS {
        let started = Instant::now();
        let tally = simulate_permutations(engine, algorithm, n, trials, seed, options, &NoProgress);
        simulate_seconds.push(started.elapsed().as_secs_f64());
        assert_eq!(tally.trials, trials);

        let started = Instant::now();
        black_box(engine.install(|| plain(seed)));
        plain_seconds.push(started.elapsed().as_secs_f64());
    }
    let mut ratios: Vec<f64> = plain_seconds
        .iter()
        .zip(&simulate_seconds)
        .map(|(p, s)| p / s)
        .collect();
    let simulate = trials as f64 / median(&mut simulate_seconds);
    let plain = trials as f64 / median(&mut plain_seconds);
    let ratio = median(&mut ratios);
    println!("{title}, {n} cards, run's default tallies, against the plain loop");
    println!("  shuffle-audit:    {:>8.3} M shuffles/s", simulate / 1e6);
    println!("  plain loop:       {:>8.3} M shuffles/s", plain / 1e6);
    println!(
        "  ratio:            {ratio:>8.2}  (pairs ranged {:.2} to {:.2})",
        ratios[0],
        ratios[ratios.len() - 1]
    );
    print_floor(ratio, floor);
    (simulate, plain, ratio, ratios[0], ratios[ratios.len() - 1])
}

/// The floor a ratio is held to, and whether this run met it.
fn print_floor(ratio: f64, floor: Option<f64>) {
    if let Some(floor) = floor {
        let verdict = if ratio >= floor { "met" } else { "NOT MET" };
        println!("  floor:            {floor:>8.2}  ({verdict})");
    }
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}
