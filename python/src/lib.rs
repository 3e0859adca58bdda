//! `shuffle_audit._native`: the crate's library as a Python extension module, under the
//! pure-Python package `shuffle_audit` (python/shuffle_audit/), which is what users import.
//!
//! Why native and not a subprocess: a shuffle written in Python is called here, in the
//! user's own interpreter, a few hundred thousand times; each deal is checked and handed to
//! the same `ingest` that reads a program's output ([`shuffle_audit::ingest::feed`]), which
//! tallies on its own thread while Python deals the next. Nothing is written to a file and
//! no process is started, so the assertion costs little beyond the user's own function.
//!
//! The module also carries the command line (src/main.rs, built in below), which the
//! wheel's `shuffle-audit` script runs: one native library serves both, so the wheel and
//! its source archive build with one `cargo` invocation.

use std::ffi::OsString;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyFrozenSet, PyList, PySet, PyString, PyTuple};

use shuffle_audit::analysis::power::deals_to_catch;
use shuffle_audit::catalogue::AlgorithmSpec;
use shuffle_audit::ingest::feed::{DealProblem, WAIT_TICK, dealt_settings, ingest_dealt};
use shuffle_audit::ingest::{IngestReport, IngestSettings, Input, SampleKind, ingest};
use shuffle_audit::run::{RunReport, RunSettings, run};
use shuffle_audit::simulate::{NoProgress, Progress};
use shuffle_audit::stream::StreamReport;

#[allow(
    dead_code,
    reason = "the binary's `main` is not called here: `run_command_line` is"
)]
#[path = "../../src/main.rs"]
mod cli_main;

create_exception!(
    _native,
    ShuffleError,
    PyException,
    "A shuffle that could not be audited: it raised, returned something that is not an \
     order of the deck, or did not return in time. The message names the deal."
);

/// One finished audit: the figures a caller asks for, and the report, drawn in each form
/// only when asked (the HTML's charts cost more than a small audit's tally).
#[pyclass(frozen, module = "shuffle_audit._native")]
struct Report {
    #[pyo3(get)]
    verdict: String,
    /// The smallest Holm-adjusted p-value, the one the verdict is read from.
    #[pyo3(get)]
    p_value: Option<f64>,
    /// `caught by …`: the test that caught a bias, in words.
    #[pyo3(get)]
    caught_by: Option<String>,
    /// The sentence of a generator the first deals gave away.
    #[pyo3(get)]
    predictable: Option<String>,
    /// The predictability record, as the text report prints it: its headline (`predictable`,
    /// `not predictable by any generator this version models`, or `unknown: …`), then
    /// each generator tried or not, with why and how to try it.
    #[pyo3(get)]
    predictability: Option<String>,
    /// `predictable`, `not-predictable` or `unknown`, as the JSON's `verdict`.
    #[pyo3(get)]
    predictability_verdict: Option<String>,
    /// Deals (or samples) tallied.
    #[pyo3(get)]
    samples: u64,
    /// The underpowered note, when a pass had too few deals.
    #[pyo3(get)]
    underpowered: Option<String>,
    /// The samples every test would need, when some could not run (`inconclusive`).
    #[pyo3(get)]
    samples_needed: Option<u64>,
    /// The notes ingest or run printed.
    #[pyo3(get)]
    notes: Vec<String>,
    held: Held,
}

/// The library's report behind a [`Report`].
enum Held {
    Run(RunReport),
    Stream(StreamReport),
}

#[pymethods]
impl Report {
    /// The terminal report.
    fn text(&self) -> String {
        match &self.held {
            Held::Run(report) => shuffle_audit::output::text::run::render(report),
            Held::Stream(report) => shuffle_audit::output::text::stream::render(report),
        }
    }

    /// The JSON document of `--json`.
    fn json(&self) -> String {
        let mut json = Vec::new();
        match &self.held {
            Held::Run(report) => shuffle_audit::output::json::run::write(report, &mut json),
            Held::Stream(report) => shuffle_audit::output::json::stream::write(report, &mut json),
        }
        .expect("a Vec takes every byte");
        String::from_utf8(json).expect("JSON is UTF-8")
    }

