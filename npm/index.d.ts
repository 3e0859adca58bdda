// Types for the shuffle-audit package (hand-written; the implementation is index.cjs).

/** What `shuffle-audit ingest` concluded. Only `pass` is a pass. */
export type Verdict = "pass" | "fail" | "suspicious" | "inconclusive";

/**
 * A shuffle as assertFairShuffle calls it: it gets a fresh array `[0, 1, ..., n-1]` on every
 * call, and either shuffles it in place (and returns nothing, or the array itself) or
 * returns a new shuffled array. It must be synchronous.
 */
export type Shuffle = (deck: number[]) => ArrayLike<number> | void;

/** A card of a deal given to {@link audit}: its text is its name (no white space or comma). */
export type Card = string | number;

/** One test of the result, as the JSON writes it (`results[0].tests[i]`). */
export interface TestResult {
  /** `permutations`, `positions`, `fixed-points`, `cycles`, `rising-sequences`, `serial-…`, `guessing`, … */
  name: string;
  /** What the test checks, in words. */
  description: string;
  /** `computed` when the test ran; otherwise why not (too few samples, say). */
  status: string;
  /** The χ² statistic (or, for `guessing`, the cards named right); null when it did not run. */
  statistic: number | null;
  /** Degrees of freedom; null for tests without them and tests that did not run. */
  df: number | null;
  /** The p-value, floored at 1e-300 (`log10_p_value` holds smaller ones). */
  p_value: number | null;
  /** The Holm-adjusted p-value, floored at 1e-300; the verdict reads these. */
  p_adjusted: number | null;
  log10_p_value?: number | null;
  log10_p_adjusted?: number | null;
  /** Whether the counts came out too even to be random (the lower tail decided). */
  too_even?: boolean;
  /**
   * How the p-value was computed: `chi-square` (the χ² law, where the counts support it),
   * `exact` (the exact law of the counts), `simulated` (a seeded simulation of a fair
   * source) or `bound` (an upper bound, never below the exact p-value).
   */
  p_method?: "chi-square" | "exact" | "simulated" | "bound";
  [field: string]: unknown;
}

/** What {@link audit} resolves with; assertFairShuffle's result has more fields. */
export interface AuditResult {
  /** The verdict. `inconclusive` also when a pass was refused for too few samples. */
  verdict: Verdict;
  /** `verdict === "pass"`. */
  passed: boolean;
  /** The smallest Holm-adjusted p-value among the tests that ran (floored at 1e-300), or null. */
  pValue: number | null;
  /** The test that p-value belongs to (the one that caught a biased shuffle), or null. */
  smallestTest: string | null;
  /** Every test, as in the JSON. */
  tests: TestResult[];
  /** Total variation distance of the orders (or subsets) seen from uniform; null for streams. */
  totalVariation: number | null;
  /** The samples tested (deals, selections, a stream's items). */
  trials: number | null;
  /** `shuffle: FAIL (tested against: a fair shuffle)`. */
  headline: string;
  /**
   * Why the verdict is not a pass: the `caught by …` line (the test with the smallest
   * adjusted p-value, its p-value, and what its failing means), or for `inconclusive` the
   * binary's own reason. Null on a pass.
   */
  reason: string | null;
  /** Notes the binary made about the input (the JSON's `notes`), and `predictable` when set. */
  notes: string[];
  /**
   * `predictable: these deals are V8's Math.random's (Fisher-Yates): the next deal will be …`
   * when the first deals give their generator away (a pass can be predictable); null otherwise.
   */
  predictable: string | null;
  /**
   * What the predictability check tried (the JSON's `input.predictability`): its `verdict`
   * (`predictable`, `not-predictable` or `unknown`), `headline`, and each generator in
   * `generators`, tried or not, with why and how. Null when the input was not checked.
   */
  predictability: (Record<string, unknown> & { verdict: string; headline: string }) | null;
  /** A short text summary: the headline, the reason, p-value and total variation. */
  text: string;
  /** The whole JSON `shuffle-audit ingest --json -` wrote (schema: `schemas/run.schema.json`; `stream.schema.json` for kind `stream`). */
  json: Record<string, unknown> & { results: Array<Record<string, unknown>> };
}

