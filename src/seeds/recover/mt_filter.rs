//! The fast seed filter of the runtimes that seed MT19937 with `init_genrand` from 32 bits
//! (PHP's `mt_srand`, numpy's legacy `np.random.seed`): every seed's first draw computed
//! from the three words it needs, 128 seeds at a time.
//!
//! Why not replay each seed: `init_genrand` fills 624 words and the first twist rewrites
//! them all, about 2,500 steps a seed, when the first output needs only three words
//! (`out[i] = temper(twist(x[i], x[i + 1], x[i + 397]))`): the seed itself (its top
//! bit), `x[1]`, and `x[397]`, which `init_genrand` reaches in 397 steps of one
//! multiplication each. Those steps are the whole cost, so they run on arrays of
//! consecutive seeds that the compiler turns into vector instructions (16 seeds a
//! register with AVX-512, eight registers side by side so that the multiplications'
//! latency is hidden; 8 a register with AVX2; plain code elsewhere), the machine's
//! best chosen at run time. The first draw is tested in the same lanes without a
//! branch, and the few seeds that pass (one in `bound`) are followed one at a time
//! from the words already computed, output after output, until a draw differs: only
//! seeds that deal every draw reach the full replay of the search. This is the method
//! of openwall's php_mt_seed, with the draw's test in the vector lanes too.
//!
//! A runtime says how it bounds a draw ([`Bounded`]): its exact arithmetic for the
//! replay and the follow-up, and a branch-free test of the first draw from the first
//! output (or the first two, when a rejected first output is common, as in numpy's
//! masked rejection).

use std::ops::Range;

use super::draws::Draw;
use super::mt19937::{Mt19937, SHIFT, WORDS, init_step, temper, twisted};
use super::seeded::Draws;

/// How a runtime turns MT19937's 32-bit outputs into numbers below a bound.
pub trait Bounded: Copy + Send + Sync + 'static {
    /// The test of a first draw in the vector lanes.
    type First: FirstDraw;

    /// The lane test of `draw`, the first draw of the deals.
    fn first(self, draw: Draw) -> Self::First;

    /// The number below `bound` that the runtime draws from the outputs `next` gives,
    /// exactly as it does (rejections included).
    fn below(self, bound: u32, next: &mut impl FnMut() -> u32) -> u32;
}

/// The test of the first draw on a seed's first outputs: no branch, so that it runs in
/// the vector lanes.
pub trait FirstDraw: Copy + Send + Sync {
    /// The outputs the test reads: 1, or 2 when a first output is often rejected.
    const OUTPUTS: usize;

    /// False when a seed whose first outputs are `first` and `second` (0 when
    /// [`Self::OUTPUTS`] is 1) cannot draw the draw; true when it may (it is then
    /// followed output by output).
    fn may(&self, first: u32, second: u32) -> bool;
}

/// MT19937 started by `init_genrand(seed)`, drawing as a runtime's shuffle draws.
#[derive(Clone, Debug)]
pub struct MtDraws<B> {
    mt: Mt19937,
    bounded: B,
}

impl<B: Bounded> MtDraws<B> {
    pub fn new(seed: u32, bounded: B) -> Self {
        Self {
            mt: Mt19937::new(seed),
            bounded,
        }
    }
}

impl<B: Bounded> Draws for MtDraws<B> {
    fn below(&mut self, bound: u32) -> u32 {
        let mt = &mut self.mt;
        self.bounded.below(bound, &mut || mt.next_u32())
    }

    fn boxed(&self) -> Box<dyn Draws> {
        Box::new(self.clone())
    }
}

/// The outputs a seed's follow-up can compute from `init_genrand`'s words alone:
/// output `i` needs `x[i + 397]`, and past 623 that word is one the twist rewrote.
const FOLLOWED: usize = WORDS - SHIFT;

