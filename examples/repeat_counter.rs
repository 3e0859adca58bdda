//! How fast, and in how much memory, the repeat counter counts repeated decks.
//!
//! Deals `DEALS` decks of 52 cards (20 million unless a count is given) the way a program
//! that seeds its generator from a 32-bit number would (deal `i` is Fisher–Yates from
//! a seed drawn from `0..2^32`), counts the repeats with
//! [`shuffle_audit::tally::repeats::RepeatCounter`] (verifying every pair of equal hashes
//! by dealing both decks again), and prints the time of each phase, the peak memory of
//! the process, the repeats against what 2^32 decks expect, and the birthday test's
//! verdicts and deck-space estimate.
//!
//! ```text
//! cargo run --release --example repeat_counter [DEALS]
//! cargo run --release --example repeat_counter -- --print [DEALS] > deals.txt
//! ```
//!
//! With `--print` it writes the deals instead, one per line (cards 0..51 separated by
//! spaces), for `shuffle-audit ingest` to read: `scripts/bench_repeats.sh` measures
//! `ingest` on 20 million of them.
//!
//! Chunks of deals are dealt in parallel and merged into one counter reserved for all the
//! deals up front, so the memory held is 16 bytes per deal plus a few chunks.

use std::time::Instant;

use rayon::prelude::*;
use shuffle_audit::catalogue::fisher_yates;
use shuffle_audit::randomness::SimulationSource;
use shuffle_audit::seeds::deal::short_seed;
use shuffle_audit::stats::repeats::{estimate_deck_space, expected_repeats, ln_deck_count, repeats_test};
use shuffle_audit::tally::repeats::{LookupFn, RepeatCounter};

const CARDS: usize = 52;
const DEALS_PER_CHUNK: u64 = 1 << 16;
const CHUNKS_AT_ONCE: u64 = 16;

/// Deal `deal` of a program with a 32-bit seed: its seed is a fixed function of the deal
/// number (so the deal can be dealt again), drawn from `0..2^32`.
fn deal_into(deal: u64, deck: &mut Vec<u16>) {
    let seed = short_seed(2024, deal, 32);
    let mut rng = SimulationSource::from_seed(seed);
    deck.clear();
    deck.extend(0..CARDS as u16);
    fisher_yates(deck, &mut rng);
}

/// The process's peak resident memory in MB, from /proc (Linux), if it can be read.
fn peak_memory_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kilobytes: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes / 1024.0)
}

/// Writes `deals` deals, one per line, to standard output, dealt in parallel a batch of
/// chunks at a time and written in deal order.
fn print_deals(deals: u64) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::BufWriter::with_capacity(1 << 20, std::io::stdout().lock());
    let chunks = deals.div_ceil(DEALS_PER_CHUNK);
    let mut next = 0;
    while next < chunks {
        let batch = next..(next + CHUNKS_AT_ONCE).min(chunks);
        let texts: Vec<Vec<u8>> = batch
            .into_par_iter()
            .map(|chunk| {
                let first = chunk * DEALS_PER_CHUNK;
                let last = (first + DEALS_PER_CHUNK).min(deals);
                let mut text = Vec::with_capacity(((last - first) as usize) * 3 * CARDS);
                let mut deck = Vec::with_capacity(CARDS);
                for deal in first..last {
                    deal_into(deal, &mut deck);
                    for (i, card) in deck.iter().enumerate() {
                        if i > 0 {
                            text.push(b' ');
                        }
                        write!(text, "{card}").expect("writing to memory");
                    }
                    text.push(b'\n');
                }
                text
            })
            .collect();
        for text in texts {
            out.write_all(&text)?;
        }
        next += CHUNKS_AT_ONCE;
    }
    out.flush()
}

fn main() -> shuffle_audit::Result<()> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let print = args.first().is_some_and(|arg| arg == "--print");
    if print {
        args.remove(0);
    }
    let deals: u64 = match args.first().cloned() {
        Some(text) => text.parse().map_err(|_| {
            shuffle_audit::Error::Usage(format!(
                "the number of deals must be a whole number, not '{text}'"
            ))
        })?,
        None => 20_000_000,
    };
    if print {
        return print_deals(deals).map_err(|source| shuffle_audit::Error::Write {
            path: "standard output".into(),
            source,
        });
    }
    let started = Instant::now();
    let mut counter = RepeatCounter::with_capacity(CARDS, deals as usize);
    let chunks = deals.div_ceil(DEALS_PER_CHUNK);
    let mut next = 0;
    while next < chunks {
        let batch = next..(next + CHUNKS_AT_ONCE).min(chunks);
        let counted: Vec<RepeatCounter> = batch
            .into_par_iter()
            .map(|chunk| {
                let first = chunk * DEALS_PER_CHUNK;
                let last = (first + DEALS_PER_CHUNK).min(deals);
                let mut part = RepeatCounter::with_capacity(CARDS, (last - first) as usize);
                let mut deck = Vec::with_capacity(CARDS);
                for deal in first..last {
                    deal_into(deal, &mut deck);
                    part.record(deal, &deck);
                }
                part
            })
            .collect();
        for part in counted {
            counter.merge(part);
        }
        next += CHUNKS_AT_ONCE;
    }
    let dealt = started.elapsed();

    let finishing = Instant::now();
    let count = counter.finish(&mut LookupFn(|deal, deck: &mut Vec<u16>| {
        deal_into(deal, deck);
        Ok(())
    }))?;
    let finished = finishing.elapsed();

    println!(
        "{deals} deals of {CARDS} cards on {} threads",
        rayon::current_num_threads()
    );
    println!("  dealing and recording: {:.2} s", dealt.as_secs_f64());
    println!("  sorting and verifying: {:.2} s", finished.as_secs_f64());
    match peak_memory_mb() {
        Some(mb) => println!(
            "  peak memory: {mb:.0} MB ({:.1} bytes per deal)",
            mb * 1048576.0 / deals as f64
        ),
        None => println!("  peak memory: unknown (no /proc/self/status)"),
    }
    println!(
        "  repeats: {} (2^32 decks expect {:.1}); hash collisions between different decks: {}",
        count.repeats,
        expected_repeats(deals, 32.0 * std::f64::consts::LN_2),
        count.hash_collisions
    );
    let fair = repeats_test(deals, count.repeats, ln_deck_count(CARDS));
    match fair.p() {
        Some(p) => println!("  against a fair shuffle (E[R] = {:.2e}): p = {p}", fair.expected),
        None => println!("  against a fair shuffle: the Poisson law does not apply"),
    }
    if let Some(estimate) = estimate_deck_space(deals, count.repeats) {
        println!("  the program deals {estimate}");
    }
    Ok(())
}