/** What {@link assertFairShuffle} resolves with (and attaches to its AssertionError as `result`). */
export interface ShuffleResult extends AuditResult {
  /**
   * How the shuffle handed back its deal, detected on the first call: `in place` (it
   * returned undefined or the array it was given) or `returned` (a new array).
   */
  detected: "in place" | "returned";
  /** Cards per deck. */
  n: number;
  /** Where the first run's deal count came from: the `trials` option, or `--deals-needed`. */
  trialsFrom: "option" | "--deals-needed";
  /**
   * The first run when it was `suspicious` (this result is then the confirmation: four
   * times the deals, whose verdict counts, as `shuffle-audit check` rules); otherwise null.
   */
  firstRun: (AuditResult & { detected: "in place" | "returned" }) | null;
}

export interface AssertFairShuffleOptions {
  /**
   * Cards per deck, 2 to 2000 (ingest's limit). Default 5: all 120 orders are tallied and
   * the classic biases show on any deck size.
   */
  n?: number;
  /**
   * Deals to make. Default: what `shuffle-audit ingest --deals-needed n` says the test
   * needs to catch a total variation of 0.05 with 99 % power (tens of thousands at 5 cards).
   * Fewer deals than that make a pass `inconclusive`, since the binary runs with `--powered`.
   */
  trials?: number;
  /** Significance level for `fail`, in (0, 1). Default: the binary's, 1e-6. */
  alpha?: number;
  /**
   * The most one call of the shuffle may take, in milliseconds (default 10000). A call that
   * runs longer (by up to a tenth, 100 ms at most: the loop is timed in slices) is stopped
   * (V8 terminates it, even a `while (true) {}`) and the promise
   * rejects with a ShuffleError `TIMEOUT` naming the deal. Infinity: no limit (for stepping
   * through the shuffle in a debugger). Keep it below your test runner's own timeout.
   */
  timeLimit?: number;
  /**
   * Fail a pass whose deals give their generator away (`ingest --unpredictable`, which also
   * gives the check 20 s). Without it such a pass resolves, with `predictable` set, and
   * emits a `PredictableWarning` (`process.emitWarning`).
   */
  unpredictable?: boolean;
  /**
   * Also search these runtimes' seeds (`--seed-search`): a name such as `"python"` or
   * `"php:0..100000"`, or an array of them.
   */
  seedSearch?: string | readonly string[];
}

/**
 * Tests that `shuffle` is fair. It is called `trials` times, here in this process, each
 * time on a fresh `[0, 1, ..., n-1]`; the deals stream to `shuffle-audit ingest --powered`.
 * A suspicious first run is dealt again with four times the deals, and that verdict counts.
 *
 * Resolves with the result when the verdict is `pass`. Rejects with node's
 * `assert.AssertionError` when it is not: its message is the headline
 * (`shuffle: FAIL (tested against: a fair shuffle)`), the `caught by` line, the deals made and
 * how the shuffle returned them, and a reproduce hint; its `result` property is the
 * {@link ShuffleResult}.
 *
 * Rejects with a {@link ShuffleError} (not an AssertionError) when the shuffle throws,
 * returns a wrong deal, a Promise, or does not return within `timeLimit`; with a
 * {@link ShuffleAuditError} when the binary is not found or fails; with a TypeError or
 * RangeError naming the option when an option is wrong.
 *
 * @example
 * import { test } from "node:test";
 * import { assertFairShuffle } from "shuffle-audit";
 * test("the deck shuffle is fair", () => assertFairShuffle((deck) => shuffleInPlace(deck)));
 */
