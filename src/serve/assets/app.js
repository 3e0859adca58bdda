// The live page: a catalogue run watched through server-sent events, your own shuffle
// run in a Web Worker, a file of deals, and one shuffle stepped through.
//
// Each tab has a result of its own (badge, status line, charts, tests, message), kept in
// `results` and drawn when its tab is shown: a run going on in one tab never shows in
// another, and an error clears the result it replaces.
"use strict";
const $ = (id) => document.getElementById(id);

const PRESETS = {
  naive: `function shuffle(array) {
  // the naive swap: every card swaps with any card, n^n paths for n! orders
  for (let i = 0; i < array.length; i++) {
    const j = Math.floor(Math.random() * array.length);
    [array[i], array[j]] = [array[j], array[i]];
  }
  return array;
}`,
  sort: `function shuffle(array) {
  // a comparator that answers at random is not a shuffle
  return array.sort(() => Math.random() - 0.5);
}`,
  "fisher-yates": `function shuffle(array) {
  // Fisher–Yates (Durstenfeld): card i swaps with one of cards 0..i
  for (let i = array.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [array[i], array[j]] = [array[j], array[i]];
  }
  return array;
}`,
  "off-by-one": `function shuffle(array) {
  // Fisher–Yates with an off-by-one: j never equals i (Sattolo's cycles, by accident)
  for (let i = array.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * i);
    [array[i], array[j]] = [array[j], array[i]];
  }
  return array;
}`,
};

// What each tab's result says before it has one.
const FIRST_STATUS = {
  catalogue: "Pick an algorithm and press Start.",
  own: "Write a shuffle (or pick a preset) and press Start.",
  file: "Paste deals or drop a file, and press Test.",
  step: "Press Next swap to deal one shuffle, swap by swap.",
};

function emptyResult(tab) {
  return { verdict: null, status: FIRST_STATUS[tab], needed: "", view: null, exact: null, message: "" };
}

const results = {};
for (const tab of Object.keys(FIRST_STATUS)) results[tab] = emptyResult(tab);
let shownTab = "catalogue";
// What the charts were last drawn from, so that an update that only moves the count
// does not draw them again.
let drawn = {};

let current = { run: null, worker: null, own: null };

// Changes `tab`'s result (`fresh`: starting from an empty one) and draws it if shown.
function show(tab, change, fresh) {
  if (fresh) results[tab] = emptyResult(tab);
  Object.assign(results[tab], change);
  if (tab === shownTab) draw();
}

function say(tab, message) { show(tab, { message: message || "" }); }

function draw() {
  const result = results[shownTab];
  const badge = $("badge");
  badge.className = "badge " + (result.verdict || "none");
  badge.textContent = result.verdict ? result.verdict.toUpperCase() : "—";
  $("status").textContent = result.status;
  $("needed").textContent = result.needed;
  // Deals that give away their generator: the finding beside the verdict (file tab).
  const predictable = (result.view && result.view.predictable) || "";
  $("predictable").textContent = predictable;
  $("predictable").hidden = !predictable;
  $("message").textContent = result.message;
  $("exact-toggle").hidden = !(result.exact && result.exact.svg);
  const key = { tab: shownTab, view: result.view, exact: result.exact, withExact: $("show-exact").checked };
  if (Object.keys(key).some((name) => key[name] !== drawn[name])) {
    drawn = key;
    drawCharts(result);
    drawTests(result.view);
  }
}

function drawCharts(result) {
  const charts = $("charts");
  charts.replaceChildren();
  for (const chart of (result.view && result.view.charts) || []) {
    const figure = document.createElement("figure");
    figure.dataset.chart = chart.name;
    figure.title = chart.caption;
    figure.innerHTML = chart.svg;
    charts.append(figure);
  }
  // The exact law's chart (a shuffle's positions, a sampler's selections, a bag's first
  // cycle, a stream's single draw) goes beside the live chart it explains.
  const exact = result.exact;
  if (result.view && exact && exact.svg && $("show-exact").checked) {
    const figure = document.createElement("figure");
    figure.dataset.chart = "exact";
    figure.innerHTML = exact.svg;
    const beside = charts.querySelector('[data-chart^="' + exact.beside + '"]');
    if (beside) beside.after(figure); else charts.append(figure);
  }
}

