// Opens a report page in headless Chromium and checks what a reader would notice: every
// chart (each <img>) loads and has a size, every link into the page lands on an element,
// every link to a file of the report points at a file that exists, and the page logs no
// error. Prints one summary line, and each problem on its own line; exits 1 on any
// problem, 2 when it cannot run at all.
//
//   node scripts/browser/check_report.mjs PAGE.html
//
// Chromium is Debian's (`apt-get install chromium`), found at $CHROMIUM or on the PATH;
// playwright-core drives it and never downloads a browser.
import { chromium } from "playwright-core";
import { find_chromium } from "./chromium.mjs";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const page_path = process.argv[2];
if (!page_path || !existsSync(page_path)) {
  console.error(`check_report: no page at '${page_path ?? ""}'`);
  process.exit(2);
}

const browser = await chromium.launch({
  executablePath: find_chromium("check_report"),
  args: ["--no-sandbox", "--allow-file-access-from-files"],
});
const problems = [];
try {
  const page = await browser.newPage();
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("requestfailed", (request) =>
    problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`),
  );
  await page.goto(pathToFileURL(resolve(page_path)).href, { waitUntil: "load" });
  const images = await page.$$eval("img", (all) =>
    all.map((image) => ({
      src: image.getAttribute("src"),
      loaded: image.complete && image.naturalWidth > 0 && image.naturalHeight > 0,
    })),
  );
  for (const image of images) {
    if (!image.loaded) problems.push(`chart did not load: ${image.src}`);
  }
  const links = await page.$$eval("a[href]", (all) => all.map((link) => link.getAttribute("href")));
  const in_page = await page.$$eval('a[href^="#"]', (all) =>
    all
      .map((link) => link.getAttribute("href"))
      .filter((href) => !document.getElementById(decodeURIComponent(href.slice(1)))),
  );
  for (const href of in_page) problems.push(`link to nothing in the page: ${href}`);
  const files = links.filter((href) => !href.startsWith("#") && !/^[a-z]+:/i.test(href));
  for (const href of files) {
    if (!existsSync(resolve(dirname(page_path), decodeURIComponent(href)))) {
      problems.push(`link to a missing file: ${href}`);
    }
  }
  console.log(
    `${page_path}: ${images.length} charts, ${links.length - files.length} links in the page, ` +
      `${files.length} links to files, ${problems.length} problems`,
  );
} finally {
  await browser.close();
}
for (const problem of problems) console.log(`  ${problem}`);
process.exit(problems.length === 0 ? 0 : 1);
