"""The module as a user imports it: run by scripts/wheel_test.sh against the installed
wheel (`pytest python/tests`), never against the source tree.

Every statistical verdict here is at a fixed seed: Python's `random.seed` and its
`shuffle`/`randrange` give the same decks on every version since 3.2, so each verdict is
the same on every run; the margins are said where they matter.
"""

import json
import os
import random
import signal
import subprocess
import threading
import time

import pytest

import shuffle_audit
from shuffle_audit import (
    AuditResult,
    ShuffleError,
    assert_fair_shuffle,
    audit_shuffle,
    deals_needed,
    ingest,
    run,
)


def fisher_yates(deck):
    for i in range(len(deck) - 1, 0, -1):
        j = random.randrange(i + 1)
        deck[i], deck[j] = deck[j], deck[i]


def naive_swap(deck):
    for i in range(len(deck)):
        j = random.randrange(len(deck))
        deck[i], deck[j] = deck[j], deck[i]


def test_a_fair_shuffle_passes_and_says_it_was_shuffled_in_place():
    result = assert_fair_shuffle(fisher_yates, n=5, seed=11)
    assert isinstance(result, AuditResult)
    assert result.verdict == "pass"
    assert result.handling == "in place"
    assert result.samples == deals_needed(5) == 16458
    assert result.tests[0]["name"] == "permutations"
    # Far from alpha: the smallest adjusted p of a fair run is uniform-ish, above 1e-3.
    assert result.p_value > 1e-3


def test_a_shuffle_that_returns_its_deal_is_read_from_what_it_returns():
    result = assert_fair_shuffle(lambda deck: random.sample(deck, len(deck)), n=5, seed=3)
    assert result.handling == "returned"
    result = assert_fair_shuffle(lambda deck: tuple(random.sample(deck, len(deck))), n=4, seed=3)
    assert result.handling == "returned"


def test_numpy_arrays_are_deals_too():
    numpy = pytest.importorskip("numpy")
    rng = numpy.random.default_rng(5)
    result = assert_fair_shuffle(lambda deck: rng.permutation(deck), n=5, seed=5)
    assert (result.verdict, result.handling) == ("pass", "returned")


def test_the_naive_swap_fails_with_the_headline_what_caught_it_and_the_reproduce_line():
    # The naive swap's total variation on 5 cards is far above 0.05: its p-value at the
    # default deals is beyond 1e-100, so this can never pass.
    with pytest.raises(AssertionError) as caught:
        assert_fair_shuffle(naive_swap, n=5, seed=1)
    message = str(caught.value)
    lines = message.splitlines()
    assert lines[0] == "naive_swap: FAIL (tested against: a fair shuffle)"
    assert lines[1].startswith("  caught by ")
    assert "16,458 deals of 5 cards (the deals needed to catch a total variation of 0.05" in message
    assert lines[-1] == "  reproduce: assert_fair_shuffle(naive_swap, n=5, trials=16458, seed=1)"
    # The same seed deals the same decks: the same verdict and p-value again.
    again = audit_shuffle(naive_swap, n=5, seed=1)
    first = audit_shuffle(naive_swap, n=5, seed=1)
    assert (again.verdict, again.p_value) == (first.verdict, first.p_value) == ("fail", first.p_value)


def test_too_few_deals_that_pass_prove_nothing():
    with pytest.raises(AssertionError) as caught:
        assert_fair_shuffle(fisher_yates, n=5, trials=1000, seed=4)
    message = str(caught.value)
    assert "INCONCLUSIVE" in message.splitlines()[0]
    assert "underpowered: 1,000 samples, but its permutations test needs" in message


def test_a_shuffle_that_raises_names_the_deal_and_keeps_the_cause():
    calls = []

    def breaks(deck):
        calls.append(1)
        if len(calls) == 500:
            raise ValueError("boom")
        random.shuffle(deck)

    with pytest.raises(ShuffleError, match=r"^deal 500 of 16,458: the shuffle raised ValueError: boom$") as caught:
        assert_fair_shuffle(breaks, n=5, seed=1)
    assert isinstance(caught.value.__cause__, ValueError)


@pytest.mark.parametrize(
    "shuffle, problem",
    [
        (lambda deck: deck[:-1], r"deal 1 of 16,458: the shuffle gave \[0, 1, 2, 3\]: it holds 4 cards, not the deck's 5"),
        (lambda deck: [0, 1, 1, 3, 4], r"it holds card 1 twice"),
        (lambda deck: [0, 1, 2, 3, 5], r"it holds 5, which is not a card of the deck \(a number from 0 to 4\)"),
        (lambda deck: ["a", 1, 2, 3, 4], r"it holds 'a', which is not a card of the deck"),
        (lambda deck: 7, r"the shuffle gave 7: it is neither None \(a shuffle in place\) nor a sequence"),
    ],
)
def test_what_is_not_an_order_of_the_deck_is_refused_with_the_deal(shuffle, problem):
    with pytest.raises(ShuffleError, match=problem):
        assert_fair_shuffle(shuffle, n=5, seed=1)


