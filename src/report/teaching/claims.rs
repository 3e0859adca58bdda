//! The teaching report's text: its title, the guided reading that opens it, and each claim
//! of the source texts with the run that checks it and the prose a student reads beside
//! the result. Kept as data apart from the code that runs it, so that extending the report
//! is adding a record, and the prose can be read (and reviewed) in one place.

use super::*;

/// The report's title.
pub const TITLE: &str = "Is this shuffle fair? The source texts' claims, checked";

/// The guided reading that opens the report.
pub const GUIDE: &[&str] = &[
    "This report runs every shuffle, sampler and shuffle bag of the five source texts millions of \
     times, counts what comes out, and tests the counts against what a fair algorithm would give. \
     Each part below checks one claim. Every number here comes from the command printed beside it: \
     run it and you get the same counts, on any machine, with any number of threads.",
    "How to read a chart. In a bar chart each bar is an outcome (an order of the cards, a subset, a \
     run length) and the black line is how often a fair algorithm would produce it; the shaded band \
     around the line is where a fair algorithm's bar lands 999 times in 1,000. Bars outside the band \
     are drawn in red: one or two of those among hundreds of bars is luck, a whole pattern of them is \
     a bias. In a heat map (card × position) each cell is coloured by how often that card ended at \
     that position divided by how often it should: red is too often, blue too rarely, grey is within \
     the band. A fair shuffle gives an almost all-grey map: about one cell in a thousand is \
     coloured by chance.",
    "What to look for. Part 1 is the classic: the naive swap (`for i: swap a[i] with a[random(n)]`) \
     has n^n equally likely ways to run but only n! orders to land on, and n^n is not a multiple of \
     n!, so some orders must come out more often than others. On 3 cards its 27 paths fall on the \
     orders 1 2 3, 1 3 2, 2 1 3, 2 3 1, 3 1 2 and 3 2 1 as 4, 5, 5, 5, 4 and 4: the orders 1 3 2, \
     2 1 3 and 2 3 1 get 5/27 instead of 1/6, as text 004 found. Fisher–Yates has exactly n! paths, \
     one per order. Part 2 shows a different failure: an off-by-one that never leaves a card in \
     place and makes every deck a single cycle. Part 3 goes through the \
     readers' alternatives, part 4 a sampler whose C code returns the wrong variable, part 5 the \
     shuffle bags of texts 000 and 003, and part 6 a 52-card deck, where the naive swap's bias \
     shows as a pattern across the whole card × position map. Part 7 keeps the algorithm \
     correct and spoils the randomness under it: a clock re-seeding the generator, `rand() % n`, \
     and the 1999 online-poker shuffle, whose deal a player could recover from five cards. \
     Part 8 shows what no single deal can show: deals that depend on each other, decks that \
     repeat, and how many riffles it takes to mix a deck.",
    "The summary table lists every result with its verdict: pass, suspicious (smallest adjusted \
     p-value below 1e-3) or fail (below 1e-6). Every algorithm that is wrong fails, including those \
     the texts present as correct, and every correct one passes; the summary chart shows how far \
     apart the two groups are. Cards and items are numbered from 1 throughout, as in text 004.",
];