/// Appends to `out`, in order, the seeds of `seeds` (below 2^32) whose generator,
/// drawing as `bounded` does, draws `draws` in its first 227 outputs, and the seeds
/// whose draws need more outputs than that and agree until then (the search replays
/// every seed passed).
pub fn filter<B: Bounded>(bounded: B, draws: &[Draw], seeds: Range<u64>, out: &mut Vec<u64>) {
    filter_with(Width::best(), bounded, draws, seeds, out);
}

/// The vector widths the filter runs at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Width {
    Avx512,
    Avx2,
    Portable,
}

impl Width {
    /// The widest this processor runs (`std` caches the answer).
    fn best() -> Width {
        Width::here().into_iter().next().unwrap_or(Width::Portable)
    }

    /// Every width this processor runs, widest first.
    pub(super) fn here() -> Vec<Width> {
        let mut widths = Vec::new();
        #[cfg(all(target_arch = "x86_64", avx512_intrinsics))]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                widths.push(Width::Avx512);
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                widths.push(Width::Avx2);
            }
        }
        widths.push(Width::Portable);
        widths
    }
}

/// [`filter`] at `width`, which this processor must run ([`Width::here`]).
pub(super) fn filter_with<B: Bounded>(
    width: Width,
    bounded: B,
    draws: &[Draw],
    seeds: Range<u64>,
    out: &mut Vec<u64>,
) {
    assert!(seeds.end <= 1 << 32, "init_genrand takes 32-bit seeds");
    let Some(&draw) = draws.first() else {
        out.extend(seeds);
        return;
    };
    // Opaque, so that the compiler keeps the test's constants as they are and the lane
    // loop stays one it vectorises.
    let first = std::hint::black_box(bounded.first(draw));
    match width {
        #[cfg(all(target_arch = "x86_64", avx512_intrinsics))]
        Width::Avx512 => {
            assert!(std::arch::is_x86_feature_detected!("avx512f"));
            // SAFETY: the processor has AVX-512 F (checked above).
            unsafe { x86::avx512(bounded, &first, draws, seeds, out) }
        }
        #[cfg(all(target_arch = "x86_64", avx512_intrinsics))]
        Width::Avx2 => {
            assert!(std::arch::is_x86_feature_detected!("avx2"));
            // SAFETY: the processor has AVX2 (checked above).
            unsafe { x86::avx2(bounded, &first, draws, seeds, out) }
        }
        _ => search::<PORTABLE_LANES, B>(bounded, &first, draws, seeds, out),
    }
}

/// Seeds side by side without vector instructions known to the build.
const PORTABLE_LANES: usize = 16;

#[cfg(all(target_arch = "x86_64", avx512_intrinsics))]
#[clippy::msrv = "1.89"]
mod x86 {
    use super::*;

    /// Eight registers of 16 seeds.
    const AVX512_LANES: usize = 128;
    /// Eight registers of 8 seeds.
    const AVX2_LANES: usize = 64;

    #[target_feature(enable = "avx512f")]
    pub(super) fn avx512<B: Bounded>(
        bounded: B,
        first: &B::First,
        draws: &[Draw],
        seeds: Range<u64>,
        out: &mut Vec<u64>,
    ) {
        search::<AVX512_LANES, B>(bounded, first, draws, seeds, out);
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn avx2<B: Bounded>(
        bounded: B,
        first: &B::First,
        draws: &[Draw],
        seeds: Range<u64>,
        out: &mut Vec<u64>,
    ) {
        search::<AVX2_LANES, B>(bounded, first, draws, seeds, out);
    }
}

/// The filter, `L` consecutive seeds at a time (the last batch may run past `seeds`;
/// those lanes are ignored).
#[inline(always)]
fn search<const L: usize, B: Bounded>(
    bounded: B,
    first: &B::First,
    draws: &[Draw],
    seeds: Range<u64>,
    out: &mut Vec<u64>,
) {
    let mut lanes = Lanes::<L>::new();
    let mut start = seeds.start;
    while start < seeds.end {
        lanes.compute(start as u32, first);
        for lane in 0..L {
            if lanes.may[lane] != 0 && start + (lane as u64) < seeds.end && lanes.follow(lane, bounded, draws)
            {
                out.push(start + lane as u64);
            }
        }
        start += L as u64;
    }
}

/// `L` consecutive seeds: their first outputs, the first draw's verdict, and the two
/// words their follow-up starts from.
struct Lanes<const L: usize> {
    /// Outputs 0 and 1 (1 only when the test reads it).
    outputs: [[u32; L]; 2],
    /// The outputs computed: the follow-up's next is output `computed`.
    computed: usize,
    /// `x[computed]` and `x[computed + 396]` of `init_genrand`.
    word: [u32; L],
    far: [u32; L],
    /// Whether the seed may draw the first draw (1) or cannot (0).
    may: [u32; L],
}

impl<const L: usize> Lanes<L> {
    fn new() -> Self {
        Self {
            outputs: [[0; L]; 2],
            computed: 0,
            word: [0; L],
            far: [0; L],
            may: [0; L],
        }
    }

