//! The cycle structure of one permutation: fixed points and number of cycles.
//!
//! These two numbers have exact laws under a uniform shuffle (rencontres numbers and
//! Stirling numbers of the first kind), and they catch biases that a position matrix
//! misses: a random cut of the deck puts every card at every position equally often, yet
//! leaves either every card in place or none, and makes only `gcd(n, cut)` cycles.
//!
//! A permutation here maps position `i` to the card `permutation[i]`; cycles follow
//! `i -> permutation[i]`.
//!
//! [`cycle_count`] walks one deck at a time: each step waits for the load of the step
//! before, and each cycle's end is a branch the processor cannot predict, so a 52-card
//! deck costs some 300 cycles of mostly waiting. [`cycle_counts_side_by_side`] walks
//! [`LANES`] decks at once without a branch per step (every deck of up to 64 cards takes
//! exactly `n` steps), so the loads of different decks overlap; it gives the same counts.

/// How many cards are still at their original position.
#[inline]
pub fn fixed_points(permutation: &[u16]) -> usize {
    permutation
        .iter()
        .enumerate()
        .filter(|&(position, &card)| usize::from(card) == position)
        .count()
}

/// The number of cycles of `permutation` (a fixed point counts as a cycle of length 1).
/// `visited` is scratch space, reused so that per-trial calls do not allocate.
#[inline]
pub fn cycle_count(permutation: &[u16], visited: &mut Vec<bool>) -> usize {
    if permutation.len() <= 64 {
        return cycle_count_small(permutation);
    }
    visited.clear();
    visited.resize(permutation.len(), false);
    let mut cycles = 0;
    for start in 0..permutation.len() {
        if visited[start] {
            continue;
        }
        cycles += 1;
        let mut position = start;
        while !visited[position] {
            visited[position] = true;
            position = usize::from(permutation[position]);
        }
    }
    cycles
}

/// [`cycle_count`] for decks of at most 64 cards, with the unvisited positions as the bits
/// of one word: no scratch memory to clear, write and read back.
#[inline]
fn cycle_count_small(permutation: &[u16]) -> usize {
    let n = permutation.len();
    let mut unvisited: u64 = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let mut cycles = 0;
    while unvisited != 0 {
        let start = unvisited.trailing_zeros() as usize;
        cycles += 1;
        let mut position = start;
        loop {
            unvisited &= !(1u64 << position);
            position = usize::from(permutation[position]);
            if position == start {
                break;
            }
        }
    }
    cycles
}

/// Decks walked side by side by [`cycle_counts_side_by_side`].
pub const LANES: usize = 8;

/// The cycle counts of `LANES` decks of `n <= 64` cards each, the `lane`-th deck being
/// `cards[lane * n..(lane + 1) * n]`: the same numbers as [`cycle_count`] of each deck.
///
/// Every deck takes exactly `n` steps, each visiting one unvisited position: follow the
/// card at the position; if that card's position is already visited, it is the cycle's
/// start (every other position on the way is new), so count the cycle and jump to the
/// lowest unvisited position instead (a select, not a branch). The decks' walks are
/// independent chains of loads, which the processor runs side by side.
#[inline]
pub fn cycle_counts_side_by_side(cards: &[u16], n: usize) -> [u32; LANES] {
    assert!(
        n <= 64 && cards.len() == LANES * n,
        "{LANES} decks of at most 64 cards"
    );
    let all: u64 = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let mut unvisited = [all; LANES];
    let mut position = [0usize; LANES];
    let mut cycles = [0u32; LANES];
    for _ in 0..n {
        for lane in 0..LANES {
            unvisited[lane] &= !(1u64 << position[lane]);
            let next = usize::from(cards[lane * n + position[lane]]) & 63;
            let closed = (unvisited[lane] >> next) & 1 == 0;
            cycles[lane] += u32::from(closed);
            // After the last step nothing is left (64, which is never read).
            let lowest = unvisited[lane].trailing_zeros() as usize;
            position[lane] = if closed { lowest } else { next };
        }
    }
    cycles
}

/// [`cycle_counts_side_by_side`] for decks of any size (issue 33: on 200 cards the walk
/// one deck at a time was a third of `run`'s time): [`LANES`] decks of `n` cards each,
/// walked together, each with a byte per position in `visited` (scratch space). A deck
/// takes exactly `n` steps, each visiting one new position; a step whose next position
/// is already visited closes a cycle, and the walk goes on from the lowest unvisited
/// position, searched from where the last search stopped (every position below it is
/// visited). The closing is a branch, taken about `ln n` times per deck; a step is a
/// store, two loads and a compare, and the eight decks' chains of loads overlap.
pub fn cycle_counts_side_by_side_wide(cards: &[u16], n: usize, visited: &mut Vec<u8>) -> [u32; LANES] {
    assert_eq!(cards.len(), LANES * n, "{LANES} decks of {n} cards");
    visited.clear();
    visited.resize(LANES * n, 0);
    let mut position: [usize; LANES] = std::array::from_fn(|lane| lane * n);
    let mut lowest = position;
    let mut cycles = [0u32; LANES];
    for _ in 0..n {
        for lane in 0..LANES {
            let base = lane * n;
            let here = position[lane];
            visited[here] = 1;
            let next = base + usize::from(cards[here]);
            if visited[next] == 0 {
                position[lane] = next;
                continue;
            }
            cycles[lane] += 1;
            let found = lowest_unvisited(visited, lowest[lane], base + n - 1);
            lowest[lane] = found;
            position[lane] = found;
        }
    }
    cycles
}

