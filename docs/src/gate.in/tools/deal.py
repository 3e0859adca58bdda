# tools/deal.py: deals shuffled 5-card decks, one per line.
import argparse
import random

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, required=True)
parser.add_argument("--count", type=int, required=True)
args = parser.parse_args()
rng = random.Random(args.seed)
deck = ["A", "K", "Q", "J", "10"]
for _ in range(args.count):
    cards = deck[:]
    rng.shuffle(cards)
    print(" ".join(cards))