def test_a_repeated_card_on_a_later_deal_names_that_deal():
    calls = []

    def late(deck):
        calls.append(1)
        random.shuffle(deck)
        if len(calls) == 3:
            deck[0] = deck[1]

    with pytest.raises(ShuffleError, match=r"^deal 3 of 16,458: the shuffle gave \[.*\]: it holds card \d twice"):
        assert_fair_shuffle(late, n=5, seed=1)


def test_a_shuffle_that_never_returns_is_stopped_at_the_time_limit():
    def hangs(deck):
        if deck is not None and len(calls) == 10:
            time.sleep(3600)
        calls.append(1)
        random.shuffle(deck)

    calls = []
    started = time.monotonic()
    with pytest.raises(ShuffleError, match=r"^deal 11 of 16,458: the shuffle did not return within 0\.5 s"):
        assert_fair_shuffle(hangs, n=5, seed=1, time_limit=0.5)
    assert time.monotonic() - started < 10

    # A busy loop, and in a thread that is not the main one (no signal there).
    def spins(deck):
        while True:
            pass

    outcome = []

    def in_thread():
        try:
            assert_fair_shuffle(spins, n=5, seed=1, time_limit=0.5)
        except ShuffleError as error:
            outcome.append(str(error))

    worker = threading.Thread(target=in_thread)
    worker.start()
    worker.join(30)
    assert not worker.is_alive()
    assert outcome and outcome[0].startswith("deal 1 of 16,458: the shuffle did not return within 0.5 s")


def test_options_are_checked_and_named():
    with pytest.raises(ValueError, match=r"^n=1: must be 2 to 2,000$"):
        assert_fair_shuffle(fisher_yates, n=1)
    with pytest.raises(TypeError, match=r"^n must be a whole number, not 5\.0$"):
        assert_fair_shuffle(fisher_yates, n=5.0)
    with pytest.raises(ValueError, match=r"^trials=0: must be at least 1$"):
        assert_fair_shuffle(fisher_yates, n=5, trials=0)
    with pytest.raises(TypeError, match=r"^shuffle must be a function"):
        assert_fair_shuffle([1, 2, 3], n=5)
    with pytest.raises(ValueError, match=r"^alpha=2: must be between 0 and 1$"):
        assert_fair_shuffle(fisher_yates, n=5, alpha=2)
    with pytest.raises(ValueError, match=r"^time_limit=0: must be a number of seconds above 0$"):
        assert_fair_shuffle(fisher_yates, n=5, time_limit=0)
    with pytest.raises(ValueError, match=r"unknown algorithm|not in the catalogue|no-such"):
        run("no-such-shuffle", n=3)
    with pytest.raises(ValueError, match=r"^threads=300: must be 1 to 256$"):
        assert_fair_shuffle(fisher_yates, n=5, threads=300)
    with pytest.raises(TypeError, match=r"^alpha must be a number"):
        assert_fair_shuffle(fisher_yates, n=5, alpha="0.01")
    numpy = pytest.importorskip("numpy")
    assert assert_fair_shuffle(fisher_yates, n=numpy.int64(4), seed=2).verdict == "pass"


def test_a_seeded_shuffle_that_passes_is_predictable_and_unpredictable_fails_it():
    # assert_fair_shuffle seeds Python's random with its seed, so random.shuffle deals
    # what random.seed(77) deals: fair by every test, and its seed is found by the seed
    # search asked for (a window around it: the whole 2^32 would take minutes).
    window = "python:0..1000"
    with pytest.warns(shuffle_audit.PredictableWarning, match=r"passes, but predictable: these deals are CPython's random"):
        result = assert_fair_shuffle(random.shuffle, n=4, seed=77, seed_search=window)
    assert result.verdict == "pass"
    assert result.predictability_verdict == "predictable"
    assert result.predictable in result.notes
    assert "random.seed(77)" in result.text
    assert result.predictability.startswith("predictability: predictable")
    with pytest.raises(AssertionError, match=r"^Random\.shuffle: predictable \(unpredictable=True\)") as failure:
        assert_fair_shuffle(random.shuffle, n=4, seed=77, seed_search=[window], unpredictable=True)
    assert "unpredictable=True, seed_search=" in str(failure.value)
    # Without the seed search the same deals are not called safe: the record says the
    # seeded runtimes were not tried, and how to try them.
    result = audit_shuffle(random.shuffle, n=4, seed=77)
    assert result.predictability_verdict == "unknown"
    assert "--seed-search NAME" in result.predictability
    # ingest() takes the same options.
    rng = random.Random()
    rng.seed(5)
    deals = []
    for _ in range(200):
        deck = list(range(6))
        rng.shuffle(deck)
        deals.append(deck)
    found = ingest(deals, deck=range(6), seed_search="python:0..10")
    assert found.predictability_verdict == "predictable", found.predictability
    with pytest.raises(ValueError, match=r"seed_search"):
        assert_fair_shuffle(fisher_yates, n=4, seed_search="no-such-runtime")
    with pytest.raises(TypeError, match=r"^seed_search must be"):
        assert_fair_shuffle(fisher_yates, n=4, seed_search=5)


