// The live page: a catalogue run watched through server-sent events, your own shuffle
// run in a Web Worker, a file of deals, and one shuffle stepped through.
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

let current = { source: null, exact: null, events: null, runId: null };

function say(message) { $("message").textContent = message || ""; }

function setBadge(verdict) {
  const badge = $("badge");
  badge.className = "badge " + (verdict || "none");
  badge.textContent = verdict ? verdict.toUpperCase() : "—";
}

async function errorOf(response) {
  try {
    const body = await response.json();
    if (body && body.error) return body.error;
  } catch (_) { /* not JSON */ }
  return "the server answered " + response.status;
}

function showView(view, statusLine) {
  setBadge(view.verdict);
  $("status").textContent = statusLine;
  const charts = $("charts");
  charts.replaceChildren();
  for (const chart of view.charts || []) {
    const figure = document.createElement("figure");
    figure.dataset.chart = chart.name;
    figure.title = chart.caption;
    figure.innerHTML = chart.svg;
    charts.append(figure);
  }
  // The exact law's chart (a shuffle's positions, a sampler's selections, a bag's first
  // cycle, a stream's single draw) goes beside the live chart it explains.
  if (current.exact && current.exact.svg && $("show-exact").checked) {
    const figure = document.createElement("figure");
    figure.dataset.chart = "exact";
    figure.innerHTML = current.exact.svg;
    const beside = charts.querySelector('[data-chart^="' + current.exact.beside + '"]');
    if (beside) beside.after(figure); else charts.append(figure);
  }
  const body = $("tests").tBodies[0];
  body.replaceChildren();
  for (const test of view.tests || []) {
    const row = body.insertRow();
    if (test.rejects) row.className = "rejects";
    for (const text of [test.name, test.statistic, test.df, test.p, test.adjusted]) {
      row.insertCell().textContent = text;
    }
    row.title = test.description;
  }
}

// "Samples needed", from the exact law: in the run's own unit for shuffles (deals) and
// samplers (samples); for a bag, in cycles of the bag, whose orders the exact law is of
// (the run's stream tests look at draws otherwise, so no countdown is given).
// Then what the exact view covers, or why there is none (the server's note, as it is).
function neededLine(dealt) {
  const exact = current.exact;
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
}

async function startRun(event) {
  event.preventDefault();
  stopAll();
  say("");
  const kind = selectedKind();
  const request = { algorithm: $("algorithm").value, source: $("source").value, seed: $("seed").value };
  if (kind === "generator") {
    Object.assign(request, { items: $("items").value, length: $("length").value, streams: $("streams").value });
  } else {
    Object.assign(request, { n: $("n").value, trials: $("trials").value });
    if (kind === "sampler") request.k = $("k").value;
  }
  const noun = NOUNS[kind] || "deals";
  const response = await fetch("/api/runs", {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(request),
  });
  if (!response.ok) { say(await errorOf(response)); return; }
  const run = await response.json();
  current.runId = run.id;
  current.exact = null;
  current.view = null;
  $("exact-toggle").hidden = true;
  $("needed").textContent = "";
  $("stop").disabled = false;
  $("start").disabled = true;
  const download = $("download");
  download.href = "/api/runs/" + run.id + "/json";
  download.classList.add("disabled");
  const events = new EventSource("/api/runs/" + run.id + "/events");
  current.events = events;
  events.addEventListener("exact", (message) => {
    current.exact = JSON.parse(message.data);
    $("exact-toggle").hidden = !(current.exact && current.exact.svg);
    // The first views may have come before the law: draw it now if it is asked for.
    if (current.view) showView(current.view, $("status").textContent);
    $("needed").textContent = neededLine(current.dealt || 0);
  });
  current.updates = 0;
  current.views = 0;
  events.addEventListener("snapshot", (message) => {
    const snapshot = JSON.parse(message.data);
    current.updates += 1;
    if (snapshot.error) say(snapshot.error);
    const rate = snapshot.rate > 0 ? " · " + Math.round(snapshot.rate).toLocaleString() + " " + noun + "/s" : "";
    // An update without a view moves the count; the charts stay those of the last view.
    if (snapshot.view) {
      current.view = snapshot.view;
      current.views += 1;
    }
    const shown = current.view ? current.view.deals : 0;
    const status = snapshot.deals.toLocaleString() + " of " + snapshot.trials.toLocaleString() + " " + noun +
      " · seed " + run.seed + rate + " · " + snapshot.phase +
      (snapshot.phase === "running" && shown < snapshot.deals ? " · charts and tests of the first " + shown.toLocaleString() : "");
    if (snapshot.view) showView(snapshot.view, status); else $("status").textContent = status;
    $("status").dataset.updates = current.updates;
    $("status").dataset.views = current.views;
    current.dealt = snapshot.deals;
    $("needed").textContent = neededLine(snapshot.deals);
    if (snapshot.deals > 0) download.classList.remove("disabled");
    if (snapshot.phase !== "running") {
      events.close();
      $("stop").disabled = true;
      $("start").disabled = false;
    }
  });
  events.onerror = () => { if (events.readyState === EventSource.CLOSED) $("start").disabled = false; };
}

