"""Is a shuffle fair? One line in a test, one cell in a notebook.

``shuffle_audit`` is the Python face of the ``shuffle-audit`` tool: it calls your shuffle
in this interpreter, tallies the deals through the same engine that ``shuffle-audit
ingest`` uses (no files, no subprocess), tests them, and either passes quietly or fails
with the verdict, the test that caught the bias, and how to reproduce it.

>>> import random
>>> from shuffle_audit import assert_fair_shuffle
>>> assert_fair_shuffle(random.shuffle, n=5, seed=7).verdict
'pass'

* :func:`assert_fair_shuffle`: for pytest (or any test runner): raises ``AssertionError``
  unless your shuffle is shown fair; :func:`audit_shuffle` returns the result instead.
* :func:`ingest`: audits deals you already have.
* :func:`run`: runs an algorithm of the tool's catalogue (``naive-swap``, ``fisher-yates``).

Both return an :class:`AuditResult`, which Jupyter shows as the verdict, the tests and
the card-by-position heat map.
"""

from __future__ import annotations

import json
import operator
import os
import random
import secrets
import signal
import threading
import time
import warnings
from typing import Any, Callable, Iterable, Optional, Sequence

from . import _native
from ._native import ShuffleError

__all__ = [
    "AuditResult",
    "PredictableWarning",
    "ShuffleError",
    "assert_fair_shuffle",
    "audit_shuffle",
    "deals_needed",
    "ingest",
    "run",
    "__version__",
]

__version__: str = _native.__version__

#: The significance level of ``fail``, as the command line's ``--alpha``.
DEFAULT_ALPHA = 1e-6

#: Seconds a single call of the shuffle may take before it counts as never returning.
DEFAULT_TIME_LIMIT = 10.0

#: The trials of :func:`run` when none are given, as ``shuffle-audit run``'s.
DEFAULT_RUN_TRIALS = 600_000

#: Largest deck the tool tallies.
MAX_CARDS = 2000


class PredictableWarning(UserWarning):
    """A shuffle that passes the statistical tests while its deals give its generator
    away (``predictable: these deals are …``): warned by :func:`assert_fair_shuffle`
    unless ``unpredictable=True``, which fails it instead."""


def _seed_search(seed_search: Any) -> list[str]:
    """``seed_search`` as the command line's ``--seed-search`` values: a name
    (``'python'``, ``'php:0..100000'``) or a list of them."""
    if seed_search is None:
        return []
    if isinstance(seed_search, str):
        return [seed_search]
    if isinstance(seed_search, (list, tuple)) and all(isinstance(name, str) for name in seed_search):
        return list(seed_search)
    raise TypeError(
        f"seed_search must be a runtime's name such as 'python' or 'php:0..100000', or a list of them, "
        f"not {seed_search!r}"
    )

#: Most worker threads the tool takes.
MAX_THREADS = 256


