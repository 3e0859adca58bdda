// Drives the live page of `shuffle-audit serve` in headless Chromium as a student would:
// the naive swap on 3 cards until the badge reads FAIL (its orders chart, its tests table
// with every number whole), the same run at 20 deals a second then faster, stopped at
// once, a sampler and a shuffle bag from
// the catalogue caught, a weighted i.i.d. stream's exact law shown and a bag without one
// said so, a 10-card run updating several times a second, Fisher–Yates to
// PASS, the sort-by-random-comparator preset caught (its deals sent in batches), an
// endless loop stopped with its message, a worker ended by Stop and one flooding the page
// with messages ended by the time limit, a failed run's last update and a lost connection
// said in one line (the event stream closed), pasted deals and a dropped file with their
// verdicts, a malformed paste clearing the result it replaces, an oversized upload refused
// with its message, one shuffle stepped through (its tab showing no other tab's result).
// Saves a screenshot of each state, and with DOCS_PNG the guide's picture of the page
// (docs/src/serve.png: the naive swap on 3 cards caught, beside its exact expectation).
//
//   node scripts/browser/serve_test.mjs URL SCREENSHOT_DIR [DOCS_PNG]
//
// Prints one line per step; exits 1 on the first step that fails, 2 when it cannot run.
import { chromium } from "playwright-core";
import { find_chromium } from "./chromium.mjs";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [url, shots, docs_png] = process.argv.slice(2);
if (!url || !shots) {
  console.error("serve_test: usage: node serve_test.mjs URL SCREENSHOT_DIR");
  process.exit(2);
}
mkdirSync(shots, { recursive: true });

const browser = await chromium.launch({ executablePath: find_chromium("serve_test"), args: ["--no-sandbox"] });
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const console_errors = [];
page.on("pageerror", (error) => console_errors.push(String(error)));
let failed = false;

async function step(name, action) {
  const started = Date.now();
  try {
    const said = await action();
    await page.screenshot({ path: join(shots, `${name}.png`) });
    console.log(`ok   ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)${said ? ": " + said : ""}`);
  } catch (error) {
    failed = true;
    await page.screenshot({ path: join(shots, `${name}-failed.png`) }).catch(() => {});
    console.log(`FAIL ${name}: ${String(error.message || error).split("\n")[0]}`);
  }
}

// When the page called `terminate()` on a worker, and when a worker was gone (Chromium
// ends one busy in a loop up to 2 s after `terminate()`, its grace for a clean exit).
await page.addInitScript(() => {
  const terminate = Worker.prototype.terminate;
  Worker.prototype.terminate = function () {
    (window.terminated_at ||= []).push(Date.now());
    return terminate.call(this);
  };
});
const workers_gone = [];
page.on("worker", (worker) => worker.on("close", () => workers_gone.push(Date.now())));
const terminated = () => page.evaluate(() => window.terminated_at || []);

const badge = () => page.locator("#badge");
const waitBadge = (text, timeout) => badge().filter({ hasText: new RegExp(`^${text}$`) }).waitFor({ timeout });
const message = () => page.locator("#message").textContent();

// The words of the tests table that a line break cuts in two (none: `< 1e-300`, a
// statistic, a test's name each stay on one line), and the number cells that span lines.
async function cut_numbers() {
  return page.evaluate(() => {
    const lines = (range) => new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    const cut = [];
    for (const cell of document.querySelectorAll("#tests tbody td")) {
      const whole = document.createRange();
      whole.selectNodeContents(cell);
      if (cell.cellIndex >= 2 && lines(whole) > 1) cut.push(cell.textContent);
      const text = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = text.nextNode(); node; node = text.nextNode()) {
        for (const word of node.data.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          if (lines(range) > 1) cut.push(word[0]);
        }
      }
    }
    return cut;
  });
}

// The status line's counts: deals so far, deals the charts show, and the orders chart.
const counts = () => page.evaluate(() => {
  const status = document.getElementById("status");
  const orders = document.querySelector('[data-chart="orders"] svg');
  return { deals: Number(status.dataset.deals), shown: Number(status.dataset.viewDeals), orders: orders && orders.outerHTML };
});

// The slider's stops (app.js SPEEDS): 20 deals a second, 1,000, full speed.
const SPEED = { 20: "1", 1000: "6", full: "11" };

