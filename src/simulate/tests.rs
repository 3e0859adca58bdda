//! The engine's unit tests: every trial once, tallies independent of the thread count,
//! a run grown in steps equal to the whole run, tallying by path equal to deck by deck,
//! the guessing game from chunk 0's own deals equal to the game dealt again.

use super::game::ChunkZeroGame;
use super::permutations::{Simulation, merged};
use super::*;
use crate::catalogue::PermutationAlgorithm;
use crate::tally::{PermutationTally, TallyOptions};

#[test]
fn every_trial_runs_exactly_once() {
    let engine = Engine::new(3).unwrap();
    let trials = 5 * CHUNK_TRIALS + 17;
    let counts = engine.run_chunks(
        trials,
        1,
        &NoProgress,
        || 0u64,
        |total, _, count, _| *total += count,
    );
    assert_eq!(counts.len(), 3);
    assert_eq!(counts.iter().sum::<u64>(), trials);
}

#[test]
fn a_run_grown_in_steps_adds_up_to_the_whole_run() {
    let whole = {
        let engine = Engine::new(2).unwrap();
        simulate_permutations(
            &engine,
            PermutationAlgorithm::NaiveSwap,
            5,
            7 * CHUNK_TRIALS + 3,
            42,
            TallyOptions::default(),
            &NoProgress,
        )
    };
    let mut engine = Engine::new(2).unwrap();
    let mut total: Option<PermutationTally> = None;
    for (first, end) in [
        (0, CHUNK_TRIALS),
        (1, 4 * CHUNK_TRIALS),
        (4, 7 * CHUNK_TRIALS + 3),
    ] {
        engine.skip_chunks_before(first);
        let step = simulate_permutations(
            &engine,
            PermutationAlgorithm::NaiveSwap,
            5,
            end,
            42,
            TallyOptions::default(),
            &NoProgress,
        );
        match &mut total {
            Some(total) => total.add(&step),
            None => total = Some(step),
        }
    }
    assert_eq!(total.unwrap(), whole);
}

#[test]
fn tallies_do_not_depend_on_the_thread_count() {
    let run = |threads| {
        let engine = Engine::new(threads).unwrap();
        simulate_permutations(
            &engine,
            PermutationAlgorithm::NaiveSwap,
            4,
            3 * CHUNK_TRIALS + 5,
            99,
            TallyOptions::default(),
            &NoProgress,
        )
    };
    let one = run(1);
    assert_eq!(one.trials, 3 * CHUNK_TRIALS + 5);
    assert_eq!(one, run(2));
    assert_eq!(one, run(8));
}

#[test]
fn tallying_by_path_gives_exactly_the_deck_by_deck_tally() {
    let engine = Engine::new(2).unwrap();
    let mut compared = 0;
    for entry in crate::catalogue::SHUFFLES {
        for n in 2..=10 {
            let Some(schedule) = entry_algorithm(entry).resolve(n).draw_schedule(n) else {
                continue;
            };
            if paths::path_count(&schedule) > paths::MAX_PATHS {
                continue;
            }
            let simulation = Simulation {
                engine: &engine,
                algorithm: entry_algorithm(entry).resolve(n),
                trials: 2 * CHUNK_TRIALS + 99,
                seed: 17,
                options: TallyOptions::default(),
                progress: &NoProgress,
                game: None,
            };
            let by_path = simulation.run(n).finish();
            assert_eq!(
                by_path,
                deck_by_deck(&simulation, n),
                "{} on {n} cards",
                entry.name
            );
            assert_eq!(by_path.trials, 2 * CHUNK_TRIALS + 99);
            compared += 1;
        }
    }
    // fisher-yates (both) 2..=8, sattolo and roguelike 2..=9, naive 2..=6, naive-repeated:n
    // 2..=3, asf-poker 2..=6 ((n-1)^n paths), overhand:1 2..=10 (2^(n-1) paths), shelf:10
    // 2..=3 (20^n paths; two passes of 2 cards already make 160,000), pile:4 2..=10 (one
    // path: it draws nothing).
    assert_eq!(compared, 7 + 7 + 8 + 8 + 5 + 2 + 5 + 9 + 2 + 9);
}