    /// The report as a fragment of HTML, with its charts inline.
    fn html(&self) -> String {
        let document = match &self.held {
            Held::Run(report) => shuffle_audit::report::run_document(report),
            Held::Stream(report) => shuffle_audit::report::stream_document(report),
        };
        shuffle_audit::report::html::render_fragment(&document)
    }
}

/// Counts the deals made so far; read by the Python side's watchdog, from another thread,
/// to tell a shuffle that never returns from a slow one.
#[pyclass(frozen, module = "shuffle_audit._native")]
struct DealCounter {
    dealt: AtomicU64,
    /// Dealing is over (the tests may still be running): nothing left to watch.
    finished: AtomicBool,
    /// Nanoseconds the dealing took, once it is over (for the overhead benchmark).
    dealing_nanos: AtomicU64,
}

#[pymethods]
impl DealCounter {
    #[new]
    fn new() -> Self {
        Self {
            dealt: AtomicU64::new(0),
            finished: AtomicBool::new(false),
            dealing_nanos: AtomicU64::new(0),
        }
    }

    /// Seconds the dealing took (the shuffle's calls and the checks of each deal), once
    /// it is over; the rest of an audit is the tests.
    #[getter]
    fn dealing_seconds(&self) -> f64 {
        self.dealing_nanos.load(Ordering::Relaxed) as f64 * 1e-9
    }

    /// Whether dealing is over.
    #[getter]
    fn finished(&self) -> bool {
        self.finished.load(Ordering::Relaxed)
    }

    /// Deals made so far (the one under way is the next).
    #[getter]
    fn dealt(&self) -> u64 {
        self.dealt.load(Ordering::Relaxed)
    }
}

fn input_error(error: shuffle_audit::Error) -> PyErr {
    PyValueError::new_err(error.to_string())
}

impl Report {
    fn of_ingest(mut report: IngestReport, require_power: bool) -> Self {
        let underpowered = if require_power {
            report.require_power().map(|power| power.shortfall())
        } else {
            None
        };
        let verdict = report.verdict();
        Self {
            verdict: verdict.to_string(),
            p_value: report.smallest_p_adjusted().map(|p| p.value_floored()),
            caught_by: matches!(
                verdict,
                shuffle_audit::stats::Verdict::Fail | shuffle_audit::stats::Verdict::Suspicious
            )
            .then(|| shuffle_audit::analysis::caught_by(report.tests()))
            .flatten(),
            predictable: report.input().predictable().map(|found| found.sentence()),
            predictability: report
                .input()
                .predictability
                .as_ref()
                .map(|record| record.lines().join("\n")),
            predictability_verdict: report
                .input()
                .predictability
                .as_ref()
                .map(|record| record.verdict().word().to_string()),
            samples: report.samples(),
            samples_needed: report.samples_needed(),
            underpowered,
            notes: report.notes().to_vec(),
            held: match report {
                IngestReport::Samples(run) => Held::Run(run),
                IngestReport::Stream(stream) => Held::Stream(stream),
            },
        }
    }

    fn of_run(report: RunReport) -> Self {
        let (verdict, tests) = match (report.results.first(), report.sampler_results.first()) {
            (Some(result), _) => (result.analysis.verdict, &result.analysis.tests),
            (None, Some(result)) => (result.analysis.verdict, &result.analysis.tests),
            (None, None) => unreachable!("a run of one algorithm has one result"),
        };
        let smallest = shuffle_audit::analysis::smallest_p_adjusted(tests);
        Self {
            verdict: verdict.to_string(),
            p_value: smallest.map(|p| p.value_floored()),
            samples_needed: None,
            caught_by: matches!(
                verdict,
                shuffle_audit::stats::Verdict::Fail | shuffle_audit::stats::Verdict::Suspicious
            )
            .then(|| shuffle_audit::analysis::caught_by(tests))
            .flatten(),
            predictable: None,
            predictability: None,
            predictability_verdict: None,
            samples: report.settings.trials,
            underpowered: None,
            notes: report.notes.clone(),
            held: Held::Run(report),
        }
    }
}