await page.goto(url);
await page.locator("#algorithm option[value=fisher-yates]").waitFor({ state: "attached" });

await step("catalogue-naive-swap-fail", async () => {
  await page.selectOption("#algorithm", "naive-swap");
  await page.fill("#n", "3");
  await page.fill("#trials", "3e7");
  await page.fill("#seed", "1");
  await page.click("#start");
  await waitBadge("FAIL", 30000);
  await page.check("#show-exact");
  await page.locator('[data-chart="exact"] svg').waitFor({ timeout: 10000 });
  await page.locator("#stop").click({ timeout: 2000 }).catch(() => {});
  await page.locator('[data-chart="positions"] svg').waitFor();
  // The report's first chart, a bar per order, up to 6 cards.
  await page.locator('[data-chart="orders"] svg').waitFor();
  const needed = await page.locator("#needed").textContent();
  if (!/Samples needed: about [0-9,]+ deals/.test(needed)) throw new Error(`samples needed: ${needed}`);
  const p = await page.locator("#tests tbody td.number", { hasText: "< 1e-300" }).count();
  if (p < 2) throw new Error(`only ${p} p-values < 1e-300 to look at`);
  const cut = await cut_numbers();
  if (cut.length) throw new Error(`numbers cut across lines: ${cut.join(" | ")}`);
  if (docs_png) {
    // The guide's picture: wide enough for the heat map and its exact law side by side,
    // down to the bottom of both.
    await page.setViewportSize({ width: 1600, height: 900 });
    const exact = await page.locator('[data-chart="exact"]').boundingBox();
    await page.screenshot({ path: docs_png, fullPage: true, clip: { x: 0, y: 0, width: 1600, height: Math.ceil(exact.y + exact.height + 16) } });
    await page.setViewportSize({ width: 1280, height: 900 });
  }
  return `${await page.locator("#status").textContent()} | ${needed}`;
});

await step("catalogue-speed-watched", async () => {
  // 3 cards at 20 deals a second: the counts move where a class can see them, the charts
  // with them; faster while it runs; Stop stops it at once.
  await page.locator("#start:not([disabled])").waitFor({ timeout: 30000 });
  await page.fill("#trials", "1e6");
  await page.locator("#speed").fill(SPEED[20]);
  const shown = await page.locator("#speed-shown").textContent();
  if (shown !== "20 deals/s") throw new Error(`the speed reads ${shown}`);
  await page.click("#start");
  try {
    return await watch_slowly();
  } finally {
    if (await page.locator("#stop").isEnabled()) await page.click("#stop");
  }
});

async function watch_slowly() {
  await page.locator("#status", { hasText: / of 1,000,000 deals/ }).waitFor({ timeout: 10000 });
  await page.waitForFunction(() => Number(document.getElementById("status").dataset.deals) >= 5, null, { timeout: 10000 });
  const before = await counts();
  const started = Date.now();
  await page.waitForTimeout(2000);
  const after = await counts();
  const seconds = (Date.now() - started) / 1000;
  // About 40 in 2 s: at most 20 × (t + 0.5) (an update comes every 0.1 s, and the
  // first count read may be that old), at least 10 however loaded the machine (the
  // server's steps on 3 cards cost well under a millisecond).
  const slow = after.deals - before.deals;
  if (slow > 20 * (seconds + 0.5) || slow < 10) throw new Error(`${slow} deals in ${seconds} s at 20 a second`);
  if (!after.orders || after.orders === before.orders) throw new Error("the orders chart did not move with the counts");
  if (after.deals - after.shown > 20) throw new Error(`the charts show ${after.shown} of ${after.deals} deals`);
  await page.locator("#speed").fill(SPEED[1000]);
  await page.waitForTimeout(300);
  const faster = await counts();
  await page.waitForTimeout(1000);
  const fast = (await counts()).deals - faster.deals;
  if (fast < 300 || fast > 1500) throw new Error(`${fast} deals in 1 s at 1,000 a second`);
  const stop_clicked = Date.now();
  await page.click("#stop");
  await page.locator("#status", { hasText: "· stopped" }).waitFor({ timeout: 3000 });
  await page.locator("#start:not([disabled])").waitFor({ timeout: 3000 });
  const stopped = (Date.now() - stop_clicked) / 1000;
  await page.locator("#speed").fill(SPEED.full);
  return `${slow} deals in ${seconds.toFixed(1)} s at 20/s, ${fast} in 1 s at 1,000/s, stopped in ${stopped} s: ${await page.locator("#status").textContent()}`;
}

