// shuffle-audit for JavaScript: test a shuffle written in JavaScript from node:test, jest or
// vitest. The user's shuffle runs here, in this process; the statistics run in the
// `shuffle-audit` binary (`ingest -`), which reads the deals from its standard input as they
// are dealt and answers with its JSON. The binary comes from the per-platform package
// (`@shuffle-audit/linux-x64`, as esbuild ships `@esbuild/linux-x64`), SHUFFLE_AUDIT_BIN, or
// the PATH, in that order.
//
// This file is the implementation (CommonJS, so that `require` needs no build step);
// index.mjs re-exports it for `import`, and index.d.ts documents every export.
"use strict";

const assert = require("node:assert");
const { spawn, execFile } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { performance } = require("node:perf_hooks");
const util = require("node:util");
const vm = require("node:vm");

const version = require("./package.json").version;

/** The deck size assertFairShuffle deals by default; see `assertFairShuffle`. */
const DEFAULT_N = 5;
/** The most cards `ingest --deck` takes. */
const MAX_CARDS = 2000;
/** How long one call of the user's shuffle may run, by default (ms). */
const DEFAULT_TIME_LIMIT = 10_000;
/**
 * The most a slice of the dealing loop runs before it stops starting calls (ms): a tenth of
 * the time limit, and no more than this.
 */
const SLICE_MS = 100;
/** The most text a slice deals before it is written to the binary (bytes, about). */
const CHUNK_BYTES = 128 * 1024;
/** A suspicious first run is dealt again with this many times the deals, as `check` does. */
const CONFIRMATION_FACTOR = 4;
/** The verdict `ingest` gives every result; `pass` is the only one an assertion accepts. */
const VERDICTS = ["pass", "fail", "suspicious", "inconclusive"];
const KINDS = ["permutations", "selections", "stream"];

// ---------------------------------------------------------------------------------------
// Errors

/**
 * The user's shuffle misbehaved: it threw, returned something that is not a deal of the
 * deck, returned a Promise, or did not return within the time limit. Not an
 * AssertionError: nothing was learnt about fairness.
 */
class ShuffleError extends Error {
  constructor(message, { code, deal, trials, cards, cause }) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "ShuffleError";
    this.code = code;
    this.deal = deal;
    this.trials = trials;
    this.cards = cards;
  }
}

/**
 * The binary could not be found or run, or refused its input (its exit status 2, with its
 * one-line message).
 */
class ShuffleAuditError extends Error {
  constructor(message, { code, binary, status, stderr } = {}) {
    super(message);
    this.name = "ShuffleAuditError";
    this.code = code;
    this.binary = binary;
    this.status = status;
    this.stderr = stderr;
  }
}

// ---------------------------------------------------------------------------------------
// Finding the binary

const executable = process.platform === "win32" ? "shuffle-audit.exe" : "shuffle-audit";

/** The per-platform package that carries this platform's binary. */
function platformPackage() {
  return `@shuffle-audit/${process.platform}-${process.arch}`;
}

