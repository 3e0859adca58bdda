// Deals decks with Math.random as JavaScript programs do, cards numbered from 1, one
// deal per line. Runs in any engine: jsc, node, deno, bun, and a browser page (which
// sets `globalThis.dealArgs` and reads `globalThis.dealt`).
//   deal(shuffle, cards, deals): shuffle is "fisher-yates", "lodash" (lodash 4's
//   _.shuffle, loaded before this file) or "crypto" (crypto.getRandomValues).
function deal(shuffle, cards, deals) {
  const lines = [];
  for (let d = 0; d < deals; d++) {
    let deck = Array.from({ length: cards }, (_, i) => i + 1);
    if (shuffle === "lodash") {
      deck = _.shuffle(deck);
    } else {
      for (let i = deck.length - 1; i > 0; i--) {
        let j;
        if (shuffle === "crypto") {
          const word = new Uint32Array(1);
          const limit = 2 ** 32 - (2 ** 32 % (i + 1));
          do crypto.getRandomValues(word); while (word[0] >= limit);
          j = word[0] % (i + 1);
        } else {
          j = Math.floor(Math.random() * (i + 1));
        }
        [deck[i], deck[j]] = [deck[j], deck[i]];
      }
    }
    lines.push(deck.join(" "));
  }
  return lines.join("\n");
}