await step("catalogue-sampler-fail", async () => {
  await page.locator("#start:not([disabled])").waitFor({ timeout: 30000 });
  await page.selectOption("#algorithm", "bag-pick-c");
  await page.locator("#k").waitFor({ state: "visible" });
  await page.fill("#n", "6");
  await page.fill("#k", "2");
  await page.fill("#trials", "1e6");
  await page.click("#start");
  await page.locator("#status", { hasText: /of 1,000,000 samples .* done/ }).waitFor({ timeout: 60000 });
  await waitBadge("FAIL", 30000);
  await page.locator('[data-chart$="inclusion"] svg').waitFor({ timeout: 10000 });
  await page.locator("#start:not([disabled])").waitFor({ timeout: 30000 });
  // The exact law of its selections beside the counts, and the samples it takes.
  await page.locator("#exact-toggle").waitFor({ state: "visible", timeout: 10000 });
  await page.check("#show-exact");
  await page.locator('[data-chart="exact"] svg').waitFor({ timeout: 10000 });
  const needed = await page.locator("#needed").textContent();
  if (!/Samples needed: about [0-9,]+ samples/.test(needed)) throw new Error(`samples needed: ${needed}`);
  return `${await page.locator("#status").textContent()} | ${needed}`;
});

await step("catalogue-shuffle-bag-fail", async () => {
  await page.selectOption("#algorithm", "shuffle-bag-csharp");
  await page.locator("#items").waitFor({ state: "visible" });
  // 5 items: the exact law of a cycle has 120 orders, few enough for `exact` to draw.
  await page.fill("#items", "5");
  await page.fill("#length", "10000");
  await page.fill("#streams", "200");
  await page.click("#start");
  // The run's own last update (the badge may still show the run before).
  await page.locator("#status", { hasText: /of 2,000,000 draws .* done/ }).waitFor({ timeout: 60000 });
  await waitBadge("FAIL", 30000);
  const charts = await page.locator("#charts figure").count();
  if (charts < 1) throw new Error("no chart of the stream");
  // The exact law of one cycle of the bag, and the cycles its test needs.
  await page.locator("#exact-toggle").waitFor({ state: "visible", timeout: 10000 });
  await page.check("#show-exact");
  await page.locator('[data-chart="exact"] svg').waitFor({ timeout: 10000 });
  const needed = await page.locator("#needed").textContent();
  if (!/after about [0-9,]+ cycles/.test(needed)) throw new Error(`samples needed: ${needed}`);
  return `${await page.locator("#status").textContent()} (${charts} charts) | ${needed}`;
});

await step("catalogue-stream-exact-draws", async () => {
  // A weighted i.i.d. stream: each draw's exact law (the weights) beside the frequencies.
  await page.locator("#start:not([disabled])").waitFor({ timeout: 30000 });
  await page.selectOption("#algorithm", "iid");
  await page.locator("#items").waitFor({ state: "visible" });
  await page.fill("#items", "A:50,B:25,C:20,D:5");
  await page.fill("#length", "1000");
  await page.fill("#streams", "100");
  await page.click("#start");
  await page.locator("#status", { hasText: /of 100,000 draws .* done/ }).waitFor({ timeout: 60000 });
  await page.locator("#exact-toggle").waitFor({ state: "visible", timeout: 10000 });
  await page.check("#show-exact");
  await page.locator('[data-chart="exact"] svg').waitFor({ timeout: 10000 });
  const iid = await page.locator("#needed").textContent();
  if (!/Exact: each draw is independent and exactly the weights/.test(iid)) throw new Error(`iid: ${iid}`);
  await page.screenshot({ path: join(shots, "catalogue-iid-exact-draws.png") });
  // The C# bag on 12 items: no exact law known, and the page says so.
  await page.locator("#start:not([disabled])").waitFor({ timeout: 30000 });
  await page.selectOption("#algorithm", "shuffle-bag-csharp");
  await page.fill("#items", "12");
  await page.click("#start");
  await page.locator("#status", { hasText: /of 100,000 draws .* done/ }).waitFor({ timeout: 60000 });
  await page.locator("#needed", { hasText: /No exact law/ }).waitFor({ timeout: 10000 });
  if (await page.locator("#exact-toggle").isVisible()) throw new Error("a toggle with no exact law");
  const csharp = await page.locator("#needed").textContent();
  await page.locator("#start:not([disabled])").waitFor({ timeout: 30000 });
  return `${iid} | ${csharp}`;
});