// Each cell's words are kept whole (`< 1e-300`, `rising-sequences`, `15,446`): a line
// breaks only between them, and never inside a p-value.
function drawTests(view) {
  const table = $("tests");
  const body = table.tBodies[0];
  body.replaceChildren();
  const tests = (view && view.tests) || [];
  table.hidden = tests.length === 0;
  for (const test of tests) {
    const row = body.insertRow();
    if (test.rejects) row.className = "rejects";
    // A p-value not read from the χ² law says how it was computed (exact, simulated, bound).
    const p = test.method ? test.p + " " + test.method : test.p;
    [test.name, test.statistic, test.df, p, test.adjusted].forEach((text, column) => {
      const cell = row.insertCell();
      if (column >= 2) { cell.className = "number"; cell.textContent = text; return; }
      for (const part of String(text ?? "").split(/( +)/)) {
        if (!part) continue;
        if (part.trim() === "") { cell.append(part); continue; }
        const word = document.createElement("span");
        word.className = "whole";
        word.textContent = part;
        cell.append(word);
      }
    });
    row.title = test.description;
  }
}

async function errorOf(response) {
  try {
    const body = await response.json();
    if (body && body.error) return body.error;
  } catch (_) { /* not JSON */ }
  return "the server answered " + response.status;
}

// "Samples needed", from the exact law: in the run's own unit for shuffles (deals) and
// samplers (samples); for a bag, in cycles of the bag, whose orders the exact law is of
// (the run's stream tests look at draws otherwise, so no countdown is given).
// Then what the exact view covers, or why there is none (the server's note, as it is).
function neededLine(exact, dealt) {
  if (!exact) return "";
  return [countdownLine(exact, dealt), exact.note].filter(Boolean).join(" ");
}

function countdownLine(exact, dealt) {
  if (!exact.svg || exact.unit === "draws") return "";
  const what = { deals: "orders", samples: "selections", cycles: "orders of one cycle of the bag" }[exact.unit];
  if (exact.uniform) return "Exactly uniform (all " + what + " equally likely): there is no bias to catch.";
  if (exact.trials_needed == null) return "";
  const power = Math.round(exact.power * 100) + " % power";
  if (exact.unit === "cycles") {
    return "Samples needed: a test of the " + what + " catches this flaw after about " +
      exact.trials_needed.toLocaleString() + " cycles (" + (exact.trials_needed * exact.draws_per_unit).toLocaleString() +
      " draws) with " + power + "; the tests below look at the draws in other ways.";
  }
  const left = exact.trials_needed - dealt;
  return "Samples needed: about " + exact.trials_needed.toLocaleString() + " " + exact.unit + " catch this flaw with " +
    power + (left > 0 ? " (" + left.toLocaleString() + " to go)." : ": enough dealt.");
}

// ---- the catalogue run ----

async function loadCatalogue() {
  const response = await fetch("/api/catalogue");
  const catalogue = await response.json();
  // Every name of `list`: shuffles and samplers run as `run` runs them, generators as `stream`.
  const groups = [["shuffles", "shuffle", "shuffles"], ["samplers", "sampler", "samplers (k of n items)"],
    ["generators", "generator", "stream generators (shuffle bags and friends)"]];
  for (const [key, kind, label] of groups) {
    const group = document.createElement("optgroup");
    group.label = label;
    for (const entry of catalogue[key] || []) {
      const option = new Option(entry.name + " — " + entry.summary, entry.name);
      option.dataset.summary = entry.summary + " (" + "known to be: " + entry.expected + ")" +
        (entry.parameter ? " · takes a parameter: " + entry.name + ":" + entry.parameter : "");
      option.dataset.kind = kind;
      group.append(option);
    }
    $("algorithm").add(group);
  }
  for (const source of catalogue.sources) $("source").add(new Option(source.name, source.name));
  $("algorithm").value = "naive-swap";
  showSummary();
  current.maxBody = catalogue.max_body;
  current.tooLarge = catalogue.too_large;
}

function selectedKind() {
  const option = $("algorithm").selectedOptions[0];
  return option ? option.dataset.kind : "shuffle";
}

// What a run counts, by kind.
const NOUNS = { shuffle: "deals", sampler: "samples", generator: "draws" };

function showSummary() {
  const option = $("algorithm").selectedOptions[0];
  $("algorithm-summary").textContent = option ? option.dataset.summary : "";
  const kind = selectedKind();
  for (const label of document.querySelectorAll(".for-run")) label.hidden = kind === "generator";
  for (const label of document.querySelectorAll(".for-sampler")) label.hidden = kind !== "sampler";
  for (const label of document.querySelectorAll(".for-stream")) label.hidden = kind !== "generator";
  $("n-label").textContent = kind === "sampler" ? "Items (n)" : "Cards (n)";
  $("trials-label").textContent = kind === "sampler" ? "Samples" : "Trials";
  showSpeed();
}

