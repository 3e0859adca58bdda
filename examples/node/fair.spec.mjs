// vitest (`npx vitest run`): the same two tests.
import { assertFairShuffle } from "shuffle-audit";
import { expect, test } from "vitest";
import { fisherYates, sortShuffle } from "./shuffle.mjs";

test("a Fisher–Yates shuffle is fair", async () => {
  await assertFairShuffle(fisherYates);
});

test("sort with a random comparator is caught", async () => {
  await expect(assertFairShuffle(sortShuffle)).rejects.toThrow(/caught by/);
});
