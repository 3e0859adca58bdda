//! The cycle structure of one permutation: fixed points and number of cycles.
//!
//! These two numbers have exact laws under a uniform shuffle (rencontres numbers and
//! Stirling numbers of the first kind), and they catch biases that a position matrix
//! misses: a random cut of the deck puts every card at every position equally often, yet
//! leaves either every card in place or none, and makes only `gcd(n, cut)` cycles.
//!
//! A permutation here maps position `i` to the card `permutation[i]`; cycles follow
//! `i -> permutation[i]`.

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