class AuditResult:
    """What an audit found: the verdict, its p-value, every test, and the report.

    ``verdict`` is ``'pass'``, ``'fail'``, ``'suspicious'`` or ``'inconclusive'``;
    ``p_value`` the smallest Holm-adjusted p-value (the one the verdict is read from);
    ``tests`` a list of dicts, one per test, as in the JSON (``name``, ``statistic``,
    ``df``, ``p_value``, ``p_adjusted``, ...). In Jupyter the result shows itself as the
    verdict badge, the tests table and the heat map.

    >>> result = run("naive-swap", n=3, trials=60_000, seed=1)
    >>> result.verdict, result.tests[0]["name"]
    ('fail', 'permutations')
    >>> print(result.caught_by)  # doctest: +ELLIPSIS
    caught by ...
    """

    def __init__(self, report: Any, name: str, handling: Optional[str] = None) -> None:
        self._report = report
        self.name: str = name
        self.verdict: str = report.verdict
        self.p_value: Optional[float] = report.p_value
        self.caught_by: Optional[str] = report.caught_by
        self.predictable: Optional[str] = report.predictable
        #: The predictability record as the text report prints it: its headline, then each
        #: generator tried or not, with why and how (``None`` when none was checked).
        self.predictability: Optional[str] = report.predictability
        #: ``'predictable'``, ``'not-predictable'`` or ``'unknown'``.
        self.predictability_verdict: Optional[str] = report.predictability_verdict
        self.samples: int = report.samples
        self.notes: list[str] = list(report.notes)
        if self.predictable:
            self.notes.append(self.predictable)
        self.underpowered: Optional[str] = report.underpowered
        #: When the verdict is ``inconclusive`` because some test could not run: the
        #: samples every test needs.
        self.samples_needed: Optional[int] = report.samples_needed
        #: ``'in place'`` or ``'returned'``: how the shuffle of
        #: :func:`assert_fair_shuffle` handed back its deal (``None`` elsewhere).
        self.handling: Optional[str] = handling
        #: For an audited shuffle: the call that deals the same decks again.
        self.reproduce: Optional[str] = None
        #: For an audited shuffle whose first run was suspicious: that first run (this
        #: result is its confirmation, the one that counts).
        self.first: Optional[AuditResult] = None
        self.trials_were_needed = False
        self.alpha = DEFAULT_ALPHA
        self._text: Optional[str] = None
        self._json: Optional[str] = None
        self._document: Optional[dict[str, Any]] = None

    @property
    def text(self) -> str:
        """The terminal report, as the command line prints it."""
        if self._text is None:
            self._text = self._report.text()
        return self._text

    @property
    def document(self) -> dict[str, Any]:
        """The whole JSON document, parsed (as ``--json`` writes it)."""
        if self._document is None:
            self._document = json.loads(self.to_json())
        return self._document

    @property
    def tests(self) -> list[dict[str, Any]]:
        """Every test, as in the JSON: name, description, statistic, df, p-values."""
        document = self.document
        for key in ("results", "sampler_results", "streams"):
            for result in document.get(key) or []:
                if "tests" in result:
                    return list(result["tests"])
        return []

    def to_json(self) -> str:
        """The JSON document, as ``shuffle-audit ... --json`` writes it.

        >>> json.loads(run("fisher-yates", n=3, trials=6_000, seed=2).to_json())["n"]
        3
        """
        if self._json is None:
            self._json = self._report.json()
        return self._json

    def _repr_html_(self) -> str:
        return self._report.html()

    def __repr__(self) -> str:
        p = "" if self.p_value is None else f", smallest adjusted p {self.p_value:.3g}"
        return f"<AuditResult {self.name}: {self.verdict}{p}, {self.samples:,} samples>"

    def __str__(self) -> str:
        return self.text


def deals_needed(n: int, alpha: float = DEFAULT_ALPHA) -> int:
    """The deals of ``n`` cards an audit needs to catch any bias of total variation 0.05
    with 99 % power (the default ``trials`` of :func:`assert_fair_shuffle`).

    >>> deals_needed(5)
    16458
    """
    return _native.deals_needed(_count("n", n, 2, MAX_CARDS), float(alpha))


def _count(option: str, value: Any, least: int, most: Optional[int] = None) -> int:
    """``value`` as a whole number from ``least`` to ``most`` (a numpy integer will do), or a
    clear error naming it."""
    if isinstance(value, bool):
        raise TypeError(f"{option} must be a whole number, not {value!r}")
    try:
        value = operator.index(value)
    except TypeError:
        raise TypeError(f"{option} must be a whole number, not {value!r}") from None
    if value < least or (most is not None and value > most):
        bound = f"{least} to {most:,}" if most is not None else f"at least {least}"
        raise ValueError(f"{option}={value!r}: must be {bound}")
    return value


def _threads(threads: Optional[int]) -> int:
    if threads is None:
        return min(os.cpu_count() or 1, MAX_THREADS)
    return _count("threads", threads, 1, MAX_THREADS)


def _alpha(alpha: float) -> float:
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
        raise TypeError(f"alpha must be a number between 0 and 1, not {alpha!r}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha={alpha!r}: must be between 0 and 1")
    return float(alpha)


class _DealTimeout(BaseException):
    """Raised inside the shuffle by the watchdog: a BaseException, so that the shuffle's
    own ``except Exception`` cannot swallow it."""


def _confirmation_seed(seed: int) -> int:
    """An independent seed for the confirmation of a suspicious first run."""
    return (seed * 0x9E3779B97F4A7C15 + 0x5851F42D4C957F2D) % 2**32


def _seed_generators(seed: int) -> None:
    """Seeds the generators a Python shuffle draws from: ``random`` (and numpy's legacy
    global generator, when numpy is already imported)."""
    random.seed(seed)
    numpy = __import__("sys").modules.get("numpy")
    if numpy is not None:
        numpy.random.seed(seed % 2**32)


