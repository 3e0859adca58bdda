// Runs the page's shuffle function, deal after deal, and posts the deals in batches.
// The page ends this worker (`terminate`) when Stop is pressed or a deal takes too long
// (an endless loop never returns).
//
// Each message carries the token the page sent with "start". The user's function cannot
// read it: everything here is local to this closure, and the function is compiled in the
// global scope (`new Function`); messages are posted with `post`, taken before it runs,
// as object literals (no method it could replace sees the token). So a function that
// posts messages of its own cannot pass them off as deals: the page ignores them.
"use strict";
(() => {
  const post = self.postMessage.bind(self);
  let token = null;

  self.onmessage = (event) => {
    const message = event.data;
    if (!message || message.type !== "start" || token !== null) return;
    token = message.token;
    let shuffle;
    try {
      shuffle = new Function('"use strict"; return (' + message.code + "\n);")();
    } catch (error) {
      fail("your code does not compile: " + error.message);
      return;
    }
    if (typeof shuffle !== "function") {
      fail("your code is not a function (write function (array) { ... })");
      return;
    }
    deal(shuffle, message.n, message.deals, message.dealLimitMs);
  };

  function fail(text) {
    post({ token, type: "error", message: text });
  }

  function deal(shuffle, n, total, dealLimitMs) {
    let done = 0;
    const batch = () => {
      const lines = [];
      const started = performance.now();
      while (done < total && performance.now() - started < 40) {
        const deck = Array.from({ length: n }, (_, i) => i + 1);
        const before = performance.now();
        let result;
        try {
          result = shuffle(deck);
        } catch (error) {
          fail("your function threw on deal " + (done + 1) + ": " + error);
          return;
        }
        if (performance.now() - before > dealLimitMs) {
          fail("deal " + (done + 1) + " took more than " + dealLimitMs + " ms: too slow");
          return;
        }
        const out = result === undefined ? deck : result;
        const problem = notAShuffle(out, n);
        if (problem) {
          fail("deal " + (done + 1) + ": " + problem);
          return;
        }
        lines.push(out.join(" "));
        done++;
      }
      post({ token, type: "deals", text: lines.length ? lines.join("\n") + "\n" : "", done });
      if (done < total) setTimeout(batch, 0);
      else post({ token, type: "done", done });
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
})();