async function stopRun() {
  if (current.runId != null) await fetch("/api/runs/" + current.runId + "/stop", { method: "POST" });
}

function stopAll() {
  if (current.events) { current.events.close(); current.events = null; }
  if (current.worker) { current.worker.terminate(); current.worker = null; }
  clearTimeout(current.watchdog);
}

// ---- deals sent to the server: your shuffle, a file ----

function ingestQuery(n, kind) {
  const params = new URLSearchParams();
  params.set("kind", kind || "permutations");
  if (n) params.set("deck", Array.from({ length: n }, (_, i) => i + 1).join(" "));
  return params.toString();
}

async function testDeals(text, query, label) {
  // The server refuses it too (413), but a browser may see only the closed connection.
  if (current.maxBody && new Blob([text]).size > current.maxBody) { say(current.tooLarge); return null; }
  let response;
  try {
    response = await fetch("/api/ingest?" + query, { method: "POST", body: text });
  } catch (error) {
    say("the deals could not be sent: " + error.message);
    return null;
  }
  if (!response.ok) { say(await errorOf(response)); return null; }
  const result = await response.json();
  showView(result.view, result.samples.toLocaleString() + " " + label + " · " + result.verdict +
    (result.verdict === "inconclusive" && result.samples_needed ? " (the tests need " + result.samples_needed.toLocaleString() + ")" : ""));
  return result;
}

async function download(text, query) {
  const response = await fetch("/api/ingest/json?" + query, { method: "POST", body: text });
  if (!response.ok) { say(await errorOf(response)); return; }
  saveBlob(await response.blob());
}

const DEAL_LIMIT_MS = 1000;

async function startOwn(event) {
  event.preventDefault();
  stopAll();
  say("");
  current.exact = null;
  $("exact-toggle").hidden = true;
  $("needed").textContent = "";
  const n = parseInt($("own-n").value, 10);
  const total = parseInt($("own-deals").value, 10);
  if (!(n >= 2 && n <= 10)) { say("cards: give a number from 2 to 10"); return; }
  if (!(total >= 1)) { say("deals: give a number of at least 1"); return; }
  $("own-start").disabled = true;
  // A session on the server keeps the deals: each batch is sent once, and the server
  // reads all of them again as `ingest` would.
  let response;
  try {
    response = await fetch("/api/own?" + ingestQuery(n), { method: "POST" });
  } catch (error) { say("the server could not be reached: " + error.message); $("own-start").disabled = false; return; }
  if (!response.ok) { say(await errorOf(response)); $("own-start").disabled = false; return; }
  const session = await response.json();
  current.own = { id: session.id, pending: [], pendingBytes: 0, sent: 0, sending: false, failed: false };
  const worker = new Worker("/worker.js");
  current.worker = worker;
  $("own-start").disabled = true;
  $("own-stop").disabled = false;
  $("own-download").disabled = true;
  const arm = () => {
    clearTimeout(current.watchdog);
    current.watchdog = setTimeout(() => {
      worker.terminate();
      current.worker = null;
      say("your function did not finish a deal within " + DEAL_LIMIT_MS / 1000 + " s (an endless loop?): the worker was stopped");
      finishOwn();
    }, DEAL_LIMIT_MS + 500);
  };
  arm();
  worker.onmessage = (message) => {
    const data = message.data;
    if (data.type === "deals") {
      arm();
      if (data.text) { current.own.pending.push(data.text); current.own.pendingBytes += data.text.length; }
      current.own.dealt = data.done;
      sendOwn();
    } else if (data.type === "error") {
      clearTimeout(current.watchdog);
      worker.terminate();
      current.worker = null;
      say(data.message);
      finishOwn();
    } else if (data.type === "done") {
      clearTimeout(current.watchdog);
      worker.terminate();
      current.worker = null;
      finishOwn();
    }
  };
  worker.onerror = (error) => { say("the worker failed: " + error.message); finishOwn(); };
  worker.postMessage({ type: "start", code: $("code").value, n, deals: total, dealLimitMs: DEAL_LIMIT_MS });
}