function isExecutableFile(file) {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where the binary is: the per-platform optional dependency, then SHUFFLE_AUDIT_BIN, then
 * the PATH. Looked up on every call (cheap: a few stat calls), so that a test may change
 * the environment between audits.
 */
function findBinary() {
  const looked = [];
  const pkg = platformPackage();
  let manifest = null;
  try {
    manifest = require.resolve(`${pkg}/package.json`);
  } catch {
    // Not installed: npm skips an optional dependency whose os/cpu/libc do not match, and
    // `--omit=optional` skips it everywhere.
  }
  if (manifest !== null) {
    const file = path.join(path.dirname(manifest), "bin", executable);
    if (isExecutableFile(file)) return { path: file, from: `the package ${pkg}` };
    looked.push(`1. the package ${pkg}: installed, but ${file} is missing or not executable`);
  } else {
    looked.push(
      `1. the package ${pkg}: not installed (npm installs it with shuffle-audit where one is built: linux-x64)`,
    );
  }

  const fromEnv = process.env.SHUFFLE_AUDIT_BIN;
  if (fromEnv) {
    if (isExecutableFile(fromEnv))
      return { path: path.resolve(fromEnv), from: "SHUFFLE_AUDIT_BIN" };
    // A variable set to a wrong path is a mistake to report, not a reason to fall back to
    // whatever the PATH holds.
    throw new ShuffleAuditError(
      `shuffle-audit: SHUFFLE_AUDIT_BIN is set to '${fromEnv}', which is not an executable file`,
      { code: "BINARY_NOT_FOUND" },
    );
  }
  looked.push("2. SHUFFLE_AUDIT_BIN: not set");

  const folders = (process.env.PATH || "").split(path.delimiter).filter(Boolean);
  for (const folder of folders) {
    const file = path.join(folder, executable);
    if (isExecutableFile(file)) return { path: file, from: "the PATH" };
  }
  looked.push(
    `3. the PATH: no ${executable} in ${folders.length === 1 ? "its one folder" : `its ${folders.length} folders`}`,
  );
  throw new ShuffleAuditError(
    `shuffle-audit: no shuffle-audit binary found; looked in ${looked.join("; ")}. ` +
      "Install shuffle-audit with its platform package, or set SHUFFLE_AUDIT_BIN to a shuffle-audit binary",
    { code: "BINARY_NOT_FOUND" },
  );
}

// ---------------------------------------------------------------------------------------
// Talking to `shuffle-audit ingest`

/** The last line of the binary's standard error that starts with `shuffle-audit: PREFIX`. */
function toolLine(stderr, prefix = "") {
  const lines = stderr.split("\n").filter((line) => line.startsWith(`shuffle-audit: ${prefix}`));
  return lines.length ? lines[lines.length - 1].trim() : null;
}

/**
 * A binary built before `ingest` learnt a flag this package passes says `unexpected argument
 * '--flag'`: such an error names the binary, the flag and what to do, not clap's words.
 */
function tooOld(binary, stderr, instead = "") {
  const flag = /unexpected argument '(--[a-z-]+)'/.exec(stderr);
  if (!flag) return null;
  return new ShuffleAuditError(
    `shuffle-audit: the binary at ${binary.path} (found via ${binary.from}) is older than this ` +
      `package: its ingest has no ${flag[1]}; use shuffle-audit ${version} or later${instead}`,
    { code: "BINARY_TOO_OLD", binary: binary.path, status: 2, stderr },
  );
}

/**
 * Runs `shuffle-audit ingest - ARGS --json -`, hands `feed` a function that writes a chunk
 * to the binary's standard input and resolves once the pipe can take more (false when the
 * binary has stopped reading), and resolves with the exit status, the parsed JSON and the
 * standard error. The text report does not reach standard output: with `--json -`, ingest
 * writes only the JSON there, and a one-line verdict to standard error when it is not a
 * pass.
 */
async function runIngest(binary, args, feed) {
  const child = spawn(binary.path, ["ingest", "-", ...args, "--json", "-"], {
    stdio: ["pipe", "pipe", "pipe"],
    windowsHide: true,
  });
  const stdout = [];
  let stderr = "";
  child.stdout.on("data", (chunk) => stdout.push(chunk));
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk) => {
    if (stderr.length < 1 << 20) stderr += chunk;
  });
  // EPIPE when the binary exits before reading everything (bad input): its exit status and
  // message say why, so the pipe's error itself is not reported.
  child.stdin.on("error", () => {});
  let stdinOpen = true;
  child.stdin.on("close", () => {
    stdinOpen = false;
  });
  const exited = new Promise((resolve) => {
    child.on("error", (error) => resolve({ error }));
    child.on("close", (status, signal) => resolve({ status, signal }));
  });

  const write = (chunk) => {
    if (!stdinOpen || child.stdin.destroyed) return Promise.resolve(false);
    if (child.stdin.write(chunk)) return Promise.resolve(true);
    // Backpressure: wait until the binary has read what is buffered (or gone away).
    return new Promise((resolve) => {
      const done = () => {
        child.stdin.off("drain", done);
        child.stdin.off("close", done);
        resolve(stdinOpen);
      };
      child.stdin.on("drain", done);
      child.stdin.on("close", done);
    });
  };

  try {
    await feed(write);
  } catch (error) {
    // The deals went wrong (a bad shuffle): the binary's verdict on half a run means
    // nothing, so it is stopped and the feed's error is the answer.
    child.stdin.destroy();
    child.kill();
    await exited;
    throw error;
  }
  child.stdin.end();
  const exit = await exited;
  if (exit.error) {
    throw new ShuffleAuditError(
      `shuffle-audit: cannot run ${binary.path} (found via ${binary.from}): ${exit.error.message}`,
      { code: "BINARY_FAILED", binary: binary.path },
    );
  }
  if (exit.status === 2) {
    // Bad input or options: ingest's own one-line message.
    const line =
      toolLine(stderr, "error:") || `shuffle-audit: error: ${stderr.trim() || "(no message)"}`;
    throw (
      tooOld(binary, stderr) ||
      new ShuffleAuditError(line, {
        code: "BAD_INPUT",
        binary: binary.path,
        status: 2,
        stderr,
      })
    );
  }
  const text = Buffer.concat(stdout).toString("utf8");
  let json = null;
  if (exit.status === 0 || exit.status === 1) {
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
  }
  if (json === null || !Array.isArray(json.results) || json.results.length === 0) {
    const how = exit.signal ? `was stopped by ${exit.signal}` : `exited with status ${exit.status}`;
    const last = stderr.trim().split("\n").pop() || "nothing on standard error";
    throw new ShuffleAuditError(
      `shuffle-audit: ${binary.path} (found via ${binary.from}) ${how} without a JSON result: ${last}`,
      { code: "BINARY_FAILED", binary: binary.path, status: exit.status, stderr },
    );
  }
  return { status: exit.status, json, stderr };
}

