//! The small-sample calibration sweep of `ingest` (issue 40): fair inputs of a few deals,
//! read by the very `ingest` the command line runs (in this process, one input per task,
//! so that thousands of inputs take seconds rather than thousands of process starts), and
//! how often each test's p-value falls at or below 1e-1, 1e-2 and 1e-3, and how often the
//! verdict is suspicious or fail.
//!
//! ```text
//! cargo run --release --example calibrate_small -- [--inputs M] [--seed S] [--show-failures] CELL...
//! ```
//!
//! A `CELL` is `permutations:N:DEALS` (fair Fisher–Yates decks of `N` cards),
//! `selections:N:K:SAMPLES` (fair `K`-subsets of `N` items, in a random order) or
//! `stream:W1,W2,…:DRAWS` (independent draws with those weights); `--show-failures` lists
//! the inputs whose verdict was suspicious or fail, `--markdown` ends with a table of one
//! row per cell (each level's highest share over the cell's tests, the verdicts' shares),
//! and `--write-input SEED CELL` prints one input (for `shuffle-audit ingest` to read
//! again). `DEALS` may be a range
//! `A..=B` or a list `A,B,C`: one cell per value. Each input is dealt by Xoshiro256++
//! from its own seed (`S`, the cell and the input's number), so a sweep is repeatable.
//!
//! Prints one block per cell: for every test that ran, its share of p ≤ 1e-1, 1e-2 and
//! 1e-3 beside the nominal rate, how its p-values were computed (χ², exact, simulated),
//! and a flag where the count is above the nominal rate beyond binomial noise
//! (`P(Binomial(M, level) >= count) < 1e-4`); then the share of suspicious and failing
//! verdicts against the goal (at most 0.5 % suspicious or worse, flagged beyond binomial
//! noise in the same way). Ends with `goals: met` or `goals: NOT met` (and exit status 1),
//! so that CI can run a lean sweep; the inputs are seeded, so a sweep is repeatable.
//!
//! The predictability check is given no time (it is not a statistical test and does not
//! change the verdict without `--unpredictable`): what is calibrated is the tests.

use std::collections::BTreeMap;
use std::io::Cursor;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use shuffle_audit::analysis::TestOutcome;
use shuffle_audit::catalogue::fisher_yates;
use shuffle_audit::ingest::{IngestSettings, Input, SampleKind, ingest};
use shuffle_audit::randomness::SimulationSource;
use shuffle_audit::simulate::NoProgress;
use shuffle_audit::{Randomness, Verdict};

/// The p-value levels whose shares are printed.
const LEVELS: [f64; 3] = [1e-1, 1e-2, 1e-3];

/// A cell is flagged when its count at a level is this unlikely under the nominal rate:
/// a sweep makes about a thousand such checks, so at 1e-4 a test exactly at its nominal
/// rate flags about one sweep in ten, and the tests, conservative where discrete, fewer.
const FLAG_BELOW: f64 = 1e-4;

/// The largest share of suspicious-or-worse verdicts a cell may have (the issue's goal).
const MOST_SUSPICIOUS_SHARE: f64 = 0.005;

#[derive(Clone, Debug)]
enum Cell {
    Permutations { n: usize, deals: u64 },
    Selections { n: usize, k: usize, samples: u64 },
    Stream { weights: Vec<u64>, draws: u64 },
}

impl Cell {
    fn label(&self) -> String {
        match self {
            Cell::Permutations { n, deals } => format!("permutations, {n} cards, {deals} deals"),
            Cell::Selections { n, k, samples } => format!("selections, {k} of {n}, {samples} samples"),
            Cell::Stream { weights, draws } => format!(
                "stream, weights {}, {draws} draws",
                weights.iter().map(u64::to_string).collect::<Vec<_>>().join(":")
            ),
        }
    }

    /// The text of input `index`, as a program would print it.
    fn input(&self, seed: u64) -> String {
        let mut rng = SimulationSource::from_seed(seed);
        let mut text = String::new();
        let join = |items: &[usize], text: &mut String| {
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    text.push(' ');
                }
                text.push_str(&item.to_string());
            }
            text.push('\n');
        };
        match self {
            Cell::Permutations { n, deals } => {
                for _ in 0..*deals {
                    let mut deck: Vec<usize> = (0..*n).collect();
                    fisher_yates(&mut deck, &mut rng);
                    join(&deck, &mut text);
                }
            }
            Cell::Selections { n, k, samples } => {
                for _ in 0..*samples {
                    let mut deck: Vec<usize> = (0..*n).collect();
                    fisher_yates(&mut deck, &mut rng);
                    join(&deck[..*k], &mut text);
                }
            }
            Cell::Stream { weights, draws } => {
                let total: u64 = weights.iter().sum();
                for _ in 0..*draws {
                    let mut pick = rng.below(total);
                    let item = weights
                        .iter()
                        .position(|&weight| {
                            if pick < weight {
                                true
                            } else {
                                pick -= weight;
                                false
                            }
                        })
                        .expect("a draw below the total weight falls on an item");
                    text.push_str(&item.to_string());
                    text.push('\n');
                }
            }
        }
        text
    }

    fn settings(&self) -> IngestSettings {
        let mut settings = IngestSettings::permutations(1, shuffle_audit::stats::verdict::DEFAULT_ALPHA);
        settings.predictability_budget = Duration::ZERO;
        match self {
            Cell::Permutations { .. } => {}
            Cell::Selections { n, k, .. } => {
                settings.kind = SampleKind::Selections;
                settings.k = Some(*k);
                settings.deck = Some((0..*n).map(|item| item.to_string()).collect());
                settings.ordered = true;
            }
            Cell::Stream { weights, .. } => {
                settings.kind = SampleKind::Stream;
                let spec = weights
                    .iter()
                    .enumerate()
                    .map(|(item, weight)| format!("{item}:{weight}"))
                    .collect::<Vec<_>>()
                    .join(",");
                settings.weights =
                    Some(shuffle_audit::catalogue::items::Items::parse(&spec).expect("weights"));
            }
        }
        settings
    }
}