// The speed slider's stops: deals (samples, draws) a second, then full speed.
const SPEEDS = [10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 100000, "full"];

function speedValue() { return String(SPEEDS[Number($("speed").value)] ?? "full"); }

function showSpeed() {
  const speed = speedValue();
  $("speed-shown").value = speed === "full" ? "full speed"
    : Number(speed).toLocaleString() + " " + (NOUNS[selectedKind()] || "deals") + "/s";
}

// The slider moved: the run under way follows it (the server changes its pace within a
// tenth of a second; the tallies stay those of `run` at every count).
async function changeSpeed() {
  showSpeed();
  const run = current.run;
  if (!run || run.finished) return;
  try {
    const response = await fetch("/api/runs/" + run.id + "/speed", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ speed: speedValue() }),
    });
    if (!response.ok) say("catalogue", await errorOf(response));
  } catch (error) {
    say("catalogue", "the speed could not be sent: " + error.message);
  }
}

// Tries to reach a run's events again after the stream broke, before giving up.
const RECONNECTS = 3;
const RECONNECT_MS = 500;

async function startRun(event) {
  event.preventDefault();
  endRun(current.run);
  const kind = selectedKind();
  const request = {
    algorithm: $("algorithm").value, source: $("source").value, seed: $("seed").value, speed: speedValue(),
  };
  if (kind === "generator") {
    Object.assign(request, { items: $("items").value, length: $("length").value, streams: $("streams").value });
  } else {
    Object.assign(request, { n: $("n").value, trials: $("trials").value });
    if (kind === "sampler") request.k = $("k").value;
  }
  show("catalogue", { status: "Starting…" }, true);
  let response;
  try {
    response = await fetch("/api/runs", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(request),
    });
  } catch (error) {
    show("catalogue", { message: "the server could not be reached: " + error.message, status: "" }, true);
    return;
  }
  if (!response.ok) { show("catalogue", { message: await errorOf(response), status: "" }, true); return; }
  const started = await response.json();
  const run = { id: started.id, seed: started.seed, noun: NOUNS[kind] || "deals", failures: 0, finished: false,
    updates: 0, views: 0, dealt: 0, view: null };
  current.run = run;
  $("stop").disabled = false;
  $("start").disabled = true;
  const download = $("download");
  download.href = "/api/runs/" + run.id + "/json";
  download.classList.add("disabled");
  watch(run);
}

function watch(run) {
  const events = new EventSource("/api/runs/" + run.id + "/events");
  run.events = events;
  events.addEventListener("exact", (message) => {
    if (run !== current.run) return;
    run.failures = 0;
    const exact = JSON.parse(message.data);
    show("catalogue", { exact, needed: neededLine(exact, run.dealt) });
  });
  events.addEventListener("snapshot", (message) => {
    if (run !== current.run) return;
    run.failures = 0;
    let snapshot = null;
    try { snapshot = JSON.parse(message.data); } catch (_) { /* said below */ }
    if (!snapshot || typeof snapshot.phase !== "string" || typeof snapshot.deals !== "number") {
      lost(run, "the server sent an update the page cannot read");
      return;
    }
    update(run, snapshot);
    if (snapshot.phase !== "running") endRun(run);
  });
  // A broken stream (the server gone, a network error): tried again a few times, then
  // said in one line. Never left to the browser, which would try every 3 s for ever.
  events.onerror = () => {
    if (run.finished || run !== current.run) return;
    events.close();
    run.failures += 1;
    if (run.failures > RECONNECTS) {
      lost(run, "the connection to the server was lost (is it still running?)");
      return;
    }
    setTimeout(() => { if (!run.finished && run === current.run) watch(run); }, RECONNECT_MS);
  };
}

