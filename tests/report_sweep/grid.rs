//! The grid, through the library: every report kind for every deck size and deal count,
//! rendered as `cli/deliver.rs` renders it (text, JSON, CSV, then the report directory's
//! files), each case's outcome collected so that one failure names every other too.

use std::io::Cursor;
use std::panic::{AssertUnwindSafe, catch_unwind};

use shuffle_audit::catalogue::AlgorithmSpec;
use shuffle_audit::catalogue::generators::{GeneratorSpec, StreamScenario};
use shuffle_audit::catalogue::items::Items;
use shuffle_audit::exact::ExactSettings;
use shuffle_audit::ingest::{IngestReport, IngestSettings, Input, SampleKind, ingest};
use shuffle_audit::merge::{MergeSettings, merge};
use shuffle_audit::output::{csv, json, text};
use shuffle_audit::randomness::SourceKind;
use shuffle_audit::report;
use shuffle_audit::run::{RunReport, RunSettings, run};
use shuffle_audit::serve::snapshot;
use shuffle_audit::simulate::NoProgress;
use shuffle_audit::stream::{StreamReport, StreamSettings, run_streams};
use shuffle_audit::{Error, Result};

use super::well_formed::{check_json, check_prose, check_report, check_svg};

/// The deck sizes of the issue: the smallest decks, both sides of the largest whole-order
/// tally (10) and of the heat map's noise floor (12), a real deck, both sides of 64 (the
/// wide cycle tally's lanes), a deck of 200 and the largest.
pub const SIZES: [usize; 11] = [2, 3, 10, 11, 12, 13, 52, 64, 65, 200, 2000];
/// Deal counts from one (no serial pair) to a thousand.
pub const DEALS: [u64; 5] = [1, 2, 3, 10, 1000];

/// What a case must give: a report, or a refusal (the input is not meaningful) whose
/// message contains the text.
#[derive(Clone, Copy, Debug)]
pub enum Expect {
    Report,
    Refused(&'static str),
}

/// The cases run so far and what went wrong in them.
#[derive(Default)]
pub struct Sweep {
    cases: usize,
    failures: Vec<String>,
}

impl Sweep {
    /// Runs `case`, which renders a report, and records a panic, a wrong outcome, or a
    /// refusal that is not one line.
    pub fn case(&mut self, name: String, expect: Expect, case: impl FnOnce() -> Result<()>) {
        self.cases += 1;
        let started = std::time::Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(case));
        if std::env::var_os("SWEEP_TIMES").is_some() {
            eprintln!("TIME {:.3} {name}", started.elapsed().as_secs_f64());
        }
        let problem = match (outcome, expect) {
            (Err(panic), _) => Some(format!("panicked: {}", panic_text(&*panic))),
            (Ok(Ok(())), Expect::Report) => None,
            (Ok(Ok(())), Expect::Refused(why)) => Some(format!("gave a report, not the refusal {why:?}")),
            (Ok(Err(error)), expect) => {
                let message = error.to_string();
                match expect {
                    _ if message.contains('\n') || message.is_empty() => {
                        Some(format!("refused in more than one line: {message:?}"))
                    }
                    Expect::Refused(why) if message.contains(why) => None,
                    _ => Some(format!("refused ({message}), expected {expect:?}")),
                }
            }
        };
        if let Some(problem) = problem {
            self.failures.push(format!("{name}: {problem}"));
        }
    }

    /// Fails with every problem found, or says how many cases held.
    pub fn finish(self, kind: &str) {
        assert!(
            self.failures.is_empty(),
            "{} of {} {kind} cases failed:\n{}",
            self.failures.len(),
            self.cases,
            self.failures.join("\n")
        );
        eprintln!("{kind}: {} cases, all well formed", self.cases);
    }
}

fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|text| text.to_string()))
        .unwrap_or_default()
}

/// A run's outputs, rendered as `deliver_run` renders them, and checked.
pub fn check_run(case: &str, report: &RunReport) {
    check_prose(case, &text::run::render(report));
    check_json(case, &head_of(|out| json::run::write(report, out)));
    check_prose(
        case,
        &String::from_utf8_lossy(&head_of(|out| csv::run::write(report, out))),
    );
    check_report(case, &report::files(&report::run_document(report)));
    check_view(case, &snapshot::view(report, report.input.is_none()));
}