def _deal_watched(
    shuffle: Callable[..., Any],
    n: int,
    trials: int,
    alpha: float,
    threads: int,
    name: str,
    time_limit: float,
    reproduce: str,
    unpredictable: bool,
    seed_search: list[str],
) -> tuple[Any, str]:
    """Deals through the native loop while a watchdog thread watches the deal counter:
    when no deal finishes for ``time_limit`` seconds, the shuffle is interrupted.

    In the main thread (pytest's, Jupyter's) the interruption is a signal, which also
    breaks a ``time.sleep`` or a blocking read; in another thread it is an exception
    raised at the shuffle's next line of Python.
    """
    counter = _native.DealCounter()
    stop = threading.Event()
    fired: list[int] = []
    target = threading.get_ident()
    in_main = threading.current_thread() is threading.main_thread() and hasattr(signal, "pthread_kill")
    armed = [True]

    def on_signal(signum: int, frame: Any) -> None:
        if armed[0]:
            raise _DealTimeout()

    def watch() -> None:
        last, since = -1, time.monotonic()
        tick = min(0.05, time_limit / 10)
        while not stop.wait(tick):
            dealt = counter.dealt
            if dealt != last:
                last, since = dealt, time.monotonic()
            elif counter.finished:
                return
            elif time.monotonic() - since >= time_limit:
                # Again every time_limit, for a shuffle that catches the first one.
                fired.append(dealt + 1)
                since = time.monotonic()
                if in_main:
                    signal.pthread_kill(target, signal.SIGUSR1)
                else:
                    import ctypes

                    ctypes.pythonapi.PyThreadState_SetAsyncExc(
                        ctypes.c_ulong(target), ctypes.py_object(_DealTimeout)
                    )

    previous = signal.signal(signal.SIGUSR1, on_signal) if in_main else None
    watchdog = threading.Thread(target=watch, name="shuffle-audit watchdog", daemon=True)
    watchdog.start()
    try:
        return _native.deal(
            shuffle, n, trials, alpha, threads, name, reproduce, counter, unpredictable, seed_search
        )
    except _DealTimeout:
        deal = fired[0] if fired else counter.dealt + 1
        raise ShuffleError(
            f"deal {deal:,} of {trials:,}: the shuffle did not return within {time_limit:g} s "
            f"(time_limit={time_limit:g}); a shuffle must return"
        ) from None
    finally:
        armed[0] = False
        stop.set()
        watchdog.join()
        if in_main:
            signal.signal(signal.SIGUSR1, previous)


def _headline(result: AuditResult) -> str:
    prefix = f"{result.name}: "
    for line in result.text.splitlines():
        if line.startswith(prefix) and "(tested against" in line:
            return line
    return f"{result.name}: {result.verdict.upper()}"


def audit_shuffle(
    shuffle: Callable[[list[int]], Optional[Sequence[int]]],
    n: int,
    trials: Optional[int] = None,
    seed: Optional[int] = None,
    *,
    alpha: float = DEFAULT_ALPHA,
    time_limit: float = DEFAULT_TIME_LIMIT,
    threads: Optional[int] = None,
    name: Optional[str] = None,
    unpredictable: bool = False,
    seed_search: Optional[Any] = None,
) -> AuditResult:
    """Audits ``shuffle`` as :func:`assert_fair_shuffle` does, and returns the
    :class:`AuditResult` whatever the verdict (for a notebook, where a biased shuffle's
    heat map is the point).

    >>> import random
    >>> def naive_swap(deck):
    ...     for i in range(len(deck)):
    ...         j = random.randrange(len(deck))
    ...         deck[i], deck[j] = deck[j], deck[i]
    >>> audit_shuffle(naive_swap, n=4, seed=1).verdict
    'fail'
    """
    if not callable(shuffle):
        raise TypeError(f"shuffle must be a function, not {shuffle!r}")
    n = _count("n", n, 2, MAX_CARDS)
    alpha = _alpha(alpha)
    needed = trials is None
    trials = deals_needed(n, alpha) if trials is None else _count("trials", trials, 1)
    if seed is None:
        seed = secrets.randbelow(2**32)
    seed = _count("seed", seed, 0)
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)):
        raise TypeError(f"time_limit must be a number of seconds, not {time_limit!r}")
    if not time_limit > 0:
        raise ValueError(f"time_limit={time_limit!r}: must be a number of seconds above 0")
    if name is None:
        name = getattr(shuffle, "__qualname__", None) or getattr(shuffle, "__name__", None) or "shuffle"
    threads = _threads(threads)
    searches = _seed_search(seed_search)
    unpredictable = bool(unpredictable)
    options = (", unpredictable=True" if unpredictable else "") + (
        f", seed_search={seed_search!r}" if searches else ""
    )

    def attempt(seed: int, trials: int) -> AuditResult:
        _seed_generators(seed)
        reproduce = f"assert_fair_shuffle({name}, n={n}, trials={trials}, seed={seed}{options})"
        report, handling = _deal_watched(
            shuffle, n, trials, alpha, threads, name, float(time_limit), reproduce, unpredictable, searches
        )
        result = AuditResult(report, name, handling)
        result.reproduce = reproduce
        return result

    first = attempt(seed, trials)
    final = first
    if first.verdict == "suspicious":
        final = attempt(_confirmation_seed(seed), 4 * trials)
        final.first = first
    final.trials_were_needed = needed
    final.alpha = alpha
    return final


