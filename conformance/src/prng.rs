//! The harness's own seeded generator (SplitMix64), written here so that generated cases never
//! depend on code under test. It happens to follow the same published algorithm as the spec's
//! `SeededRandom` ([GRAPH.RNG.SPLITMIX]), but it is a separate copy.
//! [CONF.GEN.PRNG] Every generated case draws from this generator.

/// A SplitMix64 generator with a few convenience draws used by the case generators.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose state starts at `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..n` (`n >= 1`), by rejection so every value is equally likely.
    /// `below(0)` has no value to give: it returns 0 without drawing (as the spec's
    /// `next_int` does, [GRAPH.ALT.ACCESSORS]), never a panic; callers check their ranges.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let rem = (u64::MAX % n + 1) % n; // 2^64 mod n
        loop {
            let x = self.next_u64();
            if rem == 0 || x < 0u64.wrapping_sub(rem) {
                return x % n;
            }
        }
    }

    /// A uniform integer in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    /// A uniform double in `[0, 1)` with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// Shuffles `items` in place (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// Derives the seed of sub-case `index` from a base seed (one SplitMix64 step over a mix of both).
pub fn derive_seed(base: u64, index: u64) -> u64 {
    SplitMix64::new(base ^ index.wrapping_mul(0xD6E8_FEB8_6659_FD93)).next_u64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_known_values() {
        // Published SplitMix64 outputs for seed 0.
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn below_zero_returns_zero_without_drawing() {
        let (mut a, mut b) = (SplitMix64::new(9), SplitMix64::new(9));
        assert_eq!(a.below(0), 0);
        assert_eq!(a.next_u64(), b.next_u64());
    }

    #[test]
    fn below_stays_in_range() {
        let mut r = SplitMix64::new(7);
        for n in [1u64, 2, 3, 10, 1 << 40] {
            for _ in 0..100 {
                assert!(r.below(n) < n);
            }
        }
    }
}