def test_the_smallest_alpha_is_an_answer_not_a_crash():
    assert deals_needed(5, 5e-324) > deals_needed(5)
    result = audit_shuffle(fisher_yates, n=4, trials=2000, seed=1, alpha=5e-324)
    assert result.verdict in ("pass", "inconclusive")


def test_too_few_deals_for_every_test_say_how_many_they_need():
    # 600 for the 120 orders of 5 cards; 601 deals for the 600 consecutive pairs the serial
    # tests need.
    with pytest.raises(AssertionError, match=r"too few deals for every test to run: they need at least 601"):
        assert_fair_shuffle(fisher_yates, n=5, trials=100, seed=1)


def test_default_deals_let_every_test_run_on_large_decks():
    # 300 cards: the position test and its serial twin need five deals (and pairs of
    # deals) per cell before they run: 1,501 deals.
    result = assert_fair_shuffle(fisher_yates, n=300, seed=1)
    assert result.samples == deals_needed(300) == 1501


def test_unordered_and_endless_returns_are_refused():
    with pytest.raises(ShuffleError, match=r"it is a set, which has no order of cards"):
        assert_fair_shuffle(lambda deck: set(deck), n=5, seed=1)

    class Endless:
        def __len__(self):
            return 5

        def __iter__(self):
            import itertools

            return itertools.repeat(0)

    # At most n + 1 cards are read: the wrong length, not an endless read.
    with pytest.raises(ShuffleError, match=r"it holds card 0 twice|it holds 6 cards"):
        assert_fair_shuffle(lambda deck: Endless(), n=5, seed=1)


def test_samplers_run_with_k_and_odd_names_are_refused():
    # bag-pick is fair (text 002's selection sampling); at this seed its smallest adjusted
    # p is 0.22, far from the 1e-3 of suspicious.
    assert run("bag-pick", n=10, k=3, trials=20_000, seed=1).verdict == "pass"
    with pytest.raises(ValueError, match=r"the first may not start with '#'"):
        ingest([["#A", "B"], ["B", "#A"]])
    rng = random.Random(1)
    streamed = ingest([rng.choice(["heads", "tails"]) for _ in range(20_000)], kind="stream")
    assert streamed.samples == 20_000 and streamed.verdict == "pass"


def test_ctrl_c_stops_a_long_run_and_a_c_shuffle():
    # Python's own SIGINT handler, for the test: a process started in the background (a CI
    # job) inherits SIGINT ignored, and Python then installs none.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        # A real SIGINT from another process, as a terminal's Ctrl-C comes; `list.reverse`
        # is a shuffle written in C, which runs no Python between deals.
        for work in (
            lambda: run("fisher-yates", n=5, trials=10**10, seed=1),
            lambda: audit_shuffle(list.reverse, n=5, trials=2**62, seed=1),
        ):
            killer = subprocess.Popen(["sh", "-c", f"sleep 0.3; kill -INT {os.getpid()}"])
            started = time.monotonic()
            with pytest.raises(KeyboardInterrupt):
                work()
            assert time.monotonic() - started < 5
            killer.wait()
    finally:
        signal.signal(signal.SIGINT, previous)


def test_run_and_ingest_return_results_that_jupyter_draws():
    result = run("naive-swap", n=3, trials=60_000, seed=1)
    assert result.verdict == "fail"
    html = result._repr_html_()
    assert html.startswith('<div class="shuffle-audit">')
    assert '<span class="verdict fail">fail</span>' in html
    assert '<table class="tests">' in html
    assert html.count("data:image/svg+xml;base64,") >= 2
    document = json.loads(result.to_json())
    assert document["results"][0]["verdict"] == "fail"
    assert "naive-swap: FAIL" in result.text

    rng = random.Random(9)
    deals = [rng.sample("ABCD", 4) for _ in range(30_000)]
    fair = ingest(deals, name="my deals")
    assert fair.verdict == "pass", fair.text
    assert "my deals: PASS" in fair.text
    picks = ingest([rng.sample(range(6), 2) for _ in range(30_000)], kind="selections", deck=range(6))
    assert picks.verdict == "pass"
    with pytest.raises(ValueError, match=r"deal 2: card 1 is 'a b'"):
        ingest([["x", "y"], ["a b", "y"]])


def test_the_command_line_is_in_the_wheel():
    import shutil

    program = shutil.which("shuffle-audit")
    assert program is not None
    done = subprocess.run([program, "--version"], capture_output=True, text=True)
    assert (done.returncode, done.stdout.strip()) == (0, f"shuffle-audit {shuffle_audit.__version__}")
    done = subprocess.run([program, "ingest", "--deals-needed", "5"], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, "16458\n")
    done = subprocess.run([program, "run", "no-such"], capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr.startswith("shuffle-audit: error:")