export function assertFairShuffle(
  shuffle: Shuffle,
  options?: AssertFairShuffleOptions,
): Promise<ShuffleResult>;

export interface AuditOptions {
  /**
   * The deck, in card order. For `permutations` without it the first deal fixes the deck
   * (and is the reference the others are read against, not one of the orders tested);
   * for `selections` give it, or an item never picked cannot be missed.
   */
  deck?: readonly Card[];
  /** What each deal is: a whole deck in some order (default), k items of the deck, or items of one stream. */
  kind?: "permutations" | "selections" | "stream";
  /** Significance level for `fail`, in (0, 1). Default 1e-6. */
  alpha?: number;
  /** Selections whose order is promised to be random: test the order too (`--ordered`). */
  ordered?: boolean;
  /** Make a pass on fewer samples than the test needs to catch a total variation of 0.05 `inconclusive` (`--powered`). */
  powered?: boolean;
  /** Give the predictability check 20 s (`--unpredictable`); `predictable` says what it found. */
  unpredictable?: boolean;
  /** Also search these runtimes' seeds (`--seed-search`): `"python"`, `"php:0..100000"`, or an array. */
  seedSearch?: string | readonly string[];
}

/**
 * Tests deals already in hand: an array, iterable or async iterable of deals, each an
 * array of cards. They stream to `shuffle-audit ingest` (never all in memory at once).
 * Resolves with the result whatever the verdict (it does not assert); rejects with a
 * TypeError naming the deal when one cannot be written as a line (empty, or a card with
 * white space or a comma), and with a {@link ShuffleAuditError} carrying the binary's
 * one-line message when it refuses the input (`line 3: unknown item 'Z'`: line N is deal N).
 *
 * @example
 * const result = await audit(deals, { deck: ["A", "K", "Q", "J"] });
 * console.log(result.verdict, result.pValue);
 */
export function audit(
  deals: Iterable<ArrayLike<Card>> | AsyncIterable<ArrayLike<Card>>,
  options?: AuditOptions,
): Promise<AuditResult>;

/**
 * Where the binary is, as the audits find it: the per-platform package
 * (`@shuffle-audit/linux-x64`), then `SHUFFLE_AUDIT_BIN`, then `shuffle-audit` on the PATH.
 * Throws a {@link ShuffleAuditError} (`BINARY_NOT_FOUND`) naming all three when none is there.
 */
export function findBinary(): { path: string; from: string };

/** The user's shuffle misbehaved; nothing was learnt about its fairness. */
export class ShuffleError extends Error {
  name: "ShuffleError";
  /** What went wrong. */
  code:
    | "THREW"
    | "WRONG_LENGTH"
    | "REPEATED_CARD"
    | "NOT_A_CARD"
    | "NOT_AN_ARRAY"
    | "PROMISE"
    | "TIMEOUT";
  /** The deal, counted from 1, during which it happened. */
  deal: number;
  /** The deals the run was to make. */
  trials: number;
  /** The deal as the shuffle left or returned it (undefined for NOT_AN_ARRAY and PROMISE). */
  cards?: unknown[];
  /** For THREW: what the shuffle threw. */
  cause?: unknown;
}

/** The binary could not be found or run, or refused its input. */
export class ShuffleAuditError extends Error {
  name: "ShuffleAuditError";
  /**
   * `BINARY_NOT_FOUND`; `BINARY_TOO_OLD` (it lacks a flag this package passes);
   * `BAD_INPUT` (its exit status 2: the message is its own line); `BINARY_FAILED`.
   */
  code: "BINARY_NOT_FOUND" | "BINARY_TOO_OLD" | "BAD_INPUT" | "BINARY_FAILED";
  /** The binary's path, when one was found. */
  binary?: string;
  /** Its exit status, when it ran. */
  status?: number | null;
  /** Its standard error, when it ran. */
  stderr?: string;
}

/** This package's version (the binary's, too, when it comes from the platform package). */
export const version: string;
