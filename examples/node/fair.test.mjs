// node:test (`node --test`): the fair shuffle passes, the biased one is caught.
import assert from "node:assert";
import { test } from "node:test";
import { assertFairShuffle } from "shuffle-audit";
import { fisherYates, sortShuffle } from "./shuffle.mjs";

test("a Fisher–Yates shuffle is fair", () => assertFairShuffle(fisherYates));

test("sort with a random comparator is caught", () =>
  assert.rejects(assertFairShuffle(sortShuffle), assert.AssertionError));