function update(run, snapshot) {
  run.updates += 1;
  const noun = run.noun;
  const rate = snapshot.rate > 0 ? " · " + Math.round(snapshot.rate).toLocaleString() + " " + noun + "/s" : "";
  // An update without a view moves the count; the charts stay those of the last view.
  if (snapshot.view) {
    run.view = snapshot.view;
    run.views += 1;
  }
  const shown = run.view ? run.view.deals : 0;
  const status = snapshot.deals.toLocaleString() + " of " + snapshot.trials.toLocaleString() + " " + noun +
    " · seed " + run.seed + rate + " · " + snapshot.phase +
    (snapshot.phase === "running" && shown < snapshot.deals ? " · charts and tests of the first " + shown.toLocaleString() : "");
  run.dealt = snapshot.deals;
  const change = { status, view: run.view, needed: neededLine(results.catalogue.exact, snapshot.deals) };
  if (snapshot.view) change.verdict = snapshot.view.verdict;
  if (snapshot.error) change.message = snapshot.error;
  if (snapshot.phase === "failed") change.message = snapshot.error || "the run failed";
  show("catalogue", change);
  const status_ = $("status");
  status_.dataset.updates = run.updates;
  status_.dataset.views = run.views;
  status_.dataset.deals = snapshot.deals;
  status_.dataset.viewDeals = shown;
  if (snapshot.deals > 0) $("download").classList.remove("disabled");
}

// The page can follow the run no more: says why, and what is shown.
function lost(run, why) {
  show("catalogue", run.updates
    ? { message: why + ": the run's last update is shown" }
    : { message: why, status: "No update of the run came." });
  endRun(run);
}

// The run is over for the page: its stream closed, Start back.
function endRun(run) {
  if (!run) return;
  run.finished = true;
  if (run.events) run.events.close();
  if (run === current.run) {
    $("stop").disabled = true;
    $("start").disabled = false;
  }
}

async function stopRun() {
  const run = current.run;
  if (!run || run.finished) return;
  try {
    await fetch("/api/runs/" + run.id + "/stop", { method: "POST" });
  } catch (error) {
    say("catalogue", "the run could not be stopped: " + error.message);
  }
}

// ---- deals sent to the server: your shuffle, a file ----

function ingestQuery(n, kind) {
  const params = new URLSearchParams();
  params.set("kind", kind || "permutations");
  if (n) params.set("deck", Array.from({ length: n }, (_, i) => i + 1).join(" "));
  return params.toString();
}

function resultLine(result, label) {
  return result.samples.toLocaleString() + " " + label + " · " + result.verdict +
    (result.verdict === "inconclusive" && result.samples_needed ? " (the tests need " + result.samples_needed.toLocaleString() + ")" : "");
}

async function testDeals(text, query) {
  // A new test replaces the last one's result, also when it fails.
  show("file", { status: "Testing…" }, true);
  const refuse = (message) => { show("file", { message, status: "" }, true); return null; };
  // The server refuses it too (413), but a browser may see only the closed connection.
  if (current.maxBody && new Blob([text]).size > current.maxBody) return refuse(current.tooLarge);
  let response;
  try {
    response = await fetch("/api/ingest?" + query, { method: "POST", body: text });
  } catch (error) {
    return refuse("the deals could not be sent: " + error.message);
  }
  if (!response.ok) return refuse(await errorOf(response));
  const result = await response.json();
  show("file", { view: result.view, verdict: result.view.verdict, status: resultLine(result, "deals read") });
  return result;
}

async function download(text, query) {
  const response = await fetch("/api/ingest/json?" + query, { method: "POST", body: text });
  if (!response.ok) { say("file", await errorOf(response)); return; }
  saveBlob(await response.blob());
}

// A deal must be done within this; the page checks it whatever the worker says.
const DEAL_LIMIT_MS = 1000;