    /// The lanes of the seeds `start`, `start + 1`, … (wrapping past 2^32 − 1).
    #[inline(always)]
    fn compute<F: FirstDraw>(&mut self, start: u32, first: &F) {
        let seed: [u32; L] = std::array::from_fn(|lane| start.wrapping_add(lane as u32));
        let mut x = seed;
        step(&mut x, 1);
        let x1 = x;
        let two = F::OUTPUTS == 2;
        let mut x2 = x;
        if two {
            step(&mut x, 2);
            x2 = x;
        }
        for i in if two { 3 } else { 2 }..SHIFT as u32 + 1 {
            step(&mut x, i);
        }
        for lane in 0..L {
            self.outputs[0][lane] = temper(twisted(seed[lane], x1[lane], x[lane]));
        }
        if two {
            step(&mut x, SHIFT as u32 + 1);
            for lane in 0..L {
                self.outputs[1][lane] = temper(twisted(x1[lane], x2[lane], x[lane]));
            }
            self.word = x2;
        } else {
            self.word = x1;
        }
        self.far = x;
        self.computed = F::OUTPUTS;
        let [firsts, seconds] = &self.outputs;
        for lane in 0..L {
            self.may[lane] = u32::from(first.may(firsts[lane], seconds[lane]));
        }
    }

    /// Whether the seed of `lane` draws `draws` (or agrees with them as far as its
    /// follow-up reaches), drawn one output at a time.
    fn follow<B: Bounded>(&self, lane: usize, bounded: B, draws: &[Draw]) -> bool {
        let mut outputs = Outputs {
            computed: [self.outputs[0][lane], self.outputs[1][lane]],
            of_computed: self.computed,
            next: 0,
            word: self.word[lane],
            far: self.far[lane],
        };
        for draw in draws {
            let value = bounded.below(draw.bound, &mut || outputs.next());
            if outputs.next > FOLLOWED {
                return true;
            }
            if value != draw.value {
                return false;
            }
        }
        true
    }
}

/// One step of `init_genrand` on every lane: `x[i]` from `x[i - 1]`.
#[inline(always)]
fn step<const L: usize>(x: &mut [u32; L], i: u32) {
    for word in x.iter_mut() {
        *word = init_step(*word, i);
    }
}

/// A seed's outputs from the lanes' words on, while `init_genrand`'s words are enough
/// ([`FOLLOWED`]); past them it hands out 0 and counts on.
struct Outputs {
    computed: [u32; 2],
    of_computed: usize,
    /// The place of the next output.
    next: usize,
    /// `x[next]` and `x[next + 396]`, once `next` is past the computed outputs.
    word: u32,
    far: u32,
}

impl Outputs {
    fn next(&mut self) -> u32 {
        let at = self.next;
        self.next += 1;
        if at < self.of_computed {
            return self.computed[at];
        }
        if at >= FOLLOWED {
            return 0;
        }
        let after = init_step(self.word, at as u32 + 1);
        let far = init_step(self.far, (at + SHIFT) as u32);
        let output = temper(twisted(self.word, after, far));
        self.word = after;
        self.far = far;
        output
    }
}

#[cfg(test)]
mod tests;