await step("catalogue-ten-cards-updates", async () => {
  // The page gets about 10 updates a second whatever the deck, and a full view (heat
  // map, bars, tests, badge) with each step of the run, 100 ms at most: counted over 3 s
  // of a 10-card run, at least 6 of each (a fifth of the nominal rate: a loaded machine
  // is slow; tests/serve.rs counts them over a whole run).
  await page.selectOption("#algorithm", "naive-swap");
  await page.fill("#n", "10");
  await page.fill("#trials", "1e10");
  await page.click("#start");
  await page.waitForFunction(() => Number(document.getElementById("status").dataset.views || 0) >= 2, null, { timeout: 20000 });
  const count = async () => [Number(await page.locator("#status").getAttribute("data-updates")),
    Number(await page.locator("#status").getAttribute("data-views"))];
  const [updatesBefore, viewsBefore] = await count();
  await page.waitForTimeout(3000);
  const [updatesAfter, viewsAfter] = await count();
  const rows = await page.locator("#tests tbody tr").count();
  await page.screenshot({ path: join(shots, "catalogue-ten-cards-running.png") });
  await page.click("#stop");
  await page.locator("#start:not([disabled])").waitFor({ timeout: 30000 });
  const [updates, views] = [updatesAfter - updatesBefore, viewsAfter - viewsBefore];
  if (updates < 6) throw new Error(`only ${updates} updates in 3 s`);
  if (views < 6) throw new Error(`only ${views} views (charts and tests) in 3 s`);
  if (rows < 5) throw new Error(`only ${rows} test rows`);
  await page.fill("#n", "3");
  return `${updates} updates, ${views} with charts and tests, in 3 s; ${await page.locator("#status").textContent()}`;
});

// The run's event stream answered by the test instead of the server: `body`, a stream
// that ends at once (with `retry: 100`, a page that left it open would try it again
// within 0.1 s), or `null`, a connection refused. Counts the page's tries.
async function events_answered(body, action) {
  let tries = 0;
  await page.route("**/api/runs/*/events", (route) => {
    tries += 1;
    if (body === null) return route.abort("connectionrefused");
    return route.fulfill({ status: 200, headers: { "content-type": "text/event-stream" }, body: "retry: 100\n" + body });
  });
  try {
    await action();
    const tried = tries;
    await page.waitForTimeout(800);
    if (tries !== tried) throw new Error(`the page kept trying the stream (${tries} tries)`);
    return tried;
  } finally {
    await page.unroute("**/api/runs/*/events");
  }
}

await step("catalogue-failure-said", async () => {
  // The server's last update of a run that failed: its error shown, Start back, the
  // stream closed; so too for an update the page cannot read (`data: {}`).
  await page.fill("#trials", "1000");
  const failed = { phase: "failed", deals: 0, trials: 1000, seconds: 0, rate: 0, error: "the run failed: a test of the page", view: null };
  const failed_tries = await events_answered(`event: snapshot\ndata: ${JSON.stringify(failed)}\n\n`, async () => {
    await page.click("#start");
    await page.locator("#message", { hasText: "the run failed: a test of the page" }).waitFor({ timeout: 10000 });
    await page.locator("#start:not([disabled])").waitFor({ timeout: 2000 });
  });
  const unread_tries = await events_answered("event: snapshot\ndata: {}\n\n", async () => {
    await page.click("#start");
    await page.locator("#message", { hasText: "cannot read" }).waitFor({ timeout: 10000 });
    await page.locator("#start:not([disabled])").waitFor({ timeout: 2000 });
  });
  if (failed_tries !== 1 || unread_tries !== 1) throw new Error(`the stream was opened ${failed_tries} and ${unread_tries} times`);
  return await message();
});