const dealsNeededCache = new Map();

/**
 * `shuffle-audit ingest --deals-needed N [--alpha A]`: the deals a deck of n cards needs for
 * ingest's test to catch a total variation of 0.05 with 99 % power (the figure `check` and
 * `--powered` use).
 */
function dealsNeeded(binary, n, alpha) {
  const args = ["ingest", "--deals-needed", String(n)];
  if (alpha !== undefined) args.push("--alpha", String(alpha));
  const key = [binary.path, ...args].join("\0");
  if (!dealsNeededCache.has(key)) {
    const answer = new Promise((resolve, reject) => {
      execFile(
        binary.path,
        args,
        { timeout: 60_000, windowsHide: true },
        (error, stdout, stderr) => {
          const figure = String(stdout).trim();
          if (!error && /^[1-9][0-9]*$/.test(figure)) return resolve(Number(figure));
          const old = tooOld(binary, String(stderr), ", or pass `trials`");
          if (old) return reject(old);
          const why = (
            toolLine(String(stderr), "error:") ||
            String(stderr).trim() ||
            error?.message ||
            figure
          ).replace(/^shuffle-audit: (error: )?/, "");
          reject(
            new ShuffleAuditError(
              `shuffle-audit: cannot tell how many deals ${n} cards need (\`shuffle-audit ${args.join(" ")}\`: ` +
                `${why || "no answer"}); pass \`trials\` to choose them`,
              {
                code: "BINARY_FAILED",
                binary: binary.path,
                status: error?.code,
                stderr: String(stderr),
              },
            ),
          );
        },
      );
    });
    dealsNeededCache.set(key, answer);
    // A failure is not remembered: the binary may be replaced before the next call.
    answer.catch(() => dealsNeededCache.delete(key));
  }
  return dealsNeededCache.get(key);
}

// ---------------------------------------------------------------------------------------
// Reading the JSON

/** A p-value as the tool prints it: `0.412`, `3.1e-7`, or `< 1e-300`. */
function formatP(p, log10) {
  const l = typeof log10 === "number" ? log10 : Math.log10(p);
  if (l < -300) return "< 1e-300";
  const value = 10 ** l;
  return value >= 0.001 ? value.toFixed(3) : value.toExponential(1);
}

const grouped = (count) => count.toLocaleString("en-US");

/** The test with the smallest adjusted p-value among those that ran, or null. */
function smallestTest(tests) {
  let best = null;
  let bestLog = Infinity;
  for (const test of tests) {
    if (typeof test.p_adjusted !== "number") continue;
    const l =
      typeof test.log10_p_adjusted === "number"
        ? test.log10_p_adjusted
        : Math.log10(test.p_adjusted);
    if (best === null || l < bestLog) {
      best = test;
      bestLog = l;
    }
  }
  return best;
}

/**
 * The result object of one run of ingest (see AuditResult in index.d.ts). `label` names
 * what was tested in the headline: the shuffle's function name, or `deals`.
 */