/// A stream's outputs, rendered as `deliver_stream` renders them, and checked.
pub fn check_stream(case: &str, report: &StreamReport) {
    check_prose(case, &text::stream::render(report));
    check_json(case, &head_of(|out| json::stream::write(report, out)));
    check_prose(
        case,
        &String::from_utf8_lossy(&head_of(|out| csv::stream::write(report, out))),
    );
    check_report(case, &report::files(&report::stream_document(report)));
    check_view(case, &snapshot::stream_view(report));
}

/// What `serve`'s page draws of a report: the same sections, its charts as SVG.
fn check_view(case: &str, view: &snapshot::View) {
    for chart in &view.charts {
        check_svg(&format!("{case}: the page's {}", chart.name), &chart.svg);
    }
    for row in &view.tests {
        check_prose(
            case,
            &format!("{} {} {} {}", row.statistic, row.df, row.p, row.adjusted),
        );
    }
}

/// What `write` writes, or its first [`HEAD`] bytes when it writes more: every tally of
/// 10 cards (10! orders, and as many consecutive pairs) is 180 MB of JSON and 270 MB of
/// CSV, seconds to write that prove nothing the first megabytes do not.
fn head_of(write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>) -> Vec<u8> {
    let mut head = Head(Vec::new());
    match write(&mut head) {
        Ok(()) => head.0,
        Err(error) if error.kind() == std::io::ErrorKind::StorageFull => head.0,
        Err(error) => panic!("writing to memory failed: {error}"),
    }
}

/// Bytes of a document checked whole; a longer one is cut there.
pub const HEAD: usize = 8 << 20;

/// A writer that keeps [`HEAD`] bytes, then says it is full.
struct Head(Vec<u8>);

impl std::io::Write for Head {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if self.0.len() >= HEAD {
            return Err(std::io::ErrorKind::StorageFull.into());
        }
        let taken = bytes.len().min(HEAD - self.0.len());
        self.0.extend_from_slice(&bytes[..taken]);
        Ok(taken)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn specs(names: &[&str]) -> Vec<AlgorithmSpec> {
    names
        .iter()
        .map(|name| AlgorithmSpec::parse(name).unwrap())
        .collect()
}

/// The settings of a run on 2 threads, as every library test runs.
pub fn run_settings(n: usize, k: Option<usize>, trials: u64) -> RunSettings {
    super::common::run_settings(n, k, trials, 7)
}

/// The settings of a run whose deals are all the same: Delphi's `Random` re-seeded from
/// a millisecond clock before every deal, which ticks once in a thousand deals.
fn identical_deals(n: usize, k: Option<usize>, trials: u64) -> RunSettings {
    RunSettings {
        source: SourceKind::parse("clock-reseed", None).unwrap(),
        ..run_settings(n, k, trials)
    }
}

/// `run fisher-yates`, each deal a new one, and `run sattolo --source clock-reseed`,
/// every deal the same (and on more than 2 cards no card ever in its place: zero counts
/// next to full ones).
pub fn shuffles(sweep: &mut Sweep, n: usize, deals: u64) {
    let cases = [
        ("fisher-yates", "distinct", run_settings(n, None, deals)),
        ("sattolo", "identical", identical_deals(n, None, deals)),
    ];
    for (algorithm, variety, settings) in cases {
        let name = format!("run {algorithm} n={n} trials={deals} {variety}");
        sweep.case(name.clone(), Expect::Report, || {
            let report = run(&specs(&[algorithm]), &settings, &NoProgress)?;
            check_run(&name, &report);
            Ok(())
        });
    }
}

/// The sizes a sampler picks from `n`: one, about half, and all but one.
pub fn picks(n: usize) -> Vec<usize> {
    let mut picks = vec![1, n / 2, n - 1];
    picks.dedup();
    picks.retain(|&k| (1..n).contains(&k));
    picks
}

/// `run bag-pick partial-fisher-yates --k K` (unordered and ordered picks) for each
/// [`picks`] size, and once with every pick the same.
pub fn samplers(sweep: &mut Sweep, n: usize, deals: u64) {
    let mut cases: Vec<(usize, &str, RunSettings)> = picks(n)
        .into_iter()
        .map(|k| (k, "distinct", run_settings(n, Some(k), deals)))
        .collect();
    let half = (n / 2).max(1);
    cases.push((half, "identical", identical_deals(n, Some(half), deals)));
    for (k, variety, settings) in cases {
        let name = format!("run samplers n={n} k={k} trials={deals} {variety}");
        sweep.case(name.clone(), Expect::Report, || {
            let report = run(
                &specs(&["bag-pick", "partial-fisher-yates"]),
                &settings,
                &NoProgress,
            )?;
            check_run(&name, &report);
            Ok(())
        });
    }
}

/// `deals` lines of `n` cards named 1 to n: the same shuffled deck every time, or a new
/// Fisher–Yates shuffle each time (all distinct as far as n! allows).
pub fn deal_lines(n: usize, deals: u64, identical: bool) -> String {
    let names: Vec<String> = (1..=n).map(|card| card.to_string()).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    match identical {
        true => {
            let first = super::binary::shuffled_lines("fisher-yates", &names, 1, 5);
            first.repeat(deals as usize)
        }
        false => super::binary::shuffled_lines("fisher-yates", &names, deals as usize, 5),
    }
}

/// `ingest` of `lines` with `settings`, checked as its kind of report.
pub fn ingested(case: &str, lines: String, settings: &IngestSettings) -> Result<()> {
    let report = ingest(
        Input::reader(Cursor::new(lines)),
        "sweep.txt",
        settings,
        &NoProgress,
    )?;
    match &report {
        IngestReport::Samples(report) => check_run(case, report),
        IngestReport::Stream(report) => check_stream(case, report),
    }
    Ok(())
}

fn variety(identical: bool) -> &'static str {
    if identical { "identical" } else { "distinct" }
}