def assert_fair_shuffle(
    shuffle: Callable[[list[int]], Optional[Sequence[int]]],
    n: int,
    trials: Optional[int] = None,
    seed: Optional[int] = None,
    *,
    alpha: float = DEFAULT_ALPHA,
    time_limit: float = DEFAULT_TIME_LIMIT,
    threads: Optional[int] = None,
    name: Optional[str] = None,
    unpredictable: bool = False,
    seed_search: Optional[Any] = None,
) -> AuditResult:
    """Asserts that ``shuffle`` is fair: raises ``AssertionError`` unless it is shown so.

    ``shuffle`` is called ``trials`` times, each time on a fresh ``list(range(n))``; it
    may shuffle that list in place (and return ``None``, as ``random.shuffle`` does) or
    return a shuffled sequence (a list, a tuple, a numpy array). The deals are tested as
    ``shuffle-audit ingest`` tests a program's deals.

    ``trials`` defaults to :func:`deals_needed` (``n``): enough to catch any bias of
    total variation 0.05 with 99 % power. Fewer that pass prove nothing, and fail as
    ``inconclusive``. A ``suspicious`` result (p below 0.001 but not below ``alpha``) is
    dealt again, four times over, with an independent seed, and that verdict counts: a fair
    shuffle fails about once in a million runs, never by the bad luck of one.

    ``seed`` seeds Python's ``random`` (and numpy's global generator, when numpy is
    imported) before dealing, so that a failure can be replayed; ``None`` draws one from
    the OS, and the message names it.

    A shuffle that raises, returns something other than an order of the deck, or does not
    return within ``time_limit`` seconds on some deal raises :class:`ShuffleError`
    naming the deal.

    Whatever the tests say, the first deals are handed to the recoveries of the runtimes'
    generators (as ``shuffle-audit ingest`` does): a pass whose deals give their
    generator away warns with :class:`PredictableWarning`, and its result's ``notes`` and
    ``text`` say so; ``unpredictable=True`` (for a card game) fails it instead, and gives
    the check 20 s. ``seed_search`` (``'python'``, ``'php:0..100000'``, or a list) also
    searches those runtimes' seeds, as ``--seed-search`` does. ``result.predictability``
    holds what was tried.

    Returns the :class:`AuditResult` when the shuffle passes.

    >>> import random
    >>> def naive_swap(deck):
    ...     for i in range(len(deck)):
    ...         j = random.randrange(len(deck))
    ...         deck[i], deck[j] = deck[j], deck[i]
    >>> assert_fair_shuffle(naive_swap, n=4, seed=1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    AssertionError: naive_swap: FAIL (tested against: a fair shuffle)...
    """
    final = audit_shuffle(
        shuffle,
        n,
        trials,
        seed,
        alpha=alpha,
        time_limit=time_limit,
        threads=threads,
        name=name,
        unpredictable=unpredictable,
        seed_search=seed_search,
    )
    if final.verdict == "pass" and final.predictable and unpredictable:
        raise AssertionError(_failure_message(final, n, "predictable (unpredictable=True)"))
    if final.verdict == "pass":
        if final.predictable:
            warnings.warn(f"{final.name}: passes, but {final.predictable}", PredictableWarning, stacklevel=2)
        return final
    raise AssertionError(_failure_message(final, n))


