"""A project's shuffle, gated in its own test suite: `pip install shuffle-audit`, then pytest.

`assert_fair_shuffle` calls the shuffle on a fresh `list(range(n))` as many times as it
takes to catch any bias of total variation 0.05 with 99 % power, tests the deals, and
raises AssertionError with the verdict, the test that caught it and a reproduce line.
"""

import random

import pytest
from shuffle_audit import assert_fair_shuffle


def shuffle_deck(cards):
    """This project's shuffle: Durstenfeld's Fisher-Yates, written out by hand."""
    for i in range(len(cards) - 1, 0, -1):
        j = random.randrange(i + 1)
        cards[i], cards[j] = cards[j], cards[i]


def legacy_shuffle(cards):
    """The naive swap it replaced: each card with one anywhere in the deck (biased)."""
    for i in range(len(cards)):
        j = random.randrange(len(cards))
        cards[i], cards[j] = cards[j], cards[i]


def test_our_shuffle_is_fair():
    assert_fair_shuffle(shuffle_deck, n=5)


def test_pythons_own_shuffle_is_fair():
    assert_fair_shuffle(random.shuffle, n=5)


def test_the_legacy_shuffle_is_caught():
    with pytest.raises(AssertionError, match="FAIL"):
        assert_fair_shuffle(legacy_shuffle, n=5)
