"""Type stubs of the native extension (python/src/lib.rs). Users import ``shuffle_audit``;
these are the private calls its functions make."""

from typing import Any, Iterable, Optional

__version__: str

class ShuffleError(Exception):
    """A shuffle that could not be audited: it raised, returned something that is not an
    order of the deck, or did not return in time. The message names the deal."""

class Report:
    verdict: str
    p_value: Optional[float]
    caught_by: Optional[str]
    predictable: Optional[str]
    predictability: Optional[str]
    predictability_verdict: Optional[str]
    samples: int
    underpowered: Optional[str]
    samples_needed: Optional[int]
    notes: list[str]
    def text(self) -> str: ...
    def json(self) -> str: ...
    def html(self) -> str: ...

class DealCounter:
    def __init__(self) -> None: ...
    @property
    def dealt(self) -> int: ...
    @property
    def finished(self) -> bool: ...
    @property
    def dealing_seconds(self) -> float: ...

def deal(
    shuffle: Any,
    n: int,
    trials: int,
    alpha: float,
    threads: int,
    name: str,
    reproduce: str,
    counter: DealCounter,
    unpredictable: bool,
    seed_search: list[str],
) -> tuple[Report, str]: ...
def ingest_deals(
    deals: Iterable[Any],
    kind: str,
    deck: Optional[list[str]],
    k: Optional[int],
    ordered: bool,
    alpha: float,
    threads: int,
    name: str,
    unpredictable: bool,
    seed_search: list[str],
) -> Report: ...
def run_algorithm(
    name: str,
    n: int,
    k: Optional[int],
    trials: int,
    seed: Optional[int],
    alpha: float,
    threads: int,
) -> Report: ...
def deals_needed(n: int, alpha: float) -> int: ...
def command_line(argv: list[str]) -> int: ...