/// `simulation`'s tally on `n` cards (at most ten) from the deck-by-deck loop, never by path.
fn deck_by_deck(simulation: &Simulation, n: usize) -> crate::tally::PermutationTally {
    let recorders = match n {
        2 => simulation.fixed_size::<2>(),
        3 => simulation.fixed_size::<3>(),
        4 => simulation.fixed_size::<4>(),
        5 => simulation.fixed_size::<5>(),
        6 => simulation.fixed_size::<6>(),
        7 => simulation.fixed_size::<7>(),
        8 => simulation.fixed_size::<8>(),
        9 => simulation.fixed_size::<9>(),
        10 => simulation.fixed_size::<10>(),
        _ => unreachable!("decks of 2 to 10 cards run a loop of their size"),
    };
    merged(recorders, &NoProgress).finish()
}

fn entry_algorithm(entry: &crate::catalogue::CatalogueEntry) -> PermutationAlgorithm {
    crate::catalogue::AlgorithmSpec::parse(entry.name)
        .unwrap()
        .algorithm
        .as_permutation()
        .expect("SHUFFLES lists shuffles")
}

#[test]
fn the_shards_of_a_run_add_up_to_the_whole_run() {
    // 5 chunks, the last one partial; tallied by path (4 cards), deck by deck in a
    // loop compiled for the size (7 cards) and for any size (12 cards).
    let trials = 4 * CHUNK_TRIALS + 3;
    for n in [4, 7, 12] {
        let simulate = |engine: &Engine| {
            simulate_permutations(
                engine,
                PermutationAlgorithm::NaiveSwap,
                n,
                trials,
                5,
                TallyOptions::default(),
                &NoProgress,
            )
        };
        let whole = simulate(&Engine::new(2).unwrap());
        for count in [2, 5] {
            let mut added = simulate(&Engine::new(1).unwrap().for_shard(Shard::new(1, count).unwrap()));
            for index in 2..=count {
                let engine = Engine::new(2)
                    .unwrap()
                    .for_shard(Shard::new(index, count).unwrap());
                added.add(&simulate(&engine));
            }
            assert_eq!(added, whole, "{count} shards of {n} cards");
        }
    }
}

/// The new shuffles of issues 14 and 22 (riffles, a dealer who carries the deck, overhand,
/// the shelf machine) give the same tallies for 1 and 3 threads and for a run cut into
/// shards, on a deck tallied by a loop compiled for its size (5 cards) and one of any size
/// (12 cards), over chunks of which the last is partial.
#[test]
fn riffles_dealers_and_overhands_do_not_depend_on_threads_or_shards() {
    let trials = 3 * CHUNK_TRIALS + 11;
    for algorithm in [
        PermutationAlgorithm::Riffles { times: 2 },
        PermutationAlgorithm::DealerRiffles { times: 1 },
        PermutationAlgorithm::Overhand { times: 3 },
        PermutationAlgorithm::Shelf {
            shelves: 10,
            passes: 2,
        },
    ] {
        for n in [5, 12] {
            let simulate = |engine: &Engine| {
                simulate_permutations(
                    engine,
                    algorithm,
                    n,
                    trials,
                    31,
                    TallyOptions::default(),
                    &NoProgress,
                )
            };
            let one = simulate(&Engine::new(1).unwrap());
            assert_eq!(one.trials, trials);
            assert_eq!(
                one,
                simulate(&Engine::new(3).unwrap()),
                "{algorithm:?} on {n} cards"
            );
            let mut shards = simulate(&Engine::new(2).unwrap().for_shard(Shard::new(1, 3).unwrap()));
            for index in 2..=3 {
                shards.add(&simulate(
                    &Engine::new(1).unwrap().for_shard(Shard::new(index, 3).unwrap()),
                ));
            }
            assert_eq!(one, shards, "{algorithm:?} on {n} cards, 3 shards");
        }
    }
}