async function startOwn(event) {
  event.preventDefault();
  stopWorker();
  const n = parseInt($("own-n").value, 10);
  const total = parseInt($("own-deals").value, 10);
  if (!(n >= 2 && n <= 10)) { show("own", { message: "cards: give a number from 2 to 10", status: "" }, true); return; }
  if (!(total >= 1)) { show("own", { message: "deals: give a number of at least 1", status: "" }, true); return; }
  show("own", { status: "Starting…" }, true);
  $("own-start").disabled = true;
  // A session on the server keeps the deals: each batch is sent once, and the server
  // reads all of them again as `ingest` would.
  let response;
  try {
    response = await fetch("/api/own?" + ingestQuery(n), { method: "POST" });
  } catch (error) {
    show("own", { message: "the server could not be reached: " + error.message, status: "" }, true);
    $("own-start").disabled = false;
    return;
  }
  if (!response.ok) {
    show("own", { message: await errorOf(response), status: "" }, true);
    $("own-start").disabled = false;
    return;
  }
  const session = await response.json();
  const own = { id: session.id, pending: [], sent: 0, dealt: 0, sending: false, failed: false };
  current.own = own;
  const worker = new Worker("/worker.js");
  current.worker = worker;
  $("own-stop").disabled = false;
  $("own-download").disabled = true;
  // The worker's own messages carry this token, which the user's function cannot read
  // (worker.js): any other message is ignored. The time limit is the page's, and only
  // the worker's deals re-arm it, so a function that never returns, or one that posts
  // messages of its own in a loop, is stopped all the same.
  const token = Array.from(crypto.getRandomValues(new Uint32Array(4)), (word) => word.toString(16)).join("-");
  // Checked by a timer, and by every message too: a worker that floods the page with
  // messages delays its timers, not its messages.
  const limit = DEAL_LIMIT_MS + 500;
  let deadline = 0;
  const expire = () => {
    if (current.worker !== worker) return;
    stopWorker();
    say("own", "your function did not finish a deal within " + DEAL_LIMIT_MS / 1000 + " s (an endless loop?): the worker was stopped");
    finishOwn();
  };
  const arm = () => {
    deadline = performance.now() + limit;
    clearTimeout(current.watchdog);
    current.watchdog = setTimeout(expire, limit);
  };
  arm();
  worker.onmessage = (message) => {
    if (current.worker !== worker) return;
    if (performance.now() > deadline) { expire(); return; }
    const data = message.data;
    if (!data || typeof data !== "object" || data.token !== token) return;
    if (data.type === "deals" && typeof data.text === "string") {
      const deals = data.text.split("\n").length - 1;
      if (deals <= 0) return;
      arm();
      own.pending.push(data.text);
      own.dealt += deals;
      sendOwn();
    } else if (data.type === "error" || data.type === "done") {
      stopWorker();
      if (data.type === "error") say("own", String(data.message));
      finishOwn();
    }
  };
  worker.onerror = (error) => {
    if (current.worker !== worker) return;
    stopWorker();
    say("own", "the worker failed: " + error.message);
    finishOwn();
  };
  worker.postMessage({ type: "start", token, code: $("code").value, n, deals: total, dealLimitMs: DEAL_LIMIT_MS });
}

// Ends the worker from the page (`terminate`): whatever it is doing, it does no more.
function stopWorker() {
  clearTimeout(current.watchdog);
  if (current.worker) {
    current.worker.onmessage = null;
    current.worker.terminate();
    current.worker = null;
  }
}

