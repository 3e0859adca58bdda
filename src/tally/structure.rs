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
}