/// `ingest --kind permutations`.
pub fn ingest_permutations(sweep: &mut Sweep, n: usize, deals: u64, identical: bool) {
    let name = format!("ingest permutations n={n} deals={deals} {}", variety(identical));
    sweep.case(name.clone(), Expect::Report, || {
        ingested(
            &name,
            deal_lines(n, deals, identical),
            &IngestSettings {
                // The sweep checks what renders; the predictability check's searches (the
                // summed engines take seconds) have their own tests.
                predictability_budget: std::time::Duration::from_millis(20),
                ..IngestSettings::permutations(2, 1e-6)
            },
        )
    });
}

/// `ingest --kind selections`, each line the first k cards of a deal: k of one, about
/// half and all but one, each with and without `--deck` (without it the items are the
/// tokens seen), ordered and not, spread over four cases rather than all twelve.
pub fn ingest_selections(sweep: &mut Sweep, n: usize, deals: u64, identical: bool) {
    let deck: Vec<String> = (1..=n).map(|card| card.to_string()).collect();
    let (half, all_but_one) = ((n / 2).max(1), n - 1);
    let cases = [
        (1, false, false),
        (half, true, true),
        (all_but_one, false, true),
        (all_but_one, true, false),
    ];
    for (k, ordered, with_deck) in cases {
        let lines: String = deal_lines(n, deals, identical)
            .lines()
            .map(|line| line.split(' ').take(k).collect::<Vec<_>>().join(" ") + "\n")
            .collect();
        let name = format!(
            "ingest selections n={n} k={k} deals={deals} {} ordered={ordered} deck={with_deck}",
            variety(identical)
        );
        let settings = IngestSettings {
            kind: SampleKind::Selections,
            deck: with_deck.then(|| deck.clone()),
            ordered,
            ..IngestSettings::permutations(2, 1e-6)
        };
        // Without the deck, the items are the tokens seen: identical picks (or a single
        // one) show only k of them, and k of k is no choice at all.
        let expect = if !with_deck && distinct_tokens(&lines) <= k {
            Expect::Refused("")
        } else {
            Expect::Report
        };
        sweep.case(name.clone(), expect, || ingested(&name, lines.clone(), &settings));
    }
}

/// How many distinct tokens `lines` holds.
fn distinct_tokens(lines: &str) -> usize {
    lines
        .split_whitespace()
        .collect::<std::collections::BTreeSet<_>>()
        .len()
}