function readResult({ status, json, stderr }, label) {
  const result = json.results[0];
  const tests = Array.isArray(result.tests) ? result.tests : [];
  let verdict = VERDICTS.includes(result.verdict) ? result.verdict : "inconclusive";
  // Exit status 1 on a pass: a rule outside the tests (--powered's too few deals) did not
  // let it stand. The binary's own line on standard error says which.
  const last = toolLine(stderr);
  if (status === 1 && verdict === "pass") verdict = "inconclusive";
  const smallest = smallestTest(tests);
  const against = /tested against (.*)$/.exec(result.description || "")?.[1] || "a fair shuffle";
  const headline = `${label}: ${verdict.toUpperCase()} (tested against: ${against})`;

  let reason = null;
  if ((verdict === "fail" || verdict === "suspicious") && smallest !== null) {
    // The binary's own `caught by` line when it printed one (a fail); for a suspicious
    // verdict, whose line names only the p-value, the test and what it checks, from the
    // JSON (the binary's words for a bias are not copied here, to stay the binary's).
    const own = last && /^shuffle-audit: fail: (caught by .*)$/.exec(last);
    const p = formatP(smallest.p_adjusted, smallest.log10_p_adjusted);
    reason = own
      ? own[1]
      : `caught by ${smallest.name} (adjusted p ${p.startsWith("<") ? p : `= ${p}`}): ` +
        `the test of "${smallest.description}" rejects`;
  } else if (verdict !== "pass") {
    // The headline says the verdict; the reason is the rest of the binary's line.
    reason = last
      ? last.replace(/^shuffle-audit: (inconclusive: |suspicious: |fail: )?/, "")
      : "too few samples for every test to run";
  }

  // The predictability record: whether the first deals give their generator away.
  const predictability = json.input?.predictability ?? null;
  const predictable = predictability?.found?.sentence ?? null;
  // --unpredictable turned a pass into exit 1: the verdict of the tests stays a pass.
  if (status === 1 && result.verdict === "pass" && predictable && last?.endsWith("(--unpredictable)")) {
    verdict = "pass";
  }
  const trials = result.trials ?? result.length ?? json.trials ?? null;
  const totalVariation = typeof result.total_variation === "number" ? result.total_variation : null;
  const lines = [headline];
  if (reason) lines.push(`  ${reason}`);
  if (predictable) lines.push(`  ${predictable}`);
  else if (predictability?.headline) lines.push(`  ${predictability.headline}`);
  if (smallest && verdict === "pass") {
    lines.push(
      `  smallest adjusted p-value ${formatP(smallest.p_adjusted, smallest.log10_p_adjusted)} (${smallest.name})`,
    );
  }
  if (totalVariation !== null) {
    const floor = result.total_variation_noise_floor;
    lines.push(
      `  total variation from uniform: ${totalVariation.toFixed(4)}` +
        (typeof floor === "number" ? ` (noise alone would give about ${floor.toFixed(4)})` : ""),
    );
  }
  return {
    verdict,
    passed: verdict === "pass",
    pValue: smallest ? smallest.p_adjusted : null,
    smallestTest: smallest ? smallest.name : null,
    tests,
    totalVariation,
    trials,
    headline,
    reason,
    notes: [...(Array.isArray(json.notes) ? json.notes : []), ...(predictable ? [predictable] : [])],
    predictable,
    predictability,
    text: lines.join("\n"),
    json,
  };
}

// ---------------------------------------------------------------------------------------
// Options

function checkOptions(where, options, known) {
  if (options === undefined || options === null) return {};
  if (typeof options !== "object" || Array.isArray(options)) {
    throw new TypeError(`${where}: options must be an object, got ${util.inspect(options)}`);
  }
  for (const key of Object.keys(options)) {
    // A misspelt option (`trails`) silently ignored would run a different test than meant.
    if (!known.includes(key)) {
      throw new TypeError(`${where}: unknown option '${key}' (known: ${known.join(", ")})`);
    }
  }
  return options;
}

function checkInteger(where, name, value, least, most, why = "") {
  if (typeof value !== "number" || !Number.isInteger(value)) {
    throw new TypeError(`${where}: ${name} must be an integer, got ${util.inspect(value)}`);
  }
  if (value < least || value > most) {
    throw new RangeError(
      `${where}: ${name} must be from ${grouped(least)} to ${grouped(most)}${why}, got ${grouped(value)}`,
    );
  }
  return value;
}

function checkAlpha(where, alpha) {
  if (alpha === undefined) return undefined;
  if (typeof alpha !== "number" || Number.isNaN(alpha)) {
    throw new TypeError(`${where}: alpha must be a number, got ${util.inspect(alpha)}`);
  }
  if (!(alpha > 0 && alpha < 1)) {
    throw new RangeError(
      `${where}: alpha must be a probability between 0 and 1 (exclusive), got ${alpha}`,
    );
  }
  return alpha;
}