/// One test's counts over a cell's inputs: how often it ran, how often its p-value was at
/// or below each of [`LEVELS`], and how often each method computed it.
#[derive(Default)]
struct TestCounts {
    ran: u64,
    at_or_below: [u64; 3],
    methods: BTreeMap<String, u64>,
}

/// What one input's audit said.
struct Outcome {
    verdict: Verdict,
    /// Per test that ran: its name, p-value, and how it was computed.
    tests: Vec<(String, f64, String)>,
}

fn audit(cell: &Cell, seed: u64) -> Outcome {
    let report = ingest(
        Input::reader(Cursor::new(cell.input(seed).into_bytes())),
        "calibration",
        &cell.settings(),
        &NoProgress,
    )
    .expect("a fair input is read");
    let tests = report
        .tests()
        .iter()
        .filter_map(|test| {
            let p = test.p_value()?;
            let method = match &test.outcome {
                TestOutcome::Fit(fit) => fit.method_label(),
                TestOutcome::Count { method, .. } => method.name().as_str().to_string(),
                _ => unreachable!("a test with a p-value ran"),
            };
            Some((test.name.to_string(), p.value_floored(), method))
        })
        .collect();
    Outcome {
        verdict: report.verdict(),
        tests,
    }
}

/// `P(X >= k)` for `X ~ Binomial(m, p)`, summed from the top (no cancellation).
fn binomial_upper_tail(k: u64, m: u64, p: f64) -> f64 {
    if k == 0 {
        return 1.0;
    }
    let ln_pmf = |i: u64| {
        statrs::function::factorial::ln_binomial(m, i) + i as f64 * p.ln() + (m - i) as f64 * (-p).ln_1p()
    };
    (k..=m).map(|i| ln_pmf(i).exp()).sum::<f64>().min(1.0)
}

fn parse_counts(text: &str) -> Vec<u64> {
    if let Some((from, to)) = text.split_once("..=") {
        let (from, to): (u64, u64) = (from.parse().expect("a count"), to.parse().expect("a count"));
        (from..=to).collect()
    } else {
        text.split(',')
            .map(|count| count.parse().expect("a count"))
            .collect()
    }
}