/// What went wrong with one deal, before it could be tallied.
enum DealFailure {
    /// The shuffle raised an `Exception` (wrapped, with the deal) or something that is not
    /// one (KeyboardInterrupt, the watchdog's timeout: passed on as it is).
    Raised(PyErr),
    /// What it returned is no order of the deck.
    Refused(String),
}

/// Deals between two looks for Ctrl-C in the dealing loop.
const SIGNAL_EVERY: u64 = 1024;

/// How the shuffle hands back its deal, as seen on the first deal.
#[derive(Clone, Copy, PartialEq)]
enum Handing {
    InPlace,
    Returned,
}

/// The cards of `deal` (a list, a tuple, or any sequence such as a numpy array), as
/// numbers: at most `n + 1` are read (a deal that goes on is the wrong length however long
/// it is). A refusal names what is not a card; a `BaseException` that is not an
/// `Exception` raised while reading (Ctrl-C, the watchdog's timeout) passes through.
fn cards_of(deal: &Bound<'_, PyAny>, n: usize, cards: &mut Vec<i64>) -> Result<(), DealFailure> {
    let py = deal.py();
    cards.clear();
    let passes = |error: &PyErr| !error.is_instance_of::<PyException>(py);
    let read = |item: Bound<'_, PyAny>, cards: &mut Vec<i64>| match item.extract::<i64>() {
        Ok(card) => {
            cards.push(card);
            Ok(())
        }
        Err(error) if passes(&error) => Err(DealFailure::Raised(error)),
        Err(_) => Err(DealFailure::Refused(format!(
            "it holds {}, which is not a card of the deck (a number from 0 to {})",
            shown(&item),
            n - 1
        ))),
    };
    if let Ok(list) = deal.cast::<PyList>() {
        for item in list.iter().take(n + 1) {
            read(item, cards)?;
        }
    } else if let Ok(tuple) = deal.cast::<PyTuple>() {
        for item in tuple.iter().take(n + 1) {
            read(item, cards)?;
        }
    } else if deal.is_instance_of::<PySet>()
        || deal.is_instance_of::<PyFrozenSet>()
        || deal.is_instance_of::<PyDict>()
        || deal.is_instance_of::<PyString>()
        || deal.is_instance_of::<PyBytes>()
        || deal.is_instance_of::<PyByteArray>()
    {
        return Err(DealFailure::Refused(format!(
            "it is a {}, which has no order of cards: return a list, a tuple or an array",
            deal.get_type()
                .name()
                .map_or_else(|_| "?".to_string(), |name| name.to_string())
        )));
    } else if deal.hasattr("__len__").unwrap_or(false) && deal.hasattr("__iter__").unwrap_or(false) {
        let items = deal.try_iter().map_err(|error| {
            if passes(&error) {
                DealFailure::Raised(error)
            } else {
                DealFailure::Refused("it cannot be iterated".to_string())
            }
        })?;
        for item in items.take(n + 1) {
            let item = item.map_err(|error| {
                if passes(&error) {
                    DealFailure::Raised(error)
                } else {
                    DealFailure::Refused(format!("reading it raised {error}"))
                }
            })?;
            read(item, cards)?;
        }
    } else {
        return Err(DealFailure::Refused(
            "it is neither None (a shuffle in place) nor a sequence of the cards".to_string(),
        ));
    }
    Ok(())
}

/// `repr(value)`, cut short when long.
fn shown(value: &Bound<'_, PyAny>) -> String {
    let text = value
        .repr()
        .map(|repr| repr.to_string())
        .unwrap_or_else(|_| "an object whose repr() raised".to_string());
    if text.chars().count() > 200 {
        format!("{}…", text.chars().take(200).collect::<String>())
    } else {
        text
    }
}