await step("catalogue-lost-connection-said", async () => {
  // No stream at all (the server gone): a few tries, then one line, and no more tries.
  const tries = await events_answered(null, async () => {
    await page.click("#start");
    await page.locator("#message", { hasText: "connection to the server was lost" }).waitFor({ timeout: 10000 });
    await page.locator("#start:not([disabled])").waitFor({ timeout: 2000 });
  });
  if (tries < 2 || tries > 5) throw new Error(`the stream was tried ${tries} times`);
  return `${tries} tries: ${await message()}`;
});

async function own(preset, n, deals) {
  await page.click('#tabs button[data-tab="own"]');
  await page.selectOption("#preset", preset);
  await page.fill("#own-n", String(n));
  await page.fill("#own-deals", String(deals));
  await page.click("#own-start");
}

// The title of the charts of deals the page sent (`ingest` calls them standard input).
async function chart_title() {
  const title = (await page.locator('[data-chart="positions"] svg text', { hasText: " cards · " }).first().textContent()).trim();
  if (title.includes("standard input")) throw new Error(`the charts are titled ${title}`);
  return title;
}

await step("own-fisher-yates-pass", async () => {
  await own("fisher-yates", 4, 60000);
  await page.locator("#status", { hasText: /^60,000 deals/ }).waitFor({ timeout: 60000 });
  await waitBadge("PASS", 30000);
  const title = await chart_title();
  if (!title.startsWith("your shuffle")) throw new Error(`the charts are titled ${title}`);
  return `${await page.locator("#status").textContent()} | ${title}`;
});

await step("own-random-comparator-caught", async () => {
  await own("sort", 5, 200000);
  await waitBadge("FAIL", 60000);
  // Stopped if it is still dealing (each batch's answer runs ingest's predictability check
  // on these 5-card deals, so the worker may have dealt them all by the time it fails).
  if (await page.locator("#own-stop").isEnabled()) await page.click("#own-stop");
  await page.locator("#own-start:not([disabled])").waitFor({ timeout: 30000 });
  // Each deal is sent once: the bytes sent are the deals' lines, "a b c d e\n" each.
  await page.waitForTimeout(1000);
  const status = page.locator("#status");
  const [batches, bytes] = [Number(await status.getAttribute("data-batches")), Number(await status.getAttribute("data-sent-bytes"))];
  const deals = Number((await status.textContent()).split(" ")[0].replace(/[^0-9]/g, ""));
  if (bytes !== deals * 10) throw new Error(`${bytes} bytes sent for ${deals} deals`);
  return `${await status.textContent()} (${batches} batches, ${bytes} bytes: each deal once)`;
});

await step("own-endless-loop-message", async () => {
  await page.click('#tabs button[data-tab="own"]');
  await page.fill("#code", "function shuffle(array) {\n  while (true) {}\n}");
  await page.click("#own-start");
  await page.locator("#message", { hasText: "endless loop" }).waitFor({ timeout: 10000 });
  return await message();
});

// Waits until the page has terminated one more worker than `before` (at most `within`
// ms after `since`) and the worker is gone (at most 10 s later); says when each was.
async function worker_ended(before, since, within) {
  let calls = await terminated();
  while (calls.length <= before.calls) {
    if (Date.now() - since > within + 5000) throw new Error("the page never ended the worker");
    await page.waitForTimeout(20);
    calls = await terminated();
  }
  const called = calls[calls.length - 1] - since;
  if (called > within) throw new Error(`the page ended the worker ${called} ms after, not within ${within}`);
  while (workers_gone.length <= before.gone) {
    if (Date.now() - since > called + 10000) throw new Error("the worker is still running");
    await page.waitForTimeout(20);
  }
  return `terminate() after ${called} ms, gone after ${workers_gone[workers_gone.length - 1] - since} ms`;
}

const workers_now = async () => ({ calls: (await terminated()).length, gone: workers_gone.length });

await step("own-stop-ends-the-worker", async () => {
  // Stop ends the worker from the page, an endless loop included (it never reads a message).
  await page.fill("#code", "function shuffle(array) {\n  while (true) {}\n}");
  await page.click("#own-start");
  await page.locator("#own-stop:not([disabled])").waitFor({ timeout: 5000 });
  await page.waitForTimeout(200);
  const before = await workers_now();
  const clicked = Date.now();
  await page.click("#own-stop");
  await page.locator("#own-start:not([disabled])").waitFor({ timeout: 2000 });
  // At once: well before the time limit (1.5 s) would have ended it.
  const ended = await worker_ended(before, clicked, 500);
  if ((await message()).includes("endless loop")) throw new Error("the time limit ended it, not Stop");
  return ended;
});

