// Runs the page's shuffle function, deal after deal, and posts the deals in batches.
// The page kills this worker when a deal takes too long (an endless loop never returns).
"use strict";
let shuffle = null;
let stopped = false;
onmessage = (event) => {
  const message = event.data;
  if (message.type === "stop") { stopped = true; return; }
  if (message.type !== "start") return;
  try {
    shuffle = new Function('"use strict"; return (' + message.code + "\n);")();
  } catch (error) {
    postMessage({ type: "error", message: "your code does not compile: " + error.message });
    return;
  }
  if (typeof shuffle !== "function") {
    postMessage({ type: "error", message: "your code is not a function (write function (array) { ... })" });
    return;
  }
  deal(message.n, message.deals, message.dealLimitMs);
};

function deal(n, total, dealLimitMs) {
  let done = 0;
  const batch = () => {
    const lines = [];
    const started = performance.now();
    while (done < total && !stopped && performance.now() - started < 40) {
      const deck = Array.from({ length: n }, (_, i) => i + 1);
      const before = performance.now();
      let result;
      try {
        result = shuffle(deck);
      } catch (error) {
        postMessage({ type: "error", message: "your function threw on deal " + (done + 1) + ": " + error });
        return;
      }
      if (performance.now() - before > dealLimitMs) {
        postMessage({ type: "error", message: "deal " + (done + 1) + " took more than " + dealLimitMs + " ms: too slow" });
        return;
      }
      const out = result === undefined ? deck : result;
      const problem = notAShuffle(out, n);
      if (problem) {
        postMessage({ type: "error", message: "deal " + (done + 1) + ": " + problem });
        return;
      }
      lines.push(out.join(" "));
      done++;
    }
    postMessage({ type: "deals", text: lines.length ? lines.join("\n") + "\n" : "", done });
    if (done < total && !stopped) setTimeout(batch, 0);
    else postMessage({ type: "done", done });
  };
  batch();
}

function notAShuffle(out, n) {
  if (!Array.isArray(out)) return "your function returned " + typeof out + ", not the array";
  if (out.length !== n) return "the deck has " + out.length + " cards, not " + n;
  const seen = new Set(out);
  for (let card = 1; card <= n; card++) {
    if (!seen.has(card)) return "card " + card + " is missing from [" + out.join(", ") + "]";
  }
  return null;
}
