//! # shuffle-audit
//!
//! Finds out whether a shuffle is fair: runs it millions of times in parallel, tallies
//! what comes out, tests the tallies, and says how large any bias is and where.
//!
//! The pieces, in the order data flows through them:
//!
//! - [`randomness`]: the one narrow door ([`Randomness`]) through which every algorithm
//!   draws, the Xoshiro256++ simulation source behind it, and the flawed sources of the
//!   source texts (`rand() % n`, Delphi's `Random`, re-seeding from a clock).
//! - [`catalogue`]: the shuffles from the source texts, fair and subtly biased, each with
//!   its origin and the verdict it is known to get.
//! - [`simulate`]: the deterministic parallel engine (same seed, same tallies, whatever the
//!   thread count).
//! - [`tally`]: order counts by Lehmer rank, the item × position matrix, fixed points and
//!   cycles.
//! - [`stats`] and [`analysis`]: χ² tests with the right calibration, p-values that survive
//!   underflow, Holm's correction, verdicts and effect sizes.
//! - [`run`]: the `shuffle-audit run` command as a library call; [`stream`]: the
//!   `shuffle-audit stream` command (generators of endless item sequences, shuffle bags);
//!   [`output`] renders every command's report as text, JSON, CSV and JUnit XML (a
//!   folder per format, a file per report type), and [`report`] as an HTML page with SVG
//!   charts (and the committed teaching report).
//! - [`assertion`]: [`assert_fair_shuffle`] and [`FairShuffleAudit`], for other crates'
//!   tests: audit a shuffle you wrote, and fail the test with a readable report if it is
//!   biased.
//! - [`merge`]: the `shuffle-audit merge` command, adding the shards of a run spread over
//!   several machines (`run --shard I/K`) into exactly the single run's report.
//! - [`serve`]: the `shuffle-audit serve` live page: a catalogue run watched as it goes,
//!   and deals from a user's JavaScript or a file, tested as `ingest` tests them.
//! - [`check`]: the `shuffle-audit check` CI gate, a suite of cases each with the verdict
//!   it should get, a suspicious result confirmed before it counts.
//! - [`ingest`]: the `shuffle-audit ingest` command: samples written by another program,
//!   read as a stream and tested as `run` tests a catalogue algorithm.
//! - [`seeds`]: the `shuffle-audit seeds` commands: how many decks a seed space can deal
//!   (`reach`), and the online-poker seed recovery (`crack`).
//! - [`files`]: where outputs land (atomic files, report folders, the inputs never
//!   overwritten, temporaries removed on a signal); [`format`](mod@format): numbers and
//!   outside text written for people; [`parse`] and [`error`]: counts as users write
//!   them, and the one error type.
//!
//! ## Layers
//!
//! The modules form layers, listed here top first. A module imports only modules listed
//! below it, never one above: the engine (`run` and everything under it) knows nothing of
//! rendering, and a helper that several layers need lives at the bottom (number formats
//! in [`format`](mod@format), the largest deck in [`tally::MAX_N`]). The test
//! `tests/layers.rs` reads this list and fails on an import that reaches up, so no import
//! circle can form; a new module must be placed in it. The command line (`src/main.rs`,
//! which parses and dispatches, and one module per command in `src/cli/`) sits above all
//! of it, in the binary.
//!
//! Files stay under about 600 lines so that each can be read in one sitting: a module's
//! unit tests live in a `tests.rs` beside it (`catalogue/tests.rs`,
//! `tally/repeats/tests.rs`), and a module that grows splits by concern (the catalogue's
//! entries, its name parsing and its code; a generator's spec and its state machine).
//!
//! ```text
//! serve       the live page: a local server over the engine, ingest and the report's charts
//! report      HTML and Markdown documents with SVG charts; the teaching report
//! assertion   assert_fair_shuffle, for a user's `cargo test`
//! output      every command's report rendered as text, JSON, CSV and JUnit XML
//! check       the CI gate: a suite of cases, each with the verdict it expects
//! merge       the shards of a run added into the whole run
//! ingest      samples written by other programs, tested as `run` tests an algorithm
//! seeds       seed spaces: how many decks they reach, which seed dealt a hand
//! stream      endless item streams (i.i.d. picks, shuffle bags), drawn and tested
//! run         the `run` command as a library call: simulate, tally, analyse
//! exact       every random path enumerated: exact laws, position matrices
//! analysis    from tallies to findings: which tests apply and what they say
//! simulate    the deterministic parallel engine
//! catalogue   the algorithms, samplers and generators, and the items streams deal
//! stats       chi-square and the other tests, p-values, laws, verdicts, power
//! tally       counts that add: orders, positions, subsets, streams, repeats
//! randomness  the narrow door every algorithm draws through, and the sources behind it
//! files       where outputs land: atomic files, report folders, cleanup on signals
//! parse       counts as users write them: 600000, 600_000, 6e5
//! format      numbers and outside text written for people
//! error       the one error type
//! ```
//!
//! In your own crate's tests (with `shuffle-audit` as a dev-dependency), one line checks
//! that your shuffle is fair:
//!
//! ```
//! # fn my_shuffle<T>(items: &mut [T], rng: &mut impl rand::Rng) {
//! #     use rand::seq::SliceRandom;
//! #     items.shuffle(rng);
//! # }
//! shuffle_audit::assert_fair_shuffle(|deck, rng| my_shuffle(deck, rng));
//! ```
//!
//! A catalogue algorithm, run as the command line runs it:
//!
//! ```
//! use shuffle_audit::catalogue::AlgorithmSpec;
//! use shuffle_audit::run::{run, RunSettings};
//! use shuffle_audit::simulate::NoProgress;
//! use shuffle_audit::stats::Verdict;
//!
//! let naive = AlgorithmSpec::parse("naive-swap").unwrap();
//! let settings = RunSettings { n: 3, k: None, trials: 600_000, seed: Some(1), threads: 2, alpha: 1e-6, shard: None, source: Default::default() };
//! let report = run(&[naive], &settings, &NoProgress).unwrap();
//! assert_eq!(report.results[0].analysis.verdict, Verdict::Fail);
//! ```

pub mod analysis;
pub mod assertion;
pub mod catalogue;
pub mod check;
pub mod error;
pub mod exact;
pub mod files;
pub mod format;
pub mod ingest;
pub mod merge;
pub mod output;
pub mod parse;
pub mod randomness;
pub mod report;
pub mod run;
pub mod seeds;
pub mod serve;
pub mod simulate;
pub mod stats;
pub mod stream;
pub mod tally;

pub use assertion::{FairShuffleAudit, ShuffleAudit, assert_fair_shuffle};
pub use error::{Error, Result};
pub use randomness::{Randomness, SimulationSource};
pub use simulate::AuditRng;
pub use stats::Verdict;