/// Calls `shuffle` `trials` times, each on a fresh `list(range(n))`, and audits the deals
/// as `ingest` audits a program's: returns the report, and whether the shuffle worked in
/// place (`"in place"`) or returned its deal (`"returned"`). `name` names the shuffle in
/// the report and `reproduce` is the call its reproduce line shows; `counter` counts the
/// deals, for the caller's watchdog.
#[pyfunction]
#[pyo3(signature = (shuffle, n, trials, alpha, threads, name, reproduce, counter, unpredictable, seed_search))]
#[allow(
    clippy::too_many_arguments,
    reason = "the Python wrapper names each; this is its private call"
)]
fn deal(
    py: Python<'_>,
    shuffle: Py<PyAny>,
    n: usize,
    trials: u64,
    alpha: f64,
    threads: usize,
    name: &str,
    reproduce: &str,
    counter: Py<DealCounter>,
    unpredictable: bool,
    seed_search: Vec<String>,
) -> PyResult<(Report, String)> {
    let settings = predictability_settings(
        dealt_settings(n, threads.max(1), alpha),
        unpredictable,
        seed_search,
    )?;
    let mut handing = None;
    let dealt = py.detach(|| {
        ingest_dealt(
            name,
            &settings,
            Some(trials),
            &NoProgress,
            |feed| {
                let started = std::time::Instant::now();
                let dealt = Python::attach(|py| {
                    let shuffle = shuffle.bind(py);
                    let counter = counter.get();
                    let mut cards = Vec::with_capacity(n);
                    // Each deal starts from a copy of this list: a slice copy is one allocation
                    // and `n` reference counts, cheaper than building the numbers again.
                    let fresh = PyList::new(py, 0..n).map_err(DealFailure::Raised)?;
                    for number in 1..=trials {
                        let deck = fresh.get_slice(0, n);
                        let returned = shuffle.call1((&deck,)).map_err(DealFailure::Raised)?;
                        let this = if returned.is_none() {
                            Handing::InPlace
                        } else {
                            Handing::Returned
                        };
                        handing.get_or_insert(this);
                        let deal = if this == Handing::InPlace {
                            deck.as_any()
                        } else {
                            &returned
                        };
                        cards_of(deal, n, &mut cards).map_err(|failure| match failure {
                            DealFailure::Refused(problem) => {
                                DealFailure::Refused(refused(number, trials, deal, &problem))
                            }
                            raised => raised,
                        })?;
                        match feed.deal(&cards) {
                            Ok(()) => {}
                            // The reader stopped: its error says why.
                            Err(DealProblem::Closed) => return Ok(()),
                            Err(problem) => {
                                return Err(DealFailure::Refused(refused(
                                    number,
                                    trials,
                                    deal,
                                    &problem.to_string(),
                                )));
                            }
                        }
                        counter.dealt.store(number, Ordering::Relaxed);
                        // A shuffle written in C runs no Python between deals, and never
                        // lets go of the interpreter's lock: Ctrl-C is looked for here too,
                        // and the lock is let go for a moment, so that other threads (the
                        // watchdog, the user's own) run.
                        if number % SIGNAL_EVERY == 0 {
                            py.check_signals().map_err(DealFailure::Raised)?;
                            py.detach(std::thread::yield_now);
                        }
                    }
                    Ok(())
                });
                let counter = counter.get();
                let nanos = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
                counter.dealing_nanos.store(nanos, Ordering::Relaxed);
                counter.finished.store(true, Ordering::Relaxed);
                dealt
            },
            || Python::attach(|py| py.check_signals()).map_err(DealFailure::Raised),
        )
    });
    let mut report = match dealt {
        Ok(report) => report.map_err(input_error)?,
        Err(DealFailure::Refused(message)) => return Err(ShuffleError::new_err(message)),
        Err(DealFailure::Raised(error)) => {
            if !error.is_instance_of::<PyException>(py) {
                return Err(error);
            }
            let number = counter.get().dealt.load(Ordering::Relaxed) + 1;
            let wrapped = ShuffleError::new_err(format!(
                "deal {} of {}: the shuffle raised {}",
                group(number),
                group(trials),
                error
            ));
            wrapped.set_cause(py, Some(error));
            return Err(wrapped);
        }
    };
    // What repeats these deals is the Python call, not a command line.
    report.input_mut().command = reproduce.to_string();
    let handing = match handing {
        Some(Handing::Returned) => "returned",
        _ => "in place",
    };
    Ok((Report::of_ingest(report, true), handing.to_string()))
}

/// `deal 3 of 16,458: the shuffle returned [0, 1, 1, 3, 4]: it holds card 1 twice: …`.
fn refused(number: u64, trials: u64, deal: &Bound<'_, PyAny>, problem: &str) -> String {
    format!(
        "deal {} of {}: the shuffle gave {}: {problem}",
        group(number),
        group(trials),
        shown(deal)
    )
}

