// Deals as JavaScript programs shuffle with npm's fast-shuffle (6.x), as its README
// writes it.
//
//   node --random-seed=S fast_shuffle.mjs N DEALS [shuffle]    the named `shuffle` export:
//                                                              a fresh PCG32 per deal, seeded
//                                                              (Math.random() * 2**32) | 0
//   node fast_shuffle.mjs N DEALS seeded SEED                  createShuffle(SEED), DEALS deals
//   node fast_shuffle.mjs SEED N DEALS                         the same (the seeded dealers'
//                                                              interface: SEED first)
//
// Prints DEALS lines of N cards numbered 1..N, each the deck 1..N as the shuffle returns
// it. With FAST_SHUFFLE_SEEDS=1 the `shuffle` form also prints each deal's seed to stderr
// (Math.random is watched, not changed).
// fast-shuffle is loaded from FAST_SHUFFLE_MODULES (a directory whose node_modules holds
// it: `cd DIR && npm install fast-shuffle`), else from the script's own directory.
import { createRequire } from 'node:module'
import path from 'node:path'

const base = process.env.FAST_SHUFFLE_MODULES ?? path.dirname(new URL(import.meta.url).pathname)
const require = createRequire(path.join(base, 'noop.js'))
const { shuffle, createShuffle } = require('fast-shuffle')

const usage = () => {
  console.error('usage: node [--random-seed=S] fast_shuffle.mjs N DEALS [shuffle | seeded SEED] | SEED N DEALS')
  process.exit(2)
}
const args = process.argv.slice(2)
const integer = (text) => (/^-?\d+$/.test(text ?? '') ? Number(text) : usage())
let n, deals, seed
if (args.length === 3 && /^-?\d+$/.test(args[2])) {
  ;[seed, n, deals] = args.map(integer)
} else if (args.length === 2 || (args.length === 3 && args[2] === 'shuffle')) {
  ;[n, deals] = args.slice(0, 2).map(integer)
} else if (args.length === 4 && args[2] === 'seeded') {
  ;[n, deals, , seed] = [integer(args[0]), integer(args[1]), null, integer(args[3])]
} else {
  usage()
}
const deck = Array.from({ length: n }, (_, i) => i + 1)
const deal = seed === undefined ? shuffle : createShuffle(seed)
if (process.env.FAST_SHUFFLE_SEEDS === '1') {
  const random = Math.random
  Math.random = () => {
    const x = random()
    console.error(String((x * 2 ** 32) | 0))
    return x
  }
}
for (let d = 0; d < deals; d++) {
  console.log(deal(deck).join(' '))
}