/// `ingest --kind stream`: one item a line, drawn from n items (`--deck`, or the tokens
/// seen), the same item every time or a new draw each time. A stream of one item, or of
/// one distinct item without `--deck`, cannot be tested, and a stream has at most 1000
/// items: those are refused.
pub fn ingest_stream(sweep: &mut Sweep, n: usize, deals: u64, identical: bool) {
    let lines: String = deal_lines(n, deals, identical)
        .lines()
        .map(|line| line.split(' ').next().unwrap_or_default().to_string() + "\n")
        .collect();
    for with_deck in [true, false] {
        let name = format!(
            "ingest stream n={n} items={deals} {} deck={with_deck}",
            variety(identical)
        );
        let settings = IngestSettings {
            kind: SampleKind::Stream,
            deck: with_deck.then(|| (1..=n).map(|card| card.to_string()).collect()),
            ..IngestSettings::permutations(2, 1e-6)
        };
        let expect = match with_deck {
            true if n > 1000 => Expect::Refused("a stream has at most 1000"),
            false if distinct_tokens(&lines) == 1 => Expect::Refused("holds only one distinct item"),
            _ if deals == 1 => Expect::Refused("a stream needs at least 2 to test"),
            _ => Expect::Report,
        };
        sweep.case(name.clone(), expect, || ingested(&name, lines.clone(), &settings));
    }
}

/// `stream iid refill-list shuffle-bag-csharp --items N`: `deals` draws in one stream,
/// and `deals` streams of 10 draws re-seeded from a clock before every draw (every draw
/// of a stream the same item, every stream the same).
pub fn streams(sweep: &mut Sweep, n: usize, deals: u64) {
    let generators: Vec<GeneratorSpec> = ["iid", "refill-list", "shuffle-bag-csharp"]
        .iter()
        .map(|name| GeneratorSpec::parse(name).unwrap())
        .collect();
    let clock = SourceKind::parse("clock-reseed", None).unwrap();
    for (length, streams, source) in [(deals, 1, SourceKind::Xoshiro), (10, deals, clock)] {
        let name = format!(
            "stream items={n} length={length} streams={streams} source={}",
            source.name()
        );
        let expect = match (n, length) {
            (n, _) if n > 1000 => Expect::Refused("--items needs between 2 and 1000 items"),
            (_, 1) => Expect::Refused("--length must be at least 2 draws"),
            _ => Expect::Report,
        };
        sweep.case(name.clone(), expect, || {
            let settings = StreamSettings {
                items: Items::parse(&n.to_string())?,
                length,
                streams,
                seed: Some(3),
                threads: 2,
                alpha: 1e-6,
                scenario: StreamScenario { add_every: None },
                source,
            };
            let report = run_streams(&generators, &settings, &NoProgress)?;
            check_stream(&name, &report);
            Ok(())
        });
    }
}

/// `run sattolo --json` merged, its deals all distinct or (re-seeded from a clock) all
/// the same: a run of fewer trials than two chunks cannot be cut into shards (it is
/// refused), so the whole run is its own one shard.
pub fn merged(sweep: &mut Sweep, n: usize, deals: u64, identical: bool, dir: &std::path::Path) {
    let name = format!("merge n={n} trials={deals} {}", variety(identical));
    sweep.case(name.clone(), Expect::Report, || {
        let settings = match identical {
            true => identical_deals(n, None, deals),
            false => run_settings(n, None, deals),
        };
        let report = run(&specs(&["sattolo"]), &settings, &NoProgress)?;
        let path = dir.join(format!("n{n}-t{deals}-{}.json", variety(identical)));
        let io = |error: std::io::Error| Error::Input(error.to_string());
        let mut file = std::io::BufWriter::new(std::fs::File::create(&path).map_err(io)?);
        json::run::write(&report, &mut file).map_err(io)?;
        std::io::Write::flush(&mut file).map_err(io)?;
        let merged = merge(
            &[path],
            &MergeSettings {
                alpha: None,
                threads: 2,
            },
        )?;
        check_run(&name, &merged.report);
        Ok(())
    });
}

