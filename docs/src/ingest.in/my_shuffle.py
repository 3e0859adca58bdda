import random

random.seed(2026)  # so that the guide can show what it prints; leave it out for fresh deals
deck = ["♠A", "♥K", "♦Q"]
for _ in range(60_000):
    cards = deck[:]
    for i in range(len(cards)):  # the naive swap: j anywhere in the deck
        j = random.randrange(len(cards))
        cards[i], cards[j] = cards[j], cards[i]
    print(" ".join(cards))