// ---------------------------------------------------------------------------------------
// Dealing: the user's shuffle, called in slices under a vm time limit

// One context for every audit: a slice runs to its end synchronously, so audits running
// at once (concurrent tests) never share it at the same moment.
let dealingContext = null;
let dealingScript = null;
let currentSlice = null;

/**
 * Runs `slice()` (a function of this realm that calls the user's shuffle) with V8 stopping
 * it after `timeout` ms: `runInContext`'s timeout terminates whatever JavaScript runs
 * then, the user's `while (true) {}` included, and throws ERR_SCRIPT_EXECUTION_TIMEOUT
 * here; node goes on. `timeout` null runs it with no limit.
 */
function runLimited(slice, timeout) {
  if (timeout === null) return slice();
  if (dealingContext === null) {
    dealingContext = vm.createContext({ slice: () => currentSlice() });
    dealingScript = new vm.Script("slice()", { filename: "shuffle-audit-dealing" });
  }
  currentSlice = slice;
  try {
    return dealingScript.runInContext(dealingContext, { timeout });
  } finally {
    currentSlice = null;
  }
}

const show = (cards) =>
  util.inspect(cards, { maxArrayLength: 40, breakLength: Infinity, maxStringLength: 40 });

/**
 * Deals `trials` decks of n cards with `shuffle`, validating each, and feeds them to
 * `write` in chunks: the deals are never all in memory. Returns how the shuffle hands
 * back its deal (`in place`, or `returned`) and in which words.
 */
async function dealAll(shuffle, { n, trials, timeLimit }, write) {
  const template = Array.from({ length: n }, (_, card) => card);
  const seen = new Float64Array(n); // seen[card] === deal number: already in this deal
  const state = { deal: 0, deck: null, detected: null, how: null };
  const fault = (code, text, cards, cause) =>
    new ShuffleError(`shuffle-audit: deal ${grouped(state.deal)} of ${grouped(trials)}: ${text}`, {
      code,
      deal: state.deal,
      trials,
      cards: cards === undefined ? undefined : Array.from(cards),
      cause,
    });

  // Deals until `remaining` are dealt, CHUNK_BYTES of text are ready, or sliceMs have
  // passed: a call starts at most sliceMs into its slice, so under a slice limit of
  // timeLimit + sliceMs every call has at least timeLimit ms to itself, and at most a tenth
  // more.
  const sliceMs = Math.min(SLICE_MS, timeLimit / 10);
  const slice = (remaining) => {
    const started = performance.now();
    let text = "";
    for (let dealt = 0; dealt < remaining;) {
      state.deal += 1;
      const deck = template.slice();
      state.deck = deck;
      let returned;
      try {
        returned = shuffle(deck);
      } catch (error) {
        throw fault(
          "THREW",
          `the shuffle threw ${error instanceof Error ? `${error.name}: ${error.message}` : show(error)} ` +
            `(this error's cause); the array held ${show(deck)}`,
          deck,
          error,
        );
      }
      let cards;
      let how;
      if (returned === undefined) {
        cards = deck;
        how = "in place (detected: the shuffle returned undefined)";
      } else if (returned === deck) {
        cards = deck;
        how = "in place (detected: the shuffle returned the array it was given)";
      } else if (returned !== null && typeof returned.then === "function") {
        throw fault(
          "PROMISE",
          "the shuffle returned a Promise: pass a synchronous function (one that shuffles the array it is given, or returns a shuffled array)",
        );
      } else if (
        Array.isArray(returned) ||
        (ArrayBuffer.isView(returned) && !(returned instanceof DataView))
      ) {
        cards = returned;
        how = "into a new array (detected: the shuffle returned one)";
      } else {
        throw fault(
          "NOT_AN_ARRAY",
          `the shuffle returned ${show(returned)}: it must shuffle the array it is given (and return ` +
            "nothing, or that array), or return a new shuffled array",
        );
      }
      if (state.detected === null) {
        state.detected = how.startsWith("in place") ? "in place" : "returned";
        state.how = how;
      }
      if (cards.length !== n) {
        throw fault(
          "WRONG_LENGTH",
          `the shuffle ${cards === deck ? "left" : "returned"} ${grouped(cards.length)} cards, not ${grouped(n)}: ${show(cards)}`,
          cards,
        );
      }
      for (let i = 0; i < n; i++) {
        const card = cards[i];
        if (typeof card !== "number" || !Number.isInteger(card) || card < 0 || card >= n) {
          throw fault(
            "NOT_A_CARD",
            `${show(card)} at index ${i} is not one of the deck's cards (the integers 0 to ${n - 1}): ${show(cards)}`,
            cards,
          );
        }
        if (seen[card] === state.deal) {
          throw fault(
            "REPEATED_CARD",
            `card ${card} appears twice (every deal holds each of 0 to ${n - 1} once): ${show(cards)}`,
            cards,
          );
        }
        seen[card] = state.deal;
      }
      text += cards.join(" ") + "\n";
      dealt += 1;
      if (text.length >= CHUNK_BYTES || performance.now() - started >= sliceMs) break;
    }
    return text;
  };

  // The vm timeout takes a 32-bit count of ms: a longer limit is no limit.
  const timeout = timeLimit + sliceMs > 0xffffffff ? null : Math.ceil(timeLimit + sliceMs);
  let dealt = 0;
  while (dealt < trials) {
    // Let timers and I/O run before each slice (a test runner's own timeout, say), and the
    // caller have its promise before the shuffle is first called.
    await new Promise((resolve) => setImmediate(resolve));
    const before = state.deal;
    let text;
    try {
      text = runLimited(() => slice(trials - dealt), timeout);
    } catch (error) {
      if (error && error.code === "ERR_SCRIPT_EXECUTION_TIMEOUT") {
        const seconds = timeLimit / 1000;
        throw fault(
          "TIMEOUT",
          `the shuffle did not return within the time limit of ${seconds} s (timeLimit: ${grouped(timeLimit)} ms, ` +
            `for each call) and was stopped; the array held ${show(state.deck)} then`,
          state.deck,
        );
      }
      throw error;
    }
    dealt += state.deal - before;
    if (!(await write(text))) return state; // the binary stopped reading: its status says why
  }
  return state;
}