// Sends the deals made since the last batch (each deal once), at most one request at a
// time and five a second; the answer is what `ingest` says of every deal so far.
async function sendOwn() {
  const own = current.own;
  if (!own || own.sending || own.failed || !own.pending.length) return;
  own.sending = true;
  const batch = own.pending.join("");
  own.pending = [];
  let response;
  try {
    response = await fetch("/api/own/" + own.id + "/deals", { method: "POST", body: batch });
  } catch (error) {
    say("own", "the deals could not be sent: " + error.message);
    response = null;
  }
  if (own !== current.own) return;
  if (response && response.ok) {
    own.sent += batch.length;
    const result = await response.json();
    show("own", { view: result.view, verdict: result.view.verdict, status: resultLine(result, "deals from your function") });
    $("status").dataset.batches = (parseInt($("status").dataset.batches || "0", 10) + 1).toString();
    $("status").dataset.sentBytes = own.sent.toString();
  } else {
    if (response) say("own", await errorOf(response));
    own.failed = true;
    stopWorker();
    finishOwn();
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  own.sending = false;
  if (own.pending.length) sendOwn();
}

function finishOwn() {
  if (current.own && current.own.dealt === 0) show("own", { status: "No deal was made." });
  $("own-start").disabled = false;
  $("own-stop").disabled = true;
  $("own-download").disabled = !current.own;
  sendOwn();
}

function stopOwn() {
  if (!current.worker) return;
  stopWorker();
  finishOwn();
}

async function downloadOwn() {
  const own = current.own;
  if (!own) return;
  const response = await fetch("/api/own/" + own.id + "/json");
  if (!response.ok) { say("own", await errorOf(response)); return; }
  saveBlob(await response.blob());
}

function saveBlob(blob) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = "ingest.json";
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

// ---- step through one shuffle ----

const stepper = { deck: [], i: 0 };

function resetStep() {
  const n = Math.min(10, Math.max(2, parseInt($("step-n").value, 10) || 3));
  $("step-n").value = n;
  const naive = $("step-algorithm").value === "naive";
  stepper.deck = Array.from({ length: n }, (_, i) => i + 1);
  stepper.i = naive ? 0 : n - 1;
  $("step-log").replaceChildren();
  $("step-next").disabled = false;
  let factorial = 1;
  for (let k = 2; k <= n; k++) factorial *= k;
  const paths = naive ? Math.pow(n, n) : factorial;
  $("step-paths").textContent = naive
    ? "The naive swap draws " + n + " times from " + n + ": " + paths.toLocaleString() + " equally likely paths onto " +
      factorial.toLocaleString() + " orders" + (paths % factorial ? " — not a multiple, so some orders must come out more often." : ".")
    : "Fisher–Yates draws from " + n + ", " + (n - 1) + ", …, 2: " + paths.toLocaleString() + " paths, exactly one per order.";
  drawDeck(-1, -1);
}

function drawDeck(i, j) {
  const deck = $("deck");
  deck.replaceChildren();
  stepper.deck.forEach((card, position) => {
    const box = document.createElement("div");
    box.className = "card" + (position === i ? " i" : "") + (position === j ? " j" : "");
    box.textContent = card;
    deck.append(box);
  });
}

// One swap; after the last, the deal is said and the log stays until New shuffle.
function nextStep() {
  const naive = $("step-algorithm").value === "naive";
  const n = stepper.deck.length;
  if (naive ? stepper.i >= n : stepper.i <= 0) return;
  const i = stepper.i;
  const range = naive ? n : i + 1;
  const j = Math.floor(Math.random() * range);
  [stepper.deck[i], stepper.deck[j]] = [stepper.deck[j], stepper.deck[i]];
  const item = document.createElement("li");
  item.textContent = "position " + (i + 1) + " swaps with position " + (j + 1) + " (drawn from " +
    (naive ? "1.." + n : "1.." + (i + 1)) + "): " + stepper.deck.join(" ");
  $("step-log").append(item);
  stepper.i += naive ? 1 : -1;
  drawDeck(i, j);
  if (naive ? stepper.i >= n : stepper.i <= 0) {
    const done = document.createElement("li");
    done.className = "done";
    done.textContent = "done: this deal is " + stepper.deck.join(" ") + " (New shuffle deals another)";
    $("step-log").append(done);
    $("step-next").disabled = true;
  }
}

// ---- wiring ----

function showTab(name) {
  shownTab = name;
  for (const button of document.querySelectorAll("#tabs button")) button.classList.toggle("active", button.dataset.tab === name);
  for (const form of document.querySelectorAll(".tab")) form.classList.toggle("active", form.id === name);
  $("results").dataset.tab = name;
  draw();
}

window.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("#tabs button")) button.onclick = () => showTab(button.dataset.tab);
  $("algorithm").onchange = showSummary;
  $("catalogue").onsubmit = startRun;
  $("stop").onclick = stopRun;
  $("speed").oninput = changeSpeed;
  $("show-exact").onchange = draw;
  $("preset").onchange = () => { $("code").value = PRESETS[$("preset").value]; };
  $("code").value = PRESETS.naive;
  $("own").onsubmit = startOwn;
  $("own-stop").onclick = stopOwn;
  $("own-download").onclick = downloadOwn;
  $("file").onsubmit = async (event) => {
    event.preventDefault();
    const result = await testDeals($("deals").value, ingestQuery(0, $("kind").value));
    $("file-download").disabled = !result;
  };
  $("file-download").onclick = () => download($("deals").value, ingestQuery(0, $("kind").value));
  const tooLarge = (file) => {
    if (!(file && current.maxBody && file.size > current.maxBody)) return false;
    show("file", { message: current.tooLarge, status: "" }, true);
    $("file-download").disabled = true;
    return true;
  };
  $("deals-file").onchange = async () => {
    const file = $("deals-file").files[0];
    if (file && !tooLarge(file)) { $("deals").value = await file.text(); $("file").requestSubmit(); }
  };
  const area = $("deals");
  area.ondragover = (event) => { event.preventDefault(); area.classList.add("drop"); };
  area.ondragleave = () => area.classList.remove("drop");
  area.ondrop = async (event) => {
    event.preventDefault();
    area.classList.remove("drop");
    const file = event.dataTransfer.files[0];
    if (file && !tooLarge(file)) { area.value = await file.text(); $("file").requestSubmit(); }
  };
  $("step-next").onclick = nextStep;
  $("step-reset").onclick = resetStep;
  $("step-algorithm").onchange = resetStep;
  $("step-n").onchange = resetStep;
  resetStep();
  showSpeed();
  draw();
  loadCatalogue().catch((error) => say("catalogue", "the catalogue could not be loaded: " + error));
});