/// The engine's dealer is exactly one dealer per chunk, each starting from the fresh
/// deck with the chunk's own stream: the tally equals the one rebuilt chunk by chunk
/// by hand. Without the reset at each chunk start a worker would carry its deck from
/// one chunk into the next, and this would differ (and depend on the thread count).
#[test]
fn a_dealer_starts_every_chunk_from_the_fresh_deck() {
    use crate::catalogue::Workspace;
    use crate::tally::PermutationRecorder;
    use crate::tally::guessing::{GameSplit, play_guessing_game};
    let algorithm = PermutationAlgorithm::DealerRiffles { times: 1 };
    let (n, seed, trials) = (6usize, 5u64, 2 * CHUNK_TRIALS + 100);
    let engine = Engine::new(2).unwrap();
    let tally = simulate_permutations(
        &engine,
        algorithm,
        n,
        trials,
        seed,
        TallyOptions::default(),
        &NoProgress,
    );

    let mut by_hand = PermutationRecorder::new(n, TallyOptions::default());
    let mut workspace = Workspace::default();
    let mut first_deals_riffled_once = 0;
    let mut game_deals = Vec::new();
    for chunk in 0..3u64 {
        let mut source = SimulationSource::for_chunk(seed, chunk);
        workspace.start_dealing();
        let count = CHUNK_TRIALS.min(trials - chunk * CHUNK_TRIALS);
        for deal in 0..count {
            let mut deck: Vec<u16> = (0..n as u16).collect();
            algorithm.shuffle(&mut deck, &mut source, &mut workspace);
            if deal == 0 && crate::tally::rising::rising_sequences(&deck) <= 2 {
                first_deals_riffled_once += 1;
            }
            by_hand.record(&deck);
            if chunk == 0 && deal < GameSplit::of(trials).deals() {
                game_deals.extend_from_slice(&deck);
            }
        }
    }
    // The guessing game plays chunk 0's first deals, dealt again: the same deals as the
    // tally's, one by one.
    by_hand.set_guessing(play_guessing_game(n, &game_deals, trials, false));
    assert_eq!(
        first_deals_riffled_once, 3,
        "each chunk's first deal is one riffle of the fresh deck"
    );
    assert_eq!(tally, by_hand.finish());

    // The deck really is carried: one riffle alone never deals more than two rising
    // sequences, the dealer's later deals often do.
    let riffled_once = simulate_permutations(
        &engine,
        PermutationAlgorithm::Riffles { times: 1 },
        n,
        trials,
        seed,
        TallyOptions::default(),
        &NoProgress,
    );
    assert_ne!(tally, riffled_once);
}

#[test]
fn thread_counts_outside_the_range_are_errors() {
    assert!(Engine::new(0).is_err());
    assert!(Engine::new(MAX_THREADS + 1).is_err());
    assert_eq!(Engine::new(3).unwrap().threads(), 3);
}

#[test]
fn progress_counts_every_trial_once_whether_chunks_report_or_not() {
    struct Count(std::sync::atomic::AtomicU64);
    impl Progress for Count {
        fn advance(&self, trials: u64) {
            self.0.fetch_add(trials, std::sync::atomic::Ordering::Relaxed);
        }
    }
    let engine = Engine::new(2).unwrap();
    let trials = 3 * CHUNK_TRIALS + 7;
    for report_partially in [false, true] {
        let count = Count(std::sync::atomic::AtomicU64::new(0));
        engine.run_chunks(
            trials,
            1,
            &count,
            || (),
            |_, _, chunk, progress| {
                if report_partially {
                    progress.done(chunk / 2);
                }
            },
        );
        assert_eq!(count.0.into_inner(), trials);
    }
}

/// The guessing game is played on the run's first deals by every part of a run: any
/// thread count, every shard, and the shards' tallies added keep it once.
#[test]
fn the_guessing_game_is_the_same_for_every_thread_count_and_shard() {
    let algorithm = PermutationAlgorithm::DealerRiffles { times: 3 };
    let (n, seed, trials) = (12usize, 9u64, 3 * CHUNK_TRIALS);
    let options = TallyOptions {
        serial: true,
        ..TallyOptions::default()
    };
    let run = |threads: usize, shard: Shard| {
        let engine = Engine::new(threads).unwrap().for_shard(shard);
        simulate_permutations(&engine, algorithm, n, trials, seed, options, &NoProgress)
    };
    let whole = run(2, Shard::WHOLE);
    let game = whole.guessing.clone().expect("the game was played");
    assert_eq!(
        game.training_deals + game.deals,
        crate::tally::guessing::GAME_DEALS
    );
    assert_eq!(run(1, Shard::WHOLE).guessing, Some(game.clone()));
    let mut added = run(1, Shard::new(1, 3).unwrap());
    for index in 2..=3 {
        let shard = run(2, Shard::new(index, 3).unwrap());
        assert_eq!(shard.guessing, Some(game.clone()), "shard {index}/3");
        added.add(&shard);
    }
    assert_eq!(added, whole);
    // Three riffles of the previous deck: the carried strategies see it.
    assert!(game.strategy.name().starts_with("carried-"), "{game:?}");
}

