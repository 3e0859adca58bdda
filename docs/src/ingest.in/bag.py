import random

random.seed(2026)  # so that the guide can show what it prints; leave it out for fresh draws
items = ["rock", "paper", "scissors"]
bag = []
for _ in range(30_000):
    if not bag:  # a "shuffle bag": refill with one of each, in random order
        bag = items[:]
        random.shuffle(bag)
    print(bag.pop())