/// `exact` on `n` cards: the law over whole orders (up to 10 cards; Sattolo's (n-1)!
/// paths keep 10 quick), the position matrices (fisher-yates, naive-swap, and riffles,
/// which have no exact method there), the samplers, and the first cycle of bags.
pub fn exact(sweep: &mut Sweep, n: usize) {
    let settings = |positions, k| ExactSettings {
        n,
        k,
        threads: 2,
        positions,
        alpha: 1e-6,
        items: None,
        source: SourceKind::Xoshiro,
    };
    let check = |name: &str, report: &shuffle_audit::exact::ExactReport| {
        check_prose(name, &text::exact::render(report, text::exact::Order::Natural));
        check_prose(
            name,
            &text::exact::render(report, text::exact::Order::ByProbability),
        );
        check_json(name, &head_of(|out| json::exact::write(report, out)));
        let command = text::exact::reproduce_command(report);
        check_report(name, &report::files(&report::exact_document(report, command)));
    };
    let orders: &[&str] = match n {
        2 | 3 => &["fisher-yates", "naive-swap", "sattolo"],
        _ => &["sattolo"],
    };
    let name = format!("exact {} n={n}", orders.join(" "));
    let expect = match n {
        n if n > 10 => Expect::Refused("must be at most 10 to enumerate every order"),
        _ => Expect::Report,
    };
    sweep.case(name.clone(), expect, || {
        check(
            &name,
            &shuffle_audit::exact::exact(&specs(orders), &settings(false, None), &NoProgress)?,
        );
        Ok(())
    });
    // Flawed sources' exact laws: `rand() % n` and Delphi's multiply-shift.
    if n <= 3 {
        for source in ["msvc-rand-mod", "delphi"] {
            let name = format!("exact fisher-yates naive-swap n={n} --source {source}");
            sweep.case(name.clone(), Expect::Report, || {
                let settings = ExactSettings {
                    source: SourceKind::parse(source, None)?,
                    ..settings(false, None)
                };
                check(
                    &name,
                    &shuffle_audit::exact::exact(
                        &specs(&["fisher-yates", "naive-swap"]),
                        &settings,
                        &NoProgress,
                    )?,
                );
                Ok(())
            });
        }
    }
    // Riffles have a closed form (the rising-sequence law) at every size; one riffle is
    // the law furthest from uniform, its likeliest deck e^700 times a uniform one's on
    // 2000 cards.
    let name = format!("exact riffles:1 n={n}");
    sweep.case(name.clone(), Expect::Report, || {
        check(
            &name,
            &shuffle_audit::exact::exact(&specs(&["riffles:1"]), &settings(false, None), &NoProgress)?,
        );
        Ok(())
    });
    // Fisher–Yates and the naive swap cost n³ each: 2000 cards take 10 s and more on
    // two cores, and the heat map drawn is that of 200 (a run's heat map covers 2000
    // cards); riffles, which have no exact matrix, say so at every size.
    let positions: &[&str] = match n {
        ..=200 => &["fisher-yates", "naive-swap", "riffles:3"],
        _ => &["riffles:3"],
    };
    let name = format!("exact --positions {} n={n}", positions.join(" "));
    sweep.case(name.clone(), Expect::Report, || {
        check(
            &name,
            &shuffle_audit::exact::exact(&specs(positions), &settings(true, None), &NoProgress)?,
        );
        Ok(())
    });
    // A sampler's paths grow like n!: 10 items already take seconds.
    if n <= 3 {
        for k in picks(n) {
            let name = format!("exact bag-pick n={n} k={k}");
            sweep.case(name.clone(), Expect::Report, || {
                check(
                    &name,
                    &shuffle_audit::exact::exact(
                        &specs(&["bag-pick"]),
                        &settings(false, Some(k)),
                        &NoProgress,
                    )?,
                );
                Ok(())
            });
        }
    }
    if n <= 8 {
        let name = format!("exact shuffle-bag --items {n}");
        sweep.case(name.clone(), Expect::Report, || {
            let generators = vec![GeneratorSpec::parse("shuffle-bag-csharp").unwrap()];
            let items = Items::parse(&n.to_string())?;
            let report =
                shuffle_audit::exact::exact_bags(&generators, &items, &settings(false, None), &NoProgress)?;
            check(&name, &report);
            Ok(())
        });
    }
}