fn group(number: u64) -> String {
    shuffle_audit::format::group_thousands(number)
}

/// A progress that says "stop" once Ctrl-C (or any signal Python raises for) has come.
struct Interruptible(AtomicBool);

impl Progress for Interruptible {
    fn advance(&self, _amount: u64) {}

    fn cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Runs `work` on another thread while this one, the interpreter's lock released, looks
/// for Ctrl-C every [`WAIT_TICK`]: a signal stops the work (through its progress) and is
/// raised here, so that a long `run` or `ingest` stops as a Python loop would.
fn interruptibly<T: Send>(py: Python<'_>, work: impl FnOnce(&dyn Progress) -> T + Send) -> PyResult<T> {
    let stop = Interruptible(AtomicBool::new(false));
    std::thread::scope(|scope| {
        let (done, mut finished) = std::sync::mpsc::channel::<()>();
        let stop = &stop;
        let worker = scope.spawn(move || {
            let _done = done;
            work(stop)
        });
        loop {
            let (over, receiver) = py.detach(move || {
                let outcome = finished.recv_timeout(WAIT_TICK);
                (
                    !matches!(outcome, Err(std::sync::mpsc::RecvTimeoutError::Timeout)),
                    finished,
                )
            });
            finished = receiver;
            if over {
                break;
            }
            if let Err(error) = py.check_signals() {
                stop.0.store(true, Ordering::Relaxed);
                let _ = worker.join();
                return Err(error);
            }
        }
        Ok(worker
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    })
}

/// Audits deals already made: `deals` is an iterable of sequences of cards (any
/// hashable-free tokens: numbers or strings), read as the lines of `ingest`.
#[pyfunction]
#[pyo3(signature = (deals, kind, deck, k, ordered, alpha, threads, name, unpredictable, seed_search))]
#[allow(
    clippy::too_many_arguments,
    reason = "the Python wrapper names each; this is its private call"
)]
fn ingest_deals(
    py: Python<'_>,
    deals: &Bound<'_, PyAny>,
    kind: &str,
    deck: Option<Vec<String>>,
    k: Option<usize>,
    ordered: bool,
    alpha: f64,
    threads: usize,
    name: &str,
    unpredictable: bool,
    seed_search: Vec<String>,
) -> PyResult<Report> {
    let kind = match kind {
        "permutations" => SampleKind::Permutations,
        "selections" => SampleKind::Selections,
        "stream" => SampleKind::Stream,
        other => {
            return Err(PyValueError::new_err(format!(
                "kind={other:?}: must be 'permutations', 'selections' or 'stream'"
            )));
        }
    };
    // Each deal becomes a line of tokens, as a program would print it: the text is the
    // contract `ingest` reads (names, blank lines, lists), so nothing is read twice over.
    let mut text = Vec::new();
    for (number, sample) in deals.try_iter()?.enumerate() {
        let sample = sample?;
        // A stream's item may stand alone; a string is one item, never its letters.
        let single = !sample.hasattr("__iter__")? || sample.is_instance_of::<PyString>();
        let items: Vec<Bound<'_, PyAny>> = if kind == SampleKind::Stream && single {
            vec![sample]
        } else {
            sample
                .try_iter()
                .map_err(|_| {
                    PyValueError::new_err(format!(
                        "deal {}: {} is not a sequence",
                        number + 1,
                        shown(&sample)
                    ))
                })?
                .collect::<PyResult<_>>()?
        };
        for (index, item) in items.iter().enumerate() {
            let token = item.str()?.to_string();
            // What ingest would read as something else: a separator, or at the start of a
            // line a comment (`#`) or a list (`[`, `(`).
            if token.is_empty()
                || token.chars().any(|c| c.is_whitespace() || c == ',')
                || (index == 0 && token.starts_with(['#', '[', '(']))
            {
                return Err(PyValueError::new_err(format!(
                    "deal {}: card {} is {}: a card's name must be non-empty, without spaces or commas, and \
                     the first may not start with '#', '[' or '('",
                    number + 1,
                    index + 1,
                    shown(item)
                )));
            }
            if index > 0 {
                text.push(b' ');
            }
            text.extend_from_slice(token.as_bytes());
        }
        text.push(b'\n');
    }
    let settings = IngestSettings {
        kind,
        k,
        deck,
        ordered,
        threads: threads.max(1),
        ..IngestSettings::permutations(threads.max(1), alpha)
    };
    let settings = predictability_settings(settings, unpredictable, seed_search)?;
    let report = interruptibly(py, |progress| {
        ingest(
            Input::reader(std::io::Cursor::new(text)),
            name,
            &settings,
            progress,
        )
    })?;
    Ok(Report::of_ingest(report.map_err(input_error)?, false))
}

