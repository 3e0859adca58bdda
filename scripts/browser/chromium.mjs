// Where Debian's Chromium is, for the scripts that drive it with playwright-core (which
// never downloads a browser): $CHROMIUM, else the first of the usual names on the PATH.
// Without one, says so under the calling script's name and exits 2 (cannot run at all).
import { execFileSync } from "node:child_process";

export function find_chromium(script) {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  for (const name of ["chromium", "chromium-browser", "google-chrome"]) {
    try {
      return execFileSync("which", [name], { encoding: "utf8" }).trim();
    } catch {
      // not this one
    }
  }
  console.error(`${script}: no Chromium (install the Debian package chromium, or set CHROMIUM)`);
  process.exit(2);
}