// ---------------------------------------------------------------------------------------
// The two exports

const ASSERT_OPTIONS = ["n", "trials", "alpha", "timeLimit", "unpredictable", "seedSearch"];

/**
 * The ingest options of the predictability check: `unpredictable` (a boolean) and
 * `seedSearch` (a runtime's name such as "python" or "php:0..100000", or an array of
 * them), as `--unpredictable` and `--seed-search` take them.
 */
function predictabilityArgs(where, given) {
  const args = [];
  if (given.unpredictable !== undefined && typeof given.unpredictable !== "boolean") {
    throw new TypeError(
      `${where}: unpredictable must be true or false, got ${util.inspect(given.unpredictable)}`,
    );
  }
  if (given.unpredictable) args.push("--unpredictable");
  if (given.seedSearch !== undefined) {
    const names = typeof given.seedSearch === "string" ? [given.seedSearch] : given.seedSearch;
    if (!Array.isArray(names) || names.some((name) => typeof name !== "string")) {
      throw new TypeError(
        `${where}: seedSearch must be a runtime's name such as "python" or "php:0..100000", or an array of them, ` +
          `got ${util.inspect(given.seedSearch)}`,
      );
    }
    for (const name of names) args.push("--seed-search", name);
  }
  return args;
}

/**
 * Calls `shuffle` `trials` times on a fresh [0, 1, ..., n-1], streams the deals to
 * `shuffle-audit ingest --powered`, and resolves with the result when the verdict is
 * `pass`; rejects with an AssertionError otherwise. See index.d.ts.
 */
