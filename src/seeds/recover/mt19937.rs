//! MT19937, the Mersenne Twister that PHP's `mt_rand`, numpy's legacy `RandomState` and
//! CPython's `random` all run, word for word as Matsumoto and Nishimura's reference code
//! (`init_genrand`, `init_by_array`, `genrand_int32`).
//!
//! Why here and not in `randomness`: the simulation never draws from it; it is the
//! generator three runtimes seed from 32 bits, and the seed searches of `php`, `numpy`
//! and `python` replay each seed their filters pass through it (the filters themselves
//! compute only the few words a deal's first draws need).

/// Words of state.
pub const WORDS: usize = 624;
/// The offset of the word mixed into each twist.
pub const SHIFT: usize = 397;
/// The multiplier of `init_genrand`.
pub const INIT_MULTIPLIER: u32 = 1_812_433_253;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER: u32 = 0x8000_0000;
const LOWER: u32 = 0x7fff_ffff;

/// The generator: 624 words and the place of the next one.
#[derive(Clone)]
pub struct Mt19937 {
    words: Box<[u32; WORDS]>,
    next: usize,
}

impl std::fmt::Debug for Mt19937 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mt19937")
            .field("next", &self.next)
            .finish_non_exhaustive()
    }
}

impl Mt19937 {
    /// `init_genrand(seed)`: PHP's `mt_srand(seed)`, numpy's `np.random.seed(seed)`.
    pub fn new(seed: u32) -> Self {
        let mut words = Box::new([0u32; WORDS]);
        words[0] = seed;
        for i in 1..WORDS {
            words[i] = init_step(words[i - 1], i as u32);
        }
        Self { words, next: WORDS }
    }

    /// `init_by_array(key)`: CPython's `random.seed(n)` with `key` the 32-bit words of `n`,
    /// least significant first.
    pub fn from_key(key: &[u32]) -> Self {
        let mut mt = Self::new(19_650_218);
        let words = &mut mt.words;
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..WORDS.max(key.len()) {
            let previous = words[i - 1];
            words[i] = (words[i] ^ (previous ^ (previous >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= WORDS {
                words[0] = words[WORDS - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..WORDS - 1 {
            let previous = words[i - 1];
            words[i] =
                (words[i] ^ (previous ^ (previous >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= WORDS {
                words[0] = words[WORDS - 1];
                i = 1;
            }
        }
        words[0] = UPPER;
        mt
    }

    /// `genrand_int32()`: the next tempered word.
    pub fn next_u32(&mut self) -> u32 {
        if self.next >= WORDS {
            self.twist();
        }
        let word = self.words[self.next];
        self.next += 1;
        temper(word)
    }

    fn twist(&mut self) {
        let words = &mut self.words;
        for i in 0..WORDS {
            words[i] = twisted(words[i], words[(i + 1) % WORDS], words[(i + SHIFT) % WORDS]);
        }
        self.next = 0;
    }
}

/// One step of `init_genrand`: the word at place `i` from the one before it.
#[inline(always)]
pub fn init_step(previous: u32, i: u32) -> u32 {
    INIT_MULTIPLIER
        .wrapping_mul(previous ^ (previous >> 30))
        .wrapping_add(i)
}

/// The word the twist puts at a place holding `word`, followed by `next`, with `far` the
/// word 397 places on.
#[inline(always)]
pub fn twisted(word: u32, next: u32, far: u32) -> u32 {
    let mixed = (word & UPPER) | (next & LOWER);
    far ^ (mixed >> 1) ^ (0u32.wrapping_sub(next & 1) & MATRIX_A)
}

/// The tempering of an output word.
#[inline(always)]
pub fn temper(mut y: u32) -> u32 {
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c_5680;
    y ^= (y << 15) & 0xefc6_0000;
    y ^ (y >> 18)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reference_outputs_of_init_genrand_5489() {
        // The first outputs of the reference code's default seed (also C++'s
        // std::mt19937 default: its 10,000th output is 4123659995).
        let mut mt = Mt19937::new(5489);
        assert_eq!(mt.next_u32(), 3_499_211_612);
        assert_eq!(mt.next_u32(), 581_869_302);
        let mut mt = Mt19937::new(5489);
        let tenth_thousand = (0..10_000).map(|_| mt.next_u32()).last();
        assert_eq!(tenth_thousand, Some(4_123_659_995));
    }

    #[test]
    fn the_reference_outputs_of_init_by_array() {
        // mt19937ar.out: init_by_array({0x123, 0x234, 0x345, 0x456}), first outputs.
        let mut mt = Mt19937::from_key(&[0x123, 0x234, 0x345, 0x456]);
        assert_eq!(mt.next_u32(), 1_067_595_299);
        assert_eq!(mt.next_u32(), 955_945_823);
        assert_eq!(mt.next_u32(), 477_289_528);
    }
}
