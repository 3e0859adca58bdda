// The two shuffles the tests audit: the one-liner that many answers online still give, and a
// hand-written Fisher–Yates.

// Sorting with a random comparator: biased. The comparator contradicts itself, so the
// result depends on which pairs V8's TimSort happens to compare; on a short array that is a
// binary insertion sort, whose coin flips favour a few orders (on 5 cards the starting
// order and its reverse each come out about ten times as often as they should).
export const sortShuffle = (deck) => deck.sort(() => Math.random() - 0.5);

// Fisher–Yates (Durstenfeld): each position, from the last down, swaps with a position
// drawn uniformly from those not yet fixed, itself included. Fair.
export function fisherYates(deck) {
  for (let i = deck.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
}