async function assertFairShuffle(shuffle, options) {
  const where = "assertFairShuffle";
  if (typeof shuffle !== "function") {
    throw new TypeError(`${where}: shuffle must be a function, got ${util.inspect(shuffle)}`);
  }
  if (util.types.isAsyncFunction(shuffle)) {
    throw new TypeError(
      `${where}: shuffle is an async function: pass a synchronous function (one that shuffles the array it is given, or returns a shuffled array)`,
    );
  }
  const given = checkOptions(where, options, ASSERT_OPTIONS);
  // Five cards by default: every one of the 5! = 120 orders is tallied, so the
  // permutations test sees any bias at all in the orders, and the deals needed to catch a
  // total variation of 0.05 stay in the tens of thousands (under a second of dealing).
  // The classic bugs (the naive swap, an off-by-one bound, sort with a random comparator)
  // are biased on every deck size, so a small deck catches them; test your own deck size
  // too when your code takes a different path for it.
  const n = checkInteger(
    where,
    "n",
    given.n ?? DEFAULT_N,
    2,
    MAX_CARDS,
    " (the most cards ingest takes)",
  );
  const alpha = checkAlpha(where, given.alpha);
  const timeLimit = given.timeLimit ?? DEFAULT_TIME_LIMIT;
  if (typeof timeLimit !== "number" || Number.isNaN(timeLimit)) {
    throw new TypeError(
      `${where}: timeLimit must be a number of milliseconds, got ${util.inspect(timeLimit)}`,
    );
  }
  if (!(timeLimit > 0)) {
    throw new RangeError(
      `${where}: timeLimit must be more than 0 ms (Infinity for none), got ${timeLimit}`,
    );
  }
  if (given.trials !== undefined) {
    checkInteger(
      where,
      "trials",
      given.trials,
      1,
      Math.floor(Number.MAX_SAFE_INTEGER / CONFIRMATION_FACTOR),
    );
  }

  const binary = findBinary();
  const trialsFrom = given.trials === undefined ? "--deals-needed" : "option";
  const trials = given.trials ?? (await dealsNeeded(binary, n, alpha));
  const label = shuffle.name || "shuffle";
  const args = ["--deck", template(n), "--powered", ...predictabilityArgs(where, given)];
  if (alpha !== undefined) args.push("--alpha", String(alpha));

  let how = null;
  const run = async (count) => {
    let state;
    const answer = await runIngest(binary, args, async (write) => {
      state = await dealAll(shuffle, { n, trials: count, timeLimit }, write);
    });
    how = state.how;
    return { ...readResult(answer, label), detected: state.detected };
  };
  const first = await run(trials);
  // A fair shuffle is suspicious once in about a thousand runs: as `check` rules, such a
  // run is dealt again with four times the deals, and the second verdict counts.
  const counting = first.verdict === "suspicious" ? await run(trials * CONFIRMATION_FACTOR) : first;
  const confirmed = counting !== first;

  const about = [
    `  ${grouped(counting.trials ?? trials)} deals of ${n} cards, each from a fresh [${
      n <= 6 ? template(n).split(" ").join(", ") : `0, 1, ..., ${n - 1}`
    }], shuffled ${how}`,
  ];
  if (trialsFrom === "--deals-needed") {
    about.push(
      `  ${grouped(trials)} deals: what \`shuffle-audit ingest --deals-needed ${n}\` says the test needs to catch ` +
        "a total variation of 0.05 with 99 % power",
    );
  }
  if (confirmed) {
    about.push(
      `  the first ${grouped(trials)} deals were suspicious (smallest adjusted p-value ` +
        `${formatP(first.pValue)}, ${first.smallestTest}), so ${grouped(trials * CONFIRMATION_FACTOR)} ` +
        "more were dealt, as `shuffle-audit check` does; this verdict is theirs",
    );
  }
  if (counting.verdict === "inconclusive" && trialsFrom === "option") {
    about.push(
      "  deal more: leave `trials` out to deal what `shuffle-audit ingest --deals-needed` says",
    );
  }
  const text = [counting.text, ...about].join("\n");
  const result = {
    ...counting,
    text,
    n,
    trials: counting.trials ?? (confirmed ? trials * CONFIRMATION_FACTOR : trials),
    trialsFrom,
    firstRun: confirmed ? first : null,
  };
  const predictableFails = result.verdict === "pass" && result.predictable && given.unpredictable;
  if (result.verdict === "pass" && !predictableFails) {
    if (result.predictable) {
      process.emitWarning(`${label}: passes, but ${result.predictable}`, { type: "PredictableWarning" });
    }
    return result;
  }

  const call = `assertFairShuffle(${shuffle.name || "shuffle"}, { n: ${n}, trials: ${trials}${
    alpha !== undefined ? `, alpha: ${alpha}` : ""
  }${given.unpredictable ? ", unpredictable: true" : ""}${
    given.seedSearch !== undefined ? `, seedSearch: ${util.inspect(given.seedSearch)}` : ""
  } })`;
  const message = [
    predictableFails ? `${label}: predictable (unpredictable: true)\n${text}` : text,
    `reproduce: ${call} (the shuffle's own randomness deals new cards on each run)`,
  ].join("\n");
  const error = new assert.AssertionError({
    message,
    actual: predictableFails ? "predictable" : result.verdict,
    expected: "pass",
    operator: "assertFairShuffle",
  });
  error.result = result;
  throw error;
}

/** `0 1 2 ... n-1`, the deck as --deck takes it. */
function template(n) {
  return Array.from({ length: n }, (_, card) => card).join(" ");
}