/// The lowest unvisited position from `from` on, `last` if none is (after a deck's last
/// step there is none, and its walk ends: the position is never read again). Out of the
/// walk's loop, which it leaves about `ln n` times a deck, so that the loop stays small.
#[cold]
#[inline(never)]
fn lowest_unvisited(visited: &[u8], from: usize, last: usize) -> usize {
    // Eight positions at a time: a byte 0 in the word is an unvisited position.
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    let mut words = visited[from..last].chunks_exact(8);
    let mut offset = 0;
    for word in &mut words {
        let unvisited = !u64::from_le_bytes(word.try_into().expect("eight bytes")) & ONES;
        if unvisited != 0 {
            return from + offset + unvisited.trailing_zeros() as usize / 8;
        }
        offset += 8;
    }
    words
        .remainder()
        .iter()
        .position(|&seen| seen == 0)
        .map_or(last, |rest| from + offset + rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decks_walked_side_by_side_count_as_one_at_a_time() {
        // Sizes around the words' edges, random decks and the two extremes (identity:
        // n cycles; one n-cycle), against the one-deck walk.
        let mut rng = crate::randomness::SimulationSource::from_seed(33);
        let mut visited = Vec::new();
        let mut words = Vec::new();
        for n in [1usize, 2, 63, 64, 65, 127, 128, 129, 200, 1_000, 2_000] {
            let mut cards = Vec::new();
            let mut expected = [0u32; LANES];
            for (lane, expected) in expected.iter_mut().enumerate() {
                let mut deck: Vec<u16> = (0..n as u16).collect();
                match lane {
                    0 => {}
                    1 => deck.rotate_left(1),
                    _ => crate::randomness::fisher_yates_for_tests(&mut deck, &mut rng),
                }
                *expected = cycle_count(&deck, &mut visited) as u32;
                cards.extend_from_slice(&deck);
            }
            assert_eq!(expected[0], n as u32);
            assert_eq!(expected[1], 1);
            assert_eq!(
                cycle_counts_side_by_side_wide(&cards, n, &mut words),
                expected,
                "{n} cards"
            );
        }
    }

    #[test]
    fn identity_reversal_and_single_cycle() {
        let mut visited = Vec::new();
        assert_eq!(fixed_points(&[0, 1, 2, 3]), 4);
        assert_eq!(cycle_count(&[0, 1, 2, 3], &mut visited), 4);
        // Reversal of 5 cards: (0 4)(1 3)(2).
        assert_eq!(fixed_points(&[4, 3, 2, 1, 0]), 1);
        assert_eq!(cycle_count(&[4, 3, 2, 1, 0], &mut visited), 3);
        // 0 -> 1 -> 2 -> 3 -> 0.
        assert_eq!(fixed_points(&[1, 2, 3, 0]), 0);
        assert_eq!(cycle_count(&[1, 2, 3, 0], &mut visited), 1);
        assert_eq!(cycle_count(&[], &mut visited), 0);
    }

    #[test]
    fn the_word_of_bits_counts_as_the_visited_list_does() {
        // Every order of 6 cards, and the rotations of 64 and 65 cards (the two paths'
        // edge), against the list-based walk.
        let by_list = |permutation: &[u16]| {
            let mut visited = vec![false; permutation.len()];
            let mut cycles = 0;
            for start in 0..permutation.len() {
                if !visited[start] {
                    cycles += 1;
                    let mut position = start;
                    while !visited[position] {
                        visited[position] = true;
                        position = usize::from(permutation[position]);
                    }
                }
            }
            cycles
        };
        let mut visited = Vec::new();
        let mut permutation: Vec<u16> = (0..6).collect();
        for _ in 0..720 {
            assert_eq!(cycle_count(&permutation, &mut visited), by_list(&permutation));
            crate::tally::lehmer::next_permutation(&mut permutation);
        }
        for n in [63u16, 64, 65] {
            for shift in [0u16, 1, 2, 8, 32] {
                let rotation: Vec<u16> = (0..n).map(|i| (i + shift) % n).collect();
                assert_eq!(
                    cycle_count(&rotation, &mut visited),
                    by_list(&rotation),
                    "{n} {shift}"
                );
            }
        }
    }

    #[test]
    fn decks_side_by_side_count_as_one_at_a_time() {
        // Every order of 5 cards in groups of LANES, then shuffled decks of 1..=64 cards.
        let mut visited = Vec::new();
        let mut permutation: Vec<u16> = (0..5).collect();
        let orders: Vec<u16> = (0..120)
            .flat_map(|_| {
                let deck = permutation.clone();
                crate::tally::lehmer::next_permutation(&mut permutation);
                deck
            })
            .collect();
        for group in orders.chunks_exact(5 * LANES) {
            let counts = cycle_counts_side_by_side(group, 5);
            for (deck, count) in group.chunks_exact(5).zip(counts) {
                assert_eq!(count as usize, cycle_count(deck, &mut visited), "{deck:?}");
            }
        }
        let mut source = crate::randomness::SimulationSource::from_seed(3);
        for n in 1..=64usize {
            let mut cards = Vec::new();
            for _ in 0..LANES {
                let mut deck: Vec<u16> = (0..n as u16).collect();
                crate::randomness::fisher_yates_for_tests(&mut deck, &mut source);
                cards.extend(deck);
            }
            let counts = cycle_counts_side_by_side(&cards, n);
            for (deck, count) in cards.chunks_exact(n).zip(counts) {
                assert_eq!(count as usize, cycle_count(deck, &mut visited), "{deck:?}");
            }
        }
    }
}