def _failure_message(final: AuditResult, n: int, why: Optional[str] = None) -> str:
    """The verdict's headline (or ``why`` it failed though it passed), what caught it,
    the deals, and how to reproduce."""
    first = final.first or final
    lines = [f"{final.name}: {why}" if why else _headline(final)]
    if final.caught_by:
        lines.append(f"  {final.caught_by}")
    if final.underpowered:
        lines.append(f"  underpowered: {final.underpowered}")
    elif final.samples_needed:
        lines.append(
            f"  too few deals for every test to run: they need at least {final.samples_needed:,}"
        )
    if final.p_value is not None:
        lines.append(f"  smallest adjusted p-value: {final.p_value:.3g} (fail below alpha {final.alpha:g})")
    how = "shuffled in place" if final.handling == "in place" else "returned by the shuffle"
    why = " (the deals needed to catch a total variation of 0.05 with 99 % power)" if final.trials_were_needed else ""
    deals = "deal" if first.samples == 1 else "deals"
    lines.append(f"  {first.samples:,} {deals} of {n} cards{why}, {how}")
    if first is not final:
        lines.append(
            f"  the first run was suspicious (p = {first.p_value:.3g}); its confirmation, "
            f"{final.samples:,} deals with an independent seed, is the verdict"
        )
    if final.predictable:
        lines.append(f"  {final.predictable}")
    lines.append(f"  reproduce: {first.reproduce}")
    return "\n".join(lines)


def ingest(
    deals: Iterable[Any],
    *,
    kind: str = "permutations",
    deck: Optional[Sequence[Any]] = None,
    k: Optional[int] = None,
    ordered: bool = False,
    alpha: float = DEFAULT_ALPHA,
    threads: Optional[int] = None,
    name: str = "deals",
    unpredictable: bool = False,
    seed_search: Optional[Any] = None,
) -> AuditResult:
    """Audits deals you already have, as ``shuffle-audit ingest`` audits a file of them.

    ``deals`` is an iterable of sequences (each a deck in some order, or for
    ``kind='selections'`` the ``k`` items picked, or for ``kind='stream'`` the items of
    one sequence); items are numbers or names without spaces. ``deck`` names the deck in
    its order (by default the first deal fixes it, and is then the reference the others
    are read against rather than one of the orders tested).

    ``unpredictable`` gives the predictability check 20 s (``result.predictable`` says
    when the deals give their generator away), and ``seed_search`` searches runtimes'
    seeds, as the command line's ``--unpredictable`` and ``--seed-search`` do.

    >>> import random
    >>> rng = random.Random(3)
    >>> ingest([rng.sample(range(4), 4) for _ in range(20_000)]).verdict
    'pass'
    """
    names = None if deck is None else [str(card) for card in deck]
    if k is not None:
        k = _count("k", k, 1)
    return AuditResult(
        _native.ingest_deals(
            deals,
            kind,
            names,
            k,
            bool(ordered),
            _alpha(alpha),
            _threads(threads),
            name,
            bool(unpredictable),
            _seed_search(seed_search),
        ),
        name,
    )


def run(
    algorithm: str,
    n: int,
    trials: int = DEFAULT_RUN_TRIALS,
    *,
    seed: Optional[int] = None,
    k: Optional[int] = None,
    alpha: float = DEFAULT_ALPHA,
    threads: Optional[int] = None,
) -> AuditResult:
    """Runs an algorithm of the catalogue (``shuffle-audit list`` names them) ``trials``
    times on ``n`` cards, as ``shuffle-audit run`` does.

    >>> run("naive-swap", n=3, trials=60_000, seed=1).verdict
    'fail'
    """
    if not isinstance(algorithm, str):
        raise TypeError(f"algorithm must be a catalogue name such as 'naive-swap', not {algorithm!r}")
    n = _count("n", n, 2, MAX_CARDS)
    trials = _count("trials", trials, 1)
    if seed is not None:
        seed = _count("seed", seed, 0, 2**64 - 1)
    if k is not None:
        k = _count("k", k, 1)
    report = _native.run_algorithm(algorithm, n, k, trials, seed, _alpha(alpha), _threads(threads))
    return AuditResult(report, algorithm)
