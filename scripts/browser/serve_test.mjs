// Drives the live page of `shuffle-audit serve` in headless Chromium as a student would:
// the naive swap on 3 cards until the badge reads FAIL, Fisher–Yates to PASS, the
// sort-by-random-comparator preset caught, an endless loop stopped with its message, an
// oversized upload refused with its message. Saves a screenshot of each state.
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
  await page.locator('[data-chart="exact-positions"] svg').waitFor({ timeout: 10000 }).catch(() => {});
  await page.locator("#stop").click({ timeout: 2000 }).catch(() => {});
  await page.locator('[data-chart="positions"] svg').waitFor();
  return `${await page.locator("#status").textContent()} | ${await page.locator("#needed").textContent()}`;
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
  await page.locator("#own-start:not([disabled])").waitFor({ timeout: 60000 });
  await waitBadge("PASS", 30000);
  return await page.locator("#status").textContent();
});

await step("own-random-comparator-caught", async () => {
  await own("sort", 5, 200000);
  await waitBadge("FAIL", 60000);
  await page.click("#own-stop");
  return await page.locator("#status").textContent();
});

await step("own-endless-loop-message", async () => {
  await page.click('#tabs button[data-tab="own"]');
  await page.fill("#code", "function shuffle(array) {\n  while (true) {}\n}");
  await page.click("#own-start");
  await page.locator("#message", { hasText: "endless loop" }).waitFor({ timeout: 10000 });
  return await message();
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

await browser.close();
if (console_errors.length) {
  console.log(`FAIL the page logged errors: ${console_errors.join("; ")}`);
  failed = true;
}
console.log(failed ? "serve_test: FAILED" : `serve_test: every step passed; screenshots in ${shots}`);
process.exit(failed ? 1 : 0);