await step("own-message-flood-ended", async () => {
  // A function that posts messages of its own in a loop, made to look like deals: the
  // page ignores them, and its time limit ends the worker.
  await page.fill("#own-n", "3");
  await page.fill("#code", 'function shuffle(array) {\n  for (;;) postMessage({ type: "deals", text: "1 2 3\\n", done: 1 });\n}');
  const before = await workers_now();
  const clicked = Date.now();
  await page.click("#own-start");
  // The time limit is 1.5 s; a second more for the session's request and a busy page.
  const ended = await worker_ended(before, clicked, 2500);
  await page.locator("#message", { hasText: "endless loop" }).waitFor({ timeout: 10000 });
  await page.locator("#own-start:not([disabled])").waitFor({ timeout: 10000 });
  const status = await page.locator("#status").textContent();
  if (/deals from your function/.test(status)) throw new Error(`its messages were taken for deals: ${status}`);
  return `${ended}: ${await message()}`;
});

// Deals from a seeded generator (xorshift), the same every run.
function deals(algorithm, n, count, seed) {
  let x = seed;
  const below = (k) => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x % k; };
  const lines = [];
  for (let d = 0; d < count; d++) {
    const deck = Array.from({ length: n }, (_, i) => String.fromCharCode(65 + i));
    for (let i = n - 1; i > 0 && algorithm === "fisher-yates"; i--) { const j = below(i + 1); [deck[i], deck[j]] = [deck[j], deck[i]]; }
    for (let i = 0; i < n && algorithm === "naive"; i++) { const j = below(n); [deck[i], deck[j]] = [deck[j], deck[i]]; }
    lines.push(deck.join(" "));
  }
  return lines.join("\n") + "\n";
}

await step("file-pasted-naive-swap-fail", async () => {
  await page.click('#tabs button[data-tab="file"]');
  // Pasted: the text put in the box at once (typing 100 kB through fill() takes minutes).
  await page.locator("#deals").evaluate((area, text) => { area.value = text; }, deals("naive", 3, 20000, 12345));
  await page.click("#file-test");
  await waitBadge("FAIL", 30000);
  const title = await chart_title();
  if (!title.startsWith("pasted deals")) throw new Error(`the charts are titled ${title}`);
  return `${await page.locator("#status").textContent()} | ${title}`;
});

await step("file-malformed-paste-clears-the-result", async () => {
  // The FAIL above is not this paste's: the error replaces it.
  await page.locator("#deals").evaluate((area) => { area.value = "A B C\nA B\n"; });
  await page.click("#file-test");
  await page.locator("#message", { hasText: "line 2" }).waitFor({ timeout: 10000 });
  await waitBadge("—", 2000);
  const charts = await page.locator("#charts figure").count();
  if (charts) throw new Error(`${charts} charts of the deals before`);
  if (await page.locator("#tests").isVisible()) throw new Error("the tests of the deals before");
  if (!(await page.locator("#file-download").isDisabled())) throw new Error("a download of the deals before");
  return await message();
});

await step("file-dropped-fisher-yates-pass", async () => {
  await page.locator("#deals").evaluate((area) => { area.value = ""; });
  const text = deals("fisher-yates", 4, 20000, 777);
  const transfer = await page.evaluateHandle((text) => {
    const data = new DataTransfer();
    data.items.add(new File([text], "deals.txt", { type: "text/plain" }));
    return data;
  }, text);
  await page.dispatchEvent("#deals", "drop", { dataTransfer: transfer });
  await waitBadge("PASS", 30000);
  const status = await page.locator("#status").textContent();
  if (!status.startsWith("20,000")) throw new Error(`the dropped file was not read whole: ${status}`);
  return status;
});