fn parse_cells(spec: &str) -> Vec<Cell> {
    let parts: Vec<&str> = spec.split(':').collect();
    match parts.as_slice() {
        ["permutations", n, deals] => parse_counts(deals)
            .into_iter()
            .map(|deals| Cell::Permutations {
                n: n.parse().expect("a deck size"),
                deals,
            })
            .collect(),
        ["selections", n, k, samples] => parse_counts(samples)
            .into_iter()
            .map(|samples| Cell::Selections {
                n: n.parse().expect("a deck size"),
                k: k.parse().expect("a sample size"),
                samples,
            })
            .collect(),
        ["stream", weights, draws] => parse_counts(draws)
            .into_iter()
            .map(|draws| Cell::Stream {
                weights: weights.split(',').map(|w| w.parse().expect("a weight")).collect(),
                draws,
            })
            .collect(),
        _ => {
            panic!("a cell is permutations:N:DEALS, selections:N:K:SAMPLES or stream:W,W,…:DRAWS, not {spec}")
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut inputs = 1000u64;
    let mut seed = 40u64;
    let mut show_failures = false;
    let mut markdown = false;
    let mut summary: Vec<String> = Vec::new();
    let mut cells = Vec::new();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--inputs" => inputs = args.next().and_then(|m| m.parse().ok()).expect("--inputs M"),
            "--seed" => seed = args.next().and_then(|s| s.parse().ok()).expect("--seed S"),
            "--show-failures" => show_failures = true,
            "--markdown" => markdown = true,
            "--write-input" => {
                // `--write-input SEED CELL`: print that input, as a program would, and stop.
                let input_seed: u64 = args
                    .next()
                    .and_then(|s| s.parse().ok())
                    .expect("--write-input SEED CELL");
                let cell = parse_cells(&args.next().expect("--write-input SEED CELL")).remove(0);
                print!("{}", cell.input(input_seed));
                return;
            }
            spec => cells.extend(parse_cells(spec)),
        }
    }
    // `ingest` keeps large tallies on the stack of the thread that runs it.
    rayon::ThreadPoolBuilder::new()
        .stack_size(64 << 20)
        .build_global()
        .expect("the first pool of the process");
    let started = Instant::now();
    let mut goals_met = true;
    for (cell_index, cell) in cells.iter().enumerate() {
        let input_seed = |input: u64| {
            seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .wrapping_add((cell_index as u64) << 32)
                .wrapping_add(input)
        };
        let outcomes: Vec<Outcome> = (0..inputs)
            .into_par_iter()
            .map(|input| audit(cell, input_seed(input)))
            .collect();
        let mut per_test: BTreeMap<String, TestCounts> = BTreeMap::new();
        for outcome in &outcomes {
            for (name, p, method) in &outcome.tests {
                let entry = per_test.entry(name.clone()).or_default();
                entry.ran += 1;
                for (level, count) in LEVELS.iter().zip(entry.at_or_below.iter_mut()) {
                    if *p <= *level {
                        *count += 1;
                    }
                }
                *entry.methods.entry(method.clone()).or_default() += 1;
            }
        }
        println!("{} ({inputs} fair inputs)", cell.label());
        if show_failures {
            for (input, outcome) in outcomes.iter().enumerate() {
                if matches!(outcome.verdict, Verdict::Fail | Verdict::Suspicious) {
                    let tests: Vec<String> = outcome
                        .tests
                        .iter()
                        .map(|(name, p, method)| format!("{name} {p:.2e} {method}"))
                        .collect();
                    println!(
                        "  {} input seed {}: {}",
                        outcome.verdict,
                        input_seed(input as u64),
                        tests.join("; ")
                    );
                }
            }
        }
        for (name, counts) in &per_test {
            let ran = counts.ran;
            let mut line = format!("  {name:<24} ran {ran:>5}");
            for (level, &count) in LEVELS.iter().zip(&counts.at_or_below) {
                let flagged = binomial_upper_tail(count, ran, *level) < FLAG_BELOW;
                goals_met &= !flagged;
                line.push_str(&format!(
                    "  p<={level:<5} {:>6.2} % (nominal {:>4} %){}",
                    100.0 * count as f64 / ran as f64,
                    100.0 * level,
                    if flagged { " HIGH" } else { "" }
                ));
            }
            let methods: Vec<String> = counts.methods.iter().map(|(m, c)| format!("{m} {c}")).collect();
            line.push_str(&format!("  [{}]", methods.join(", ")));
            println!("{line}");
        }
        let suspicious = outcomes
            .iter()
            .filter(|o| o.verdict == Verdict::Suspicious)
            .count();
        let fail = outcomes.iter().filter(|o| o.verdict == Verdict::Fail).count();
        let inconclusive = outcomes
            .iter()
            .filter(|o| o.verdict == Verdict::Inconclusive)
            .count();
        // Flagged when the count is unlikely (below FLAG_BELOW) at a true share of 0.5 %.
        let met =
            binomial_upper_tail((suspicious + fail) as u64, inputs, MOST_SUSPICIOUS_SHARE) >= FLAG_BELOW;
        goals_met &= met;
        println!(
            "  verdicts: suspicious {:.2} %, fail {:.2} % (goal: together at most {} %){}; inconclusive {:.1} %",
            100.0 * suspicious as f64 / inputs as f64,
            100.0 * fail as f64 / inputs as f64,
            100.0 * MOST_SUSPICIOUS_SHARE,
            if met { "" } else { " NOT MET" },
            100.0 * inconclusive as f64 / inputs as f64,
        );
        // The cell's row of the summary: the highest share over its tests at each level.
        let highest = |level: usize| {
            per_test
                .values()
                .map(|counts| counts.at_or_below[level] as f64 / counts.ran as f64)
                .fold(0.0f64, f64::max)
        };
        summary.push(format!(
            "| {} | {} | {:.1} % | {:.2} % | {:.2} % | {:.1} % | {:.1} % | {:.1} % |",
            cell.label(),
            per_test.len(),
            100.0 * highest(0),
            100.0 * highest(1),
            100.0 * highest(2),
            100.0 * suspicious as f64 / inputs as f64,
            100.0 * fail as f64 / inputs as f64,
            100.0 * inconclusive as f64 / inputs as f64,
        ));
    }
    if markdown {
        println!();
        println!(
            "| cell ({inputs} fair inputs each) | tests run | highest share p ≤ 0.1 | p ≤ 0.01 | p ≤ 0.001 | suspicious | fail | inconclusive |"
        );
        println!("|---|--:|--:|--:|--:|--:|--:|--:|");
        for row in &summary {
            println!("{row}");
        }
    }
    println!(
        "goals: {} ({} cells, {:.1} s)",
        if goals_met { "met" } else { "NOT met" },
        cells.len(),
        started.elapsed().as_secs_f64()
    );
    if !goals_met {
        std::process::exit(1);
    }
}
