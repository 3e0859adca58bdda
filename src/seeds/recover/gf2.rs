//! Linear equations over GF(2) in up to 128 unknowns, solved as they come.
//!
//! Why: V8's xorshift128+ is linear over GF(2) (shifts and exclusive ors), so every bit
//! of every number it draws is the exclusive or of some of its 128 starting bits, and a
//! bit that a deal reveals is one equation. Elimination over 128-bit masks settles a
//! state in microseconds where a search could not even start; what is left unsettled
//! (too few equations) is an affine space, listed when it is small.

/// A system in reduced row echelon form: each row's lowest set bit is its pivot, and no
/// other row has that bit set.
#[derive(Clone, Debug, Default)]
pub struct System {
    rows: Vec<(u128, bool)>,
    /// An equation contradicted the others: the system has no solution.
    contradicted: bool,
}

impl System {
    /// Adds `mask · x = value`; returns whether the system still has a solution.
    pub fn add(&mut self, mut mask: u128, mut value: bool) -> bool {
        if self.contradicted {
            return false;
        }
        for &(row, row_value) in &self.rows {
            if mask & lowest_bit(row) != 0 {
                mask ^= row;
                value ^= row_value;
            }
        }
        if mask == 0 {
            self.contradicted |= value;
            return !self.contradicted;
        }
        let pivot = lowest_bit(mask);
        for (row, row_value) in &mut self.rows {
            if *row & pivot != 0 {
                *row ^= mask;
                *row_value ^= value;
            }
        }
        self.rows.push((mask, value));
        true
    }

    /// Whether the equations contradict each other.
    pub fn contradicted(&self) -> bool {
        self.contradicted
    }

    /// Independent equations so far.
    pub fn rank(&self) -> u32 {
        self.rows.len() as u32
    }

    /// Every solution in `unknowns` bits, when there are at most 2^`most_free_bits` of
    /// them; `None` when there are more (or there is none: see [`Self::contradicted`]).
    pub fn solutions(&self, unknowns: u32, most_free_bits: u32) -> Option<Vec<u128>> {
        if self.contradicted {
            return None;
        }
        let all = if unknowns == 128 {
            u128::MAX
        } else {
            (1u128 << unknowns) - 1
        };
        let pivots = self
            .rows
            .iter()
            .fold(0u128, |pivots, &(row, _)| pivots | lowest_bit(row));
        let free: Vec<u128> = (0..unknowns)
            .map(|bit| 1u128 << bit)
            .filter(|&bit| bit & all & !pivots != 0)
            .collect();
        if free.len() as u32 > most_free_bits {
            return None;
        }
        // One solution with every free unknown 0, and a basis of the solutions of the
        // homogeneous system: a free unknown set, and each pivot that its row ties to it.
        let particular = self
            .rows
            .iter()
            .filter(|&&(_, value)| value)
            .fold(0u128, |x, &(row, _)| x | lowest_bit(row));
        let basis: Vec<u128> = free
            .iter()
            .map(|&bit| {
                self.rows
                    .iter()
                    .filter(|&&(row, _)| row & bit != 0)
                    .fold(bit, |vector, &(row, _)| vector | lowest_bit(row))
            })
            .collect();
        Some(
            (0..1u64 << basis.len())
                .map(|choice| {
                    basis
                        .iter()
                        .enumerate()
                        .filter(|&(at, _)| choice >> at & 1 == 1)
                        .fold(particular, |x, (_, &vector)| x ^ vector)
                })
                .collect(),
        )
    }
}

fn lowest_bit(mask: u128) -> u128 {
    mask & mask.wrapping_neg()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parity of `mask & x`.
    fn dot(mask: u128, x: u128) -> bool {
        (mask & x).count_ones() % 2 == 1
    }

    #[test]
    fn equations_from_a_hidden_state_solve_back_to_it() {
        let hidden: u128 = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210;
        let mut system = System::default();
        // Masks from a simple generator: enough of them to reach full rank.
        let mut mask: u128 = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c834;
        for _ in 0..400 {
            mask = mask.rotate_left(7) ^ (mask >> 3) ^ 0x5851_f42d_4c95_7f2d;
            assert!(system.add(mask, dot(mask, hidden)));
        }
        assert_eq!(system.rank(), 128);
        assert_eq!(system.solutions(128, 0), Some(vec![hidden]));
    }

    #[test]
    fn a_few_equations_leave_every_solution_listed() {
        // 4 unknowns, x0 ^ x1 = 1 and x2 = 0: x3 and one of x0/x1 free, 4 solutions.
        let mut system = System::default();
        assert!(system.add(0b0011, true));
        assert!(system.add(0b0100, false));
        let mut solutions = system.solutions(4, 2).unwrap();
        solutions.sort_unstable();
        assert_eq!(solutions, [0b0001, 0b0010, 0b1001, 0b1010]);
        assert_eq!(system.solutions(4, 1), None);
    }

    #[test]
    fn a_contradiction_is_kept() {
        let mut system = System::default();
        assert!(system.add(0b11, true));
        assert!(system.add(0b01, false));
        assert!(!system.add(0b10, false));
        assert!(system.contradicted());
        assert!(!system.add(0b100, true));
        assert_eq!(system.solutions(3, 3), None);
    }
}