const AUDIT_OPTIONS = ["deck", "kind", "alpha", "ordered", "powered", "unpredictable", "seedSearch"];

/** A card as ingest reads it, or an error saying why it cannot be one. */
function token(card) {
  if (typeof card === "number" && Number.isFinite(card)) return String(card);
  if (typeof card !== "string") return { problem: `${show(card)} is not a string or a number` };
  if (card === "") return { problem: "a card is the empty string" };
  // White space and commas separate cards; a line starting with #, [ or ( is a comment or
  // a list. Such a card would be read as something else than it is.
  if (/[\s,]/.test(card))
    return { problem: `card ${show(card)} holds white space or a comma, which separate cards` };
  if (/^[#[(]/.test(card))
    return {
      problem: `card ${show(card)} starts with ${card[0]}, which ingest reads as a comment or a list`,
    };
  return card;
}

function line(where, cards, number) {
  const what = number === null ? "deck" : `deal ${grouped(number)}`;
  if (!Array.isArray(cards) && !(ArrayBuffer.isView(cards) && !(cards instanceof DataView))) {
    throw new TypeError(`${where}: ${what} is ${show(cards)}, not an array of cards`);
  }
  if (cards.length === 0) throw new TypeError(`${where}: ${what} is empty`);
  const tokens = new Array(cards.length);
  for (let i = 0; i < cards.length; i++) {
    const t = token(cards[i]);
    if (typeof t !== "string")
      throw new TypeError(`${where}: ${what}: ${t.problem}: ${show(cards)}`);
    tokens[i] = t;
  }
  return tokens.join(" ");
}

/**
 * Tests deals already in hand (an array, iterable or async iterable of arrays of cards):
 * streams them to `shuffle-audit ingest` and resolves with the result, whatever the
 * verdict. See index.d.ts.
 */
async function audit(deals, options) {
  const where = "audit";
  const given = checkOptions(where, options, AUDIT_OPTIONS);
  if (deals === null || deals === undefined || typeof deals === "string") {
    throw new TypeError(
      `${where}: deals must be an array, iterable or async iterable of arrays, got ${show(deals)}`,
    );
  }
  const asyncIterable = typeof deals[Symbol.asyncIterator] === "function";
  if (!asyncIterable && typeof deals[Symbol.iterator] !== "function") {
    throw new TypeError(
      `${where}: deals must be an array, iterable or async iterable of arrays, got ${show(deals)}`,
    );
  }
  const kind = given.kind ?? "permutations";
  if (!KINDS.includes(kind)) {
    throw new RangeError(
      `${where}: kind must be one of ${KINDS.join(", ")}, got ${util.inspect(kind)}`,
    );
  }
  const alpha = checkAlpha(where, given.alpha);
  for (const flag of ["ordered", "powered"]) {
    if (given[flag] !== undefined && typeof given[flag] !== "boolean") {
      throw new TypeError(
        `${where}: ${flag} must be true or false, got ${util.inspect(given[flag])}`,
      );
    }
  }
  const args = ["--kind", kind];
  if (given.deck !== undefined) {
    if (Array.isArray(given.deck) && given.deck.length > MAX_CARDS) {
      throw new RangeError(
        `${where}: deck has ${grouped(given.deck.length)} cards; ingest takes at most ${grouped(MAX_CARDS)}`,
      );
    }
    args.push("--deck", line(where, given.deck, null));
  }
  if (alpha !== undefined) args.push("--alpha", String(alpha));
  if (given.ordered) args.push("--ordered");
  if (given.powered) args.push("--powered");
  args.push(...predictabilityArgs(where, given));

  const binary = findBinary();
  const answer = await runIngest(binary, args, async (write) => {
    let text = "";
    let number = 0;
    const flush = async () => {
      const open = await write(text);
      text = "";
      return open;
    };
    if (asyncIterable) {
      for await (const cards of deals) {
        text += line(where, cards, ++number) + "\n";
        if (text.length >= CHUNK_BYTES && !(await flush())) return;
      }
    } else {
      for (const cards of deals) {
        text += line(where, cards, ++number) + "\n";
        if (text.length >= CHUNK_BYTES && !(await flush())) return;
      }
    }
    if (text) await flush();
  });
  return readResult(answer, "deals");
}

module.exports = {
  assertFairShuffle,
  audit,
  findBinary,
  ShuffleError,
  ShuffleAuditError,
  version,
};