/// The claims, in the order the report tells them.
pub const CLAIMS: &[Claim] = &[
    Claim {
        heading: "1a. Text 004: the naive swap against Fisher–Yates, 3 cards",
        prose: &[
            "Text 004 shuffles a 3-card deck 600,000 times with each algorithm. Each of the 6 orders \
             should come out 100,000 times. The naive swap gives three orders about 111,000 times and \
             the other three about 89,000: the 5/27 against 4/27 of its 27 paths. Fisher–Yates stays \
             inside the band.",
        ],
        job: Job::Run {
            algorithms: &["naive-swap", "fisher-yates"],
            n: 3,
            k: None,
            trials: 600_000,
            source: SourceKind::Xoshiro,
        },
    },
    Claim {
        heading: "1b. Text 004: the naive swap against Fisher–Yates, 4 cards",
        prose: &[
            "With 4 cards the naive swap has 256 paths for 24 orders, and the most likely order comes \
             out almost twice as often as the least likely. The heat map shows the bias has a shape: \
             every card but the first tends to end one place nearer the top than it started (the red \
             cells below the diagonal), while card 1 and the bottom position are exactly uniform.",
        ],
        job: Job::Run {
            algorithms: &["naive-swap", "fisher-yates"],
            n: 4,
            k: None,
            trials: 600_000,
            source: SourceKind::Xoshiro,
        },
    },
    Claim {
        heading: "1c. Text 004: the naive swap against Fisher–Yates, 6 cards",
        prose: &[
            "With 6 cards there are 720 orders and only about 833 shuffles per order, so single bars \
             are noisy; the bias still shows as many red bars at once, and the χ² test that adds \
             them all up fails the naive swap by a wide margin.",
        ],
        job: Job::Run {
            algorithms: &["naive-swap", "fisher-yates"],
            n: 6,
            k: None,
            trials: 600_000,
            source: SourceKind::Xoshiro,
        },
    },
    Claim {
        heading: "2. Texts 002 and 003: the off-by-one family makes only single cycles",
        prose: &[
            "Text 002's SHUFFLE swaps a[f] with a[random(f)] and text 003's bag draws \
             `random.Next(position)`: both exclude the card's own place, which is Sattolo's algorithm \
             (text 002's random(0) is undefined; it is taken as 0 here). No card ever stays in place: \
             each lands on the 4 other positions a quarter of the time each instead of a fifth, so \
             the heat map's diagonal is ×0 (dark blue) and every other cell ×1.25. And the deck \
             always forms one single cycle: the fixed-points chart has one bar, at 0, and the cycles \
             chart one bar, at 1.",
        ],
        job: Job::Run {
            algorithms: &["sattolo", "roguelike-shuffle"],
            n: 5,
            k: None,
            trials: 600_000,
            source: SourceKind::Xoshiro,
        },
    },
    Claim {
        heading: "3. Text 004's comments: the readers' alternatives, 6 cards",
        prose: &[
            "Sorting by a random floating-point key is fair (ties are practically impossible); with \
             8-bit keys, ties are common and a stable sort keeps tied cards in their old order, a \
             small bias that 2,000,000 shuffles make plain. A comparator that answers at random does \
             not give a random order with any sorting algorithm: insertion sort leaves the deck close \
             to its starting order (it returns it unchanged over twenty times as often as chance), \
             while merge sort keeps each half's cards in their order and favours the heads of the \
             halves (cards 1 and 4) on top. Inserting each card at a random free index, drawing \
             again when the index is taken, is fair, if slow. One riffle cannot reach most orders. \
             Repeating the naive pass twice shrinks its bias but does not remove it.",
        ],
        job: Job::Run {
            algorithms: &[
                "sort-random-key",
                "sort-random-key-u8",
                "sort-comparator-insertion",
                "sort-comparator-merge",
                "insert-with-retry",
                "riffle",
                "naive-repeated:2",
            ],
            n: 6,
            k: None,
            trials: 2_000_000,
            source: SourceKind::Xoshiro,
        },
    },
    Claim {
        heading: "4. Text 002: BAG-PICK against its C code",
        prose: &[
            "The pseudocode picks each of the 20 subsets of 3 out of 6 equally often. The C code \
             stores the number of picks left instead of the item, so it outputs 3, 2, 1 every time. \
             Text 002 numbers items from 0, so these are its items 3, 2 and 1; this report numbers \
             items from 1, where they are {2 3 4}. One bar reaches the top and the 19 others are \
             empty; items 2, 3 and 4 are chosen every time and items 1, 5 and 6 never.",
        ],
        job: Job::Run {
            algorithms: &["bag-pick", "bag-pick-c"],
            n: 6,
            k: Some(3),
            trials: 600_000,
            source: SourceKind::Xoshiro,
        },
    },
    Claim {
        heading: "5a. Texts 000 and 003: shuffle bags, and the 7-bag gap law",
        prose: &[
            "A shuffle bag deals every item once per cycle, in a random order. Between two copies of \
             the same item there are then between 1 and 13 draws, with a triangle-shaped law (7 is \
             the most likely gap). Text 000's bag and the Tetris 7-bag follow it. Text 003's C# bag \
             never deals the item under its cursor, so an item never comes back at the place it had \
             in the previous cycle: the gap of exactly 7 never happens, and every other gap comes \
             7/6 as often as it should. Text 000's bag and the 7-bag are the same algorithm in two \
             shapes and see the same random numbers here, so their counts mirror each other.",
        ],
        job: Job::Stream {
            generators: &["shuffle-bag", "shuffle-bag-csharp", "tetris-7-bag"],
            items: "7",
            length: 7_000,
            streams: 1_000,
        },
    },
    Claim {
        heading: "5b. Text 003: the Boggle letter bag, truncated and rounded",
        prose: &[
            "Text 003 builds its Boggle bag with `(int)letter.Value * 1000`, which truncates the \
             frequency before multiplying: every letter rarer than 1 % gets no copy at all. That is \
             V, K, J, X, Q and Z, six letters, missing from the frequency chart. Rounding after \
             multiplying gives the intended bag of about 100,000 letters.",
        ],
        job: Job::Stream {
            generators: &["boggle-truncated", "boggle-rounded"],
            items: "boggle",
            length: 1_000_000,
            streams: 20,
        },
    },
    Claim {
        heading: "5c. Text 000: independent weighted picks against bags, longest runs and droughts",
        prose: &[
            "Text 000's point is about streaks. With weights 10/5/4/1, independent picks can repeat \
             an item many times in a row and starve a rare one for hundreds of draws; a bag of 20 \
             cannot run an item more than twice its copies (20) and cannot starve D for more than 39 \
             draws. The table below each result gives the longest run and the longest gap of every \
             item; the run and gap charts of `iid` follow the exact law of independent draws. The \
             comments' `unrandomness` generator, which makes an item less likely each time it is \
             drawn, does shorten the droughts, but forgets the weights: it deals each of the four \
             items about a quarter of the time, and fails.",
        ],
        job: Job::Stream {
            generators: &["iid", "refill-list", "shuffle-bag", "unrandomness"],
            items: "A:10,B:5,C:4,D:1",
            length: 10_000,
            streams: 1_000,
        },
    },
    Claim {
        heading: "6. Text 004's comments: a 52-card deck",
        prose: &[
            "A reader suggests histogramming the position of the first card in a large deck after the \
             naive swap. Here that histogram is flat: card 1 is swapped away at the first step to a \
             uniformly random place, and this naive swap never favours where it goes. The reader's \
             picture is right about the top position instead: low-numbered cards land there too \
             often, card 2 about 1.35 times as often as it should and card 52 only 0.74 times. The \
             heat map shows the pattern across the whole deck: as on 4 cards, cards tend to end a \
             little nearer the top than they started, while card 1's row and the bottom position are \
             uniform. Fisher–Yates gives an almost grey map (a few of its 2,704 cells are coloured \
             by chance).",
        ],
        job: Job::Run {
            algorithms: &["naive-swap", "fisher-yates"],
            n: 52,
            k: None,
            trials: 1_000_000,
            source: SourceKind::Xoshiro,
        },
    },
    Claim {
        heading: "7a. The randomness under the algorithm. Text 004's comments: Randomize inside the loop",
        prose: &[
            "Part 7 keeps the algorithm right and breaks the randomness under it. A reader of text 004 \
             moved VB's RANDOMIZE into his shuffle loop and saw the orders' counts go wrong. Here \
             Fisher–Yates runs on Delphi's Random, re-seeded before every shuffle from a millisecond \
             clock, in a loop that shuffles a 3-card deck in a microsecond (`--source clock-reseed \
             --clock-step 0.001`): a thousand shuffles in a row read the same clock value, get the \
             same seed and deal the same order. 600,000 shuffles are only 600 different deals, each \
             repeated a thousand times, so the counts swing far outside the band although every \
             deal came from a correct Fisher–Yates.",
        ],
        job: Job::Run {
            algorithms: &["fisher-yates"],
            n: 3,
            k: None,
            trials: 600_000,
            source: SourceKind::ClockReseed(crate::randomness::ClockStep::DEFAULT),
        },
    },
    Claim {
        heading: "7b. Text 004's comments: rand() % n under a correct Fisher–Yates, 52 cards, exactly",
        prose: &[
            "\"Don't assume rand() is very random either\", a reader of text 004 warns, and another \
             offers rejection sampling against modulo bias. The C library's rand() returns one of \
             32,768 values; `rand() % n` folds them onto 0..n-1, and unless n divides 32,768 the \
             first 32,768 mod n answers get one value more than the others. For a draw from 52 that \
             is 631 chances against 630: a bias of 1 in 630. This part computes its effect on a \
             correct Fisher–Yates exactly, card by card, under the model that each rand() is uniform \
             and independent (`shuffle-audit exact fisher-yates --n 52 --positions --source \
             msvc-rand-mod`): no cell is off by more than about 0.13 %, too little for any one \
             shuffle to notice, but a pattern across the whole map, which the position test \
             catches after the number of shuffles given below.",
        ],
        job: Job::Exact {
            algorithms: &["fisher-yates"],
            n: 52,
            positions: true,
            source: SourceKind::MsvcRandMod,
        },
    },
    Claim {
        heading: "7c. Text 001: the online-poker shuffle, flaws 1 and 2, exactly on 4 cards",
        prose: &[
            "Text 001 tells of an online-poker site whose shuffle was taken apart in 1999 (text \
             004's comments link the paper). Its Pascal code swaps card[ctr] with \
             card[random(51)+1] for every ctr from 1 to 52, after Randomize from the time of day: \
             three flaws at once, shown one at a time here. Flaw 1: it is the naive swap, n^n paths \
             onto n! orders. Flaw 2: random(51)+1 is never 52, so the last card is never chosen as \
             a target: it only moves at the last step, to some other place, and can never end last. \
             On 4 cards `asf-poker` has 3^4 = 81 equally likely paths: the 6 orders with card 4 last \
             get none of them, and the 18 others 4 or 5 each (4/81 or 5/81 where a fair shuffle \
             gives 1/24), next to the naive swap's 256 paths and Fisher–Yates' 24, one per order.",
        ],
        job: Job::Exact {
            algorithms: &["asf-poker", "naive-swap", "fisher-yates"],
            n: 4,
            positions: false,
            source: SourceKind::Xoshiro,
        },
    },
    Claim {
        heading: "7d. Text 001: the online-poker shuffle on 52 cards",
        prose: &[
            "On the real deck the two flaws show together in the heat map: the naive swap's pattern \
             of part 6 (cards drift one place nearer the top), and one dark-blue cell in the corner, \
             card 52 at position 52, which never happens. The third flaw, the seed, is in part 7e.",
        ],
        job: Job::Run {
            algorithms: &["asf-poker"],
            n: 52,
            k: None,
            trials: 1_000_000,
            source: SourceKind::Xoshiro,
        },
    },
    Claim {
        heading: "7e. Text 001: the online-poker shuffle, flaw 3: the seed",
        prose: &[
            "The third flaw owes nothing to the shuffle. Delphi's Random has a 32-bit seed, so at \
             most 2^32 (4.3 × 10^9) of the 52! ≈ 8.07 × 10^67 ≈ 2^225.6 possible deals can ever come \
             out, and Randomize set that seed to the milliseconds since midnight: 86,400,000 deals a \
             day. An observer who knows the server's clock to within a minute has 120,000 deals to \
             try. Here a deal is made at 14:00:12.345; a player at a five-handed table sees his two \
             hole cards (positions 1 and 6) and the flop (positions 12, 13 and 14, after a burn \
             card). Dealing every deck of the two minutes around 14:00 and keeping those that show \
             these five cards finds one seed, the right one, and with it every card still in the \
             deck: the other players' hands, the turn and the river. A random deck would show the \
             five cards once in 311,875,200, so a false match in 120,000 seeds has a chance of about \
             4 in 10,000. `shuffle-audit seeds reach` counts the deals a seed space can reach, and \
             `seeds crack` searches a whole day in seconds.",
        ],
        job: Job::Crack {
            source: SourceKind::Delphi,
            algorithm: "asf-poker",
            dealt_at: "14:00:12.345",
            window: "13:59:00..14:01:00",
            seen_at: &[1, 6, 12, 13, 14],
        },
    },
    Claim {
        heading: "8a. What no single deal shows: a dealer who riffles the last hand three times, 52 cards",
        prose: &[
            "Every test so far looks at deals one at a time. A card-room dealer gathers the last hand \
             and riffles it three times before dealing again (\"most people shuffle cards three or four \
             times\", Diaconis told the New York Times in 1990). After a few hundred deals each deal, \
             taken alone, is as uniform as any: the card × position map is grey and the rising \
             sequences follow the fair law. But every deal is three riffles away from the one \
             before, and three riffles leave at most 8 rising sequences where a fair deck has about \
             26.5. Writing each deal in terms of the one before (the relative permutation: what was \
             done to the last deck) shows it at once: the serial map's red diagonal band says that \
             cards stay near their places in the previous deal, and the serial rising sequences pile \
             up at the far left. Anyone who saw the last hand knows much of the next.",
        ],
        job: Job::Run {
            algorithms: &["dealer-riffles:3"],
            n: 52,
            k: None,
            trials: 200_000,
            source: SourceKind::Xoshiro,
        },
    },
    Claim {
        heading: "8b. Text 001's third flaw in any language: every deck from a fresh 32-bit seed",
        prose: &[
            "A program that seeds its generator afresh from a 32-bit number before each deal (Python's \
             `random.Random(s).shuffle(deck)`, C's `srand(s)`) can deal at most 2^32 different decks \
             of the 52! ≈ 2^225.6. Each deck is perfectly shuffled, so every test of single deals \
             passes. But 300,000 deals from 2^32 decks hold about 300,000² / (2 · 2^32) ≈ 10 decks \
             dealt twice (here 12), where a fair shuffle repeats a 52-card deck with probability about \
             10^-57. The repeat count is a birthday test: one repeat is already decisive, and the \
             number of repeats tells how many decks the program can deal: about 2^32, as if dealt \
             from a 32-bit seed. These deals are made here by Fisher–Yates from seeds drawn from \
             0..2^32 and read by `ingest` as another program's output.",
        ],
        job: Job::ShortSeeds {
            n: 52,
            deals: 300_000,
            bits: 32,
        },
    },
    Claim {
        heading: "8c. Seven shuffles: how far K riffles leave a 52-card deck from fair, exactly",
        prose: &[
            "Bayer and Diaconis (1992) computed exactly how far K riffles (Gilbert–Shannon–Reeds: a \
             binomial cut, cards dropped in proportion to the packets' sizes) leave a deck from a \
             fair shuffle. The probability of an order depends only on its number r of rising \
             sequences, C(2^K + 52 − r, 52) / 2^(52K), so the whole law of 52! orders is a sum of 52 \
             terms. The total variation stays at 1.000 up to four riffles (nearly every order can \
             never come out), then falls: 0.924, 0.614, 0.334 after seven, and halves with every \
             riffle after that. \"Seven shuffles\" is where it first drops below one half.",
        ],
        job: Job::SevenShuffles { n: 52, most: 12 },
    },
    Claim {
        heading: "8d. Riffles simulated: rising sequences after 2, 4, 7 and 10 riffles, 52 cards",
        prose: &[
            "What the exact law says, the deals show: the histogram of rising sequences of each deal \
             against the Eulerian law of a fair deck. After 2 riffles every deal has at most 4; after \
             4, at most 16; after 7 the hump has nearly reached the fair one but still leans left; \
             after 10 the difference is small (total variation 0.043) yet the rising-sequence test \
             needs only about 6,800 deals to catch it (`shuffle-audit exact riffles:10 --n 52`).",
        ],
        job: Job::Run {
            algorithms: &["riffles:2", "riffles:4", "riffles:7", "riffles:10"],
            n: 52,
            k: None,
            trials: 100_000,
            source: SourceKind::Xoshiro,
        },
    },
    Claim {
        heading: "9. What a flaw is worth: the card-guessing game",
        prose: &[
            "A p-value says a shuffle is biased, not whether anyone can use it. Diaconis, Fulman and \
             Holmes convinced a casino-machine maker with a game instead (Ann. Appl. Probab. 23(4), \
             2013): turn the cards up one at a time, name each before it shows, and remember what has \
             been seen. Against a fair deck the next card is uniform over the unseen ones whatever \
             came before, so no strategy expects more than 1/52 + 1/51 + … + 1 = 4.54 correct \
             guesses of 52. Where the law of orders is known exactly, so is the best any player can \
             do: after each prefix of the deal, name the likeliest next card.",
            "The naive swap of 6 cards is worth little at this game (2.64 where a fair deck allows \
             2.45): a real bias, but a player gains a fifth of a card. One riffle gives away 31 \
             of 52 cards (exact, for any deck, by a recursion over what the player knows; Liu (2020): \
             n/2 + √(2n/π) + O(1)). Three riffles still leave at least 9 (a stated strategy, \
             continuing the last card's rising sequence; the optimal strategy for two riffles or more \
             is an open problem, so these are lower bounds). One pass of the 10-shelf machine gives the \
             best possible player 9.3, twice a fair deck's figure (computed from the exact law of the \
             next card after every prefix; the paper reports about 9.5, more than the machine as it \
             describes it allows); two passes, the manufacturer's remedy, leave nothing that a player \
             following the shelves can find.",
            "The seven-shuffles story in cards: after K riffles a player names 31, 15, 9, 6.5 … cards, \
             and from six riffles on the stated strategy gets within half a card of fair. The \
             distance (part 8c) stays at 1 for four riffles and hides how fast the player's gain \
             falls; the game says what a cheat can take home.",
        ],
        job: Job::Guessing { n: 52, most: 10 },
    },
];
