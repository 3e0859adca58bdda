// Drives the live page of `shuffle-audit serve` in headless Chromium as a student would:
// the naive swap on 3 cards until the badge reads FAIL, a sampler and a shuffle bag from
// the catalogue caught, a weighted i.i.d. stream's exact law shown and a bag without one
// said so, a 10-card run updating several times a second, Fisher–Yates to
// PASS, the sort-by-random-comparator preset caught (its deals sent in batches), an
// endless loop stopped with its message, pasted deals and a dropped file with their
// verdicts, an oversized upload refused with its message, one shuffle stepped through.
// Saves a screenshot of each state.
//
//   node scripts/browser/serve_test.mjs URL SCREENSHOT_DIR
//
// Prints one line per step; exits 1 on the first step that fails, 2 when it cannot run.
import { chromium } from "playwright-core";
import { find_chromium } from "./chromium.mjs";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [url, shots] = process.argv.slice(2);
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

const badge = () => page.locator("#badge");
const waitBadge = (text, timeout) => badge().filter({ hasText: new RegExp(`^${text}$`) }).waitFor({ timeout });
const message = () => page.locator("#message").textContent();

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
  const needed = await page.locator("#needed").textContent();
  if (!/Samples needed: about [0-9,]+ deals/.test(needed)) throw new Error(`samples needed: ${needed}`);
  return `${await page.locator("#status").textContent()} | ${needed}`;
});

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

async function own(preset, n, deals) {
  await page.click('#tabs button[data-tab="own"]');
  await page.selectOption("#preset", preset);
  await page.fill("#own-n", String(n));
  await page.fill("#own-deals", String(deals));
  await page.click("#own-start");
}

await step("own-fisher-yates-pass", async () => {
  await own("fisher-yates", 4, 60000);
  await page.locator("#status", { hasText: /^60,000 deals/ }).waitFor({ timeout: 60000 });
  await waitBadge("PASS", 30000);
  return await page.locator("#status").textContent();
});

await step("own-random-comparator-caught", async () => {
  await own("sort", 5, 200000);
  await waitBadge("FAIL", 60000);
  await page.click("#own-stop");
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
  return await page.locator("#status").textContent();
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

await step("step-through-naive-swap", async () => {
  await page.click('#tabs button[data-tab="step"]');
  await page.selectOption("#step-algorithm", "naive");
  await page.fill("#step-n", "4");
  await page.locator("#step-n").dispatchEvent("change");
  for (let i = 0; i < 4; i++) await page.click("#step-next");
  const swaps = await page.locator("#step-log li").count();
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