// Sends the deals made since the last batch (each deal once), at most one request at a
// time and five a second; the answer is what `ingest` says of every deal so far.
async function sendOwn() {
  const own = current.own;
  if (!own || own.sending || own.failed || !own.pending.length) return;
  own.sending = true;
  const batch = own.pending.join("");
  own.pending = [];
  own.pendingBytes = 0;
  let response;
  try {
    response = await fetch("/api/own/" + own.id + "/deals", { method: "POST", body: batch });
  } catch (error) {
    say("the deals could not be sent: " + error.message);
    response = null;
  }
  if (response && response.ok) {
    own.sent += batch.length;
    const result = await response.json();
    showView(result.view, result.samples.toLocaleString() + " deals from your function · " + result.verdict +
      (result.verdict === "inconclusive" && result.samples_needed ? " (the tests need " + result.samples_needed.toLocaleString() + ")" : ""));
    $("status").dataset.batches = (parseInt($("status").dataset.batches || "0", 10) + 1).toString();
    $("status").dataset.sentBytes = own.sent.toString();
  } else {
    if (response) say(await errorOf(response));
    own.failed = true;
    if (current.worker) { current.worker.terminate(); current.worker = null; }
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  own.sending = false;
  if (own.pending.length) sendOwn();
}

function finishOwn() {
  $("own-start").disabled = false;
  $("own-stop").disabled = true;
  $("own-download").disabled = !current.own;
  sendOwn();
}

async function downloadOwn() {
  const own = current.own;
  if (!own) return;
  const response = await fetch("/api/own/" + own.id + "/json");
  if (!response.ok) { say(await errorOf(response)); return; }
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

function nextStep() {
  const naive = $("step-algorithm").value === "naive";
  const n = stepper.deck.length;
  if (naive ? stepper.i >= n : stepper.i <= 0) { resetStep(); return; }
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
}

// ---- wiring ----

function showTab(name) {
  for (const button of document.querySelectorAll("#tabs button")) button.classList.toggle("active", button.dataset.tab === name);
  for (const form of document.querySelectorAll(".tab")) form.classList.toggle("active", form.id === name);
}

window.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("#tabs button")) button.onclick = () => showTab(button.dataset.tab);
  $("algorithm").onchange = showSummary;
  $("catalogue").onsubmit = startRun;
  $("stop").onclick = stopRun;
  $("show-exact").onchange = () => {
    const figure = document.querySelector('[data-chart="exact"]');
    if (!$("show-exact").checked && figure) figure.remove();
    if ($("show-exact").checked && current.view && !figure) showView(current.view, $("status").textContent);
  };
  $("preset").onchange = () => { $("code").value = PRESETS[$("preset").value]; };
  $("code").value = PRESETS.naive;
  $("own").onsubmit = startOwn;
  $("own-stop").onclick = () => { if (current.worker) current.worker.postMessage({ type: "stop" }); };
  $("own-download").onclick = downloadOwn;
  $("file").onsubmit = async (event) => {
    event.preventDefault();
    say("");
    current.exact = null;
    $("needed").textContent = "";
    const result = await testDeals($("deals").value, ingestQuery(0, $("kind").value), "deals read");
    $("file-download").disabled = !result;
  };
  $("file-download").onclick = () => download($("deals").value, ingestQuery(0, $("kind").value));
  $("deals-file").onchange = async () => {
    const file = $("deals-file").files[0];
    if (file && current.maxBody && file.size > current.maxBody) { say(current.tooLarge); return; }
    if (file) { $("deals").value = await file.text(); $("file").requestSubmit(); }
  };
  const area = $("deals");
  area.ondragover = (event) => { event.preventDefault(); area.classList.add("drop"); };
  area.ondragleave = () => area.classList.remove("drop");
  area.ondrop = async (event) => {
    event.preventDefault();
    area.classList.remove("drop");
    const file = event.dataTransfer.files[0];
    if (file && current.maxBody && file.size > current.maxBody) { say(current.tooLarge); return; }
    if (file) { area.value = await file.text(); $("file").requestSubmit(); }
  };
  $("step-next").onclick = nextStep;
  $("step-reset").onclick = resetStep;
  $("step-algorithm").onchange = resetStep;
  $("step-n").onchange = resetStep;
  resetStep();
  loadCatalogue().catch((error) => say("the catalogue could not be loaded: " + error));
});