/// `settings` with the predictability check's options, as `ingest --unpredictable
/// --seed-search NAME[:A..B]` takes them: a bad name or window is a `ValueError` before
/// anything is dealt.
fn predictability_settings(
    settings: IngestSettings,
    unpredictable: bool,
    seed_search: Vec<String>,
) -> PyResult<IngestSettings> {
    let settings = IngestSettings {
        unpredictable,
        predictability_budget: shuffle_audit::ingest::predictability::budget(unpredictable),
        seed_search,
        ..settings
    };
    settings
        .seed_search_runtimes()
        .map_err(|error| PyValueError::new_err(error.to_string().replace("--seed-search", "seed_search")))?;
    Ok(settings)
}

/// Runs catalogue algorithm `name` (as `shuffle-audit run NAME`).
#[pyfunction]
#[pyo3(signature = (name, n, k, trials, seed, alpha, threads))]
#[allow(
    clippy::too_many_arguments,
    reason = "the Python wrapper names each; this is its private call"
)]
fn run_algorithm(
    py: Python<'_>,
    name: &str,
    n: usize,
    k: Option<usize>,
    trials: u64,
    seed: Option<u64>,
    alpha: f64,
    threads: usize,
) -> PyResult<Report> {
    let spec = AlgorithmSpec::parse(name).map_err(input_error)?;
    let settings = RunSettings {
        source: Default::default(),
        n,
        k,
        trials,
        seed,
        threads: threads.max(1),
        alpha,
        shard: None,
    };
    let report = interruptibly(py, |progress| run(&[spec], &settings, progress))?.map_err(input_error)?;
    Ok(Report::of_run(report))
}

/// The deals a deck of `n` cards needs for the audit to catch a total variation of 0.05
/// with 99 % power at `alpha` (what `shuffle-audit ingest --deals-needed N` prints).
#[pyfunction]
fn deals_needed(n: usize, alpha: f64) -> PyResult<u64> {
    if !(2..=shuffle_audit::tally::MAX_N).contains(&n) {
        return Err(PyValueError::new_err(format!(
            "n={n}: a deck has 2 to {} cards",
            shuffle_audit::tally::MAX_N
        )));
    }
    shuffle_audit::stats::Thresholds::new(alpha).map_err(input_error)?;
    deals_to_catch(n, alpha).ok_or_else(|| {
        PyValueError::new_err(format!("no number of deals reaches 99 % power at alpha={alpha}"))
    })
}

/// The `shuffle-audit` command line, `argv` as the script got it (its name first); returns
/// the exit status. The interpreter's lock is released while it runs.
#[pyfunction]
#[pyo3(name = "command_line")]
fn command_line_entry(py: Python<'_>, argv: Vec<OsString>) -> u8 {
    let code = py.detach(|| cli_main::run_command_line(argv));
    // `ExitCode` cannot be read back, only compared.
    (0..=u8::MAX)
        .find(|&status| ExitCode::from(status) == code)
        .unwrap_or(1)
}

#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("ShuffleError", module.py().get_type::<ShuffleError>())?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add_class::<Report>()?;
    module.add_class::<DealCounter>()?;
    module.add_function(wrap_pyfunction!(deal, module)?)?;
    module.add_function(wrap_pyfunction!(ingest_deals, module)?)?;
    module.add_function(wrap_pyfunction!(run_algorithm, module)?)?;
    module.add_function(wrap_pyfunction!(deals_needed, module)?)?;
    module.add_function(wrap_pyfunction!(command_line_entry, module)?)?;
    Ok(())
}