/// The game played by the worker that deals chunk 0, from the deals it makes anyway
/// (`ChunkZeroGame`), is the game of those deals dealt again ([`play_catalogue_game`]),
/// for every catalogue shuffle, at sizes on both sides of the 64-card word, with and
/// without the carried strategies, over runs whose chunk 0 is full (the game's deals
/// then span many batches) or not.
#[test]
fn the_game_from_chunk_zero_is_the_game_dealt_again() {
    let engine = Engine::new(2).unwrap();
    for entry in crate::catalogue::SHUFFLES {
        for (n, trials) in [
            (11, 2 * CHUNK_TRIALS + 5),
            (52, CHUNK_TRIALS + 77),
            (52, 500),
            (200, 1_000),
        ] {
            let algorithm = entry_algorithm(entry).resolve(n);
            for in_order in [false, true] {
                let options = TallyOptions {
                    serial: in_order,
                    ..TallyOptions::default()
                };
                let game = ChunkZeroGame::new(n, trials, in_order).expect("long enough to play");
                Simulation {
                    engine: &engine,
                    algorithm,
                    trials,
                    seed: 3,
                    options,
                    progress: &NoProgress,
                    game: Some(&game),
                }
                .run(n);
                let played = game.into_played().expect("chunk 0 was dealt and played");
                let dealt_again = play_catalogue_game(&engine, algorithm, n, trials, 3, in_order);
                assert!(dealt_again.is_some(), "{} on {n} cards", entry.name);
                assert_eq!(
                    played, dealt_again,
                    "{} on {n} cards, {trials} trials",
                    entry.name
                );
            }
        }
    }
}

/// Work cancelled this long after it started (Stop pressed during a run); the tests of
/// the layers above the engine use it too (`stream/tests.rs`).
pub(crate) struct CancelledAfter {
    pub(crate) from: std::time::Instant,
    after: std::time::Duration,
}

impl CancelledAfter {
    pub(crate) fn new(after_ms: u64) -> Self {
        Self {
            from: std::time::Instant::now(),
            after: std::time::Duration::from_millis(after_ms),
        }
    }
}

impl Progress for CancelledAfter {
    fn advance(&self, _trials: u64) {}

    fn cancelled(&self) -> bool {
        self.from.elapsed() >= self.after
    }
}

/// A cancelled run ends within milliseconds of the cancel, inside its deals: deals of a
/// second each (`naive-repeated:100000` on 2,000 cards, 2·10⁸ swaps a deal), a chunk of
/// 16,384 deals of 10⁶ swaps each on 10 cards (and the guessing game's 16,384 deals of
/// them dealt again), and samples of 2,000 items (a stream's draws: `stream/tests.rs`).
///
/// Margin: each stops within a block of work (a tenth of a millisecond, or a batch of
/// samples) of the cancel at 50 ms; the bound, two seconds, is far below the hours each
/// would run without a look inside, and far above a loaded machine's scheduling delays.
#[test]
fn a_cancelled_run_ends_inside_its_deals() {
    let bound = std::time::Duration::from_secs(2);
    let engine = Engine::new(2).unwrap();
    let long = PermutationAlgorithm::NaiveRepeated {
        passes: Some(100_000),
    };
    for n in [2_000, 10] {
        let cancel = CancelledAfter::new(50);
        record_permutations(&engine, long, n, 100_000, 1, TallyOptions::default(), &cancel);
        let took = cancel.from.elapsed();
        assert!(took < bound, "{n} cards: {took:?}");
    }
    let cancel = CancelledAfter::new(50);
    simulate_selections(
        &engine,
        crate::catalogue::SamplerAlgorithm::Reservoir,
        2_000,
        3,
        100 * CHUNK_TRIALS,
        1,
        &cancel,
    );
    assert!(
        cancel.from.elapsed() < bound,
        "samples: {:?}",
        cancel.from.elapsed()
    );
}