await step("file-java-deals-predictable", async () => {
  // Three deals of Collections.shuffle(deck, new Random(42)), as real Java dealt them:
  // too few for the tests, enough to give away the generator and the next deal.
  const java = readFileSync(new URL("../../tests/fixtures/recover/java-seed42-52.txt", import.meta.url), "utf8");
  await page.locator("#deals").evaluate((area, text) => { area.value = text; }, java);
  await page.click("#file-test");
  const finding = page.locator("#predictable", { hasText: "java.util.Random" });
  await finding.waitFor({ timeout: 30000 });
  const said = await finding.textContent();
  // The fourth deal that Java dealt from new Random(42).
  if (!said.includes("the next deal will be 3 51 19 12 34 1 38")) throw new Error(`the finding says: ${said}`);
  const shown = said.slice(0, 80) + "…";
  // Deals that give nothing away take the finding off.
  await page.locator("#deals").evaluate((area, text) => { area.value = text; }, deals("fisher-yates", 4, 20000, 778));
  await page.click("#file-test");
  await waitBadge("PASS", 30000);
  if (await page.locator("#predictable").isVisible()) throw new Error("the finding of the Java deals stayed");
  return shown;
});

await step("file-oversized-upload-message", async () => {
  await page.click('#tabs button[data-tab="file"]');
  const big = join(shots, "oversized-deals.txt");
  writeFileSync(big, Buffer.alloc(65 * 1024 * 1024, "1 2 3\n"));
  await page.setInputFiles("#deals-file", big);
  rmSync(big);
  await page.locator("#message", { hasText: "larger than 64 MB" }).waitFor({ timeout: 60000 });
  return await message();
});

await step("bad-input-message", async () => {
  await page.click('#tabs button[data-tab="catalogue"]');
  await page.fill("#n", "1");
  await page.click("#start");
  await page.locator("#message", { hasText: "--n must be at least 2" }).waitFor({ timeout: 10000 });
  await page.fill("#n", "3");
  return await message();
});

await step("step-through-its-own-tab", async () => {
  // The file's verdict and charts stay in its tab; after the last swap of 3 cards, the
  // log stays (a fourth press does nothing) until New shuffle.
  await page.click('#tabs button[data-tab="step"]');
  await waitBadge("—", 2000);
  if (await page.locator("#charts figure").count()) throw new Error("another tab's charts");
  if (await message()) throw new Error(`another tab's message: ${await message()}`);
  await page.selectOption("#step-algorithm", "naive");
  await page.fill("#step-n", "3");
  await page.locator("#step-n").dispatchEvent("change");
  for (let i = 0; i < 3; i++) await page.click("#step-next");
  await page.locator("#step-next").click({ force: true });
  const swaps = await page.locator("#step-log li:not(.done)").count();
  const done = await page.locator("#step-log li.done").textContent();
  if (swaps !== 3 || !/done: this deal is [123] [123] [123]/.test(done)) throw new Error(`${swaps} swaps, then ${done}`);
  if (!(await page.locator("#step-next").isDisabled())) throw new Error("Next swap after the last swap");
  // The file's tab still says what its last upload was told.
  await page.click('#tabs button[data-tab="file"]');
  await page.locator("#message", { hasText: "larger than 64 MB" }).waitFor({ timeout: 2000 });
  await page.click('#tabs button[data-tab="step"]');
  return done;
});

await step("step-through-naive-swap", async () => {
  await page.click('#tabs button[data-tab="step"]');
  await page.selectOption("#step-algorithm", "naive");
  await page.fill("#step-n", "4");
  await page.locator("#step-n").dispatchEvent("change");
  for (let i = 0; i < 4; i++) await page.click("#step-next");
  const swaps = await page.locator("#step-log li:not(.done)").count();
  if (swaps !== 4) throw new Error(`${swaps} swaps shown after 4 steps`);
  const paths = await page.locator("#step-paths").textContent();
  if (!paths.includes("256") || !paths.includes("24")) throw new Error(`paths: ${paths}`);
  const cards = (await page.locator("#deck .card").allTextContents()).sort().join(" ");
  if (cards !== "1 2 3 4") throw new Error(`the deck holds ${cards}`);
  return paths;
});

await browser.close();
if (console_errors.length) {
  console.log(`FAIL the page logged errors: ${console_errors.join("; ")}`);
  failed = true;
}
console.log(failed ? "serve_test: FAILED" : `serve_test: every step passed; screenshots in ${shots}`);
process.exit(failed ? 1 : 0);
