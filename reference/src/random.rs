//! [GRAPH.RNG] `SeededRandom` (SplitMix64) of spec/graphs.md section 9.1.

/// [GRAPH.RNG.SPLITMIX] [GRAPH.RNG.SEED] A SplitMix64 generator; the state starts at the seed.
#[derive(Clone, Debug)]
pub struct SeededRandom {
    state: u64,
}

impl SeededRandom {
    /// [GRAPH.RNG.SEED] Creates a generator whose state is `seed`.
    pub fn new(seed: u64) -> Self {
        SeededRandom { state: seed }
    }

    /// [GRAPH.RNG.SPLITMIX] The next 64-bit output.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// [GRAPH.RNG.NEXT_INT] A uniform value in `0..n` by rejection: draws until
    /// `x < 2^64 - (2^64 mod n)`, returns `x mod n`. For `n = 0` (outside the clause's domain
    /// `n >= 1`) it returns 0 without drawing.
    pub fn next_int(&mut self, n: u32) -> u32 {
        if n == 0 {
            return 0;
        }
        let two64: u128 = 1u128 << 64;
        let n128 = u128::from(n);
        let limit: u128 = two64 - (two64 % n128);
        loop {
            let x = self.next_u64();
            if u128::from(x) < limit {
                return (u128::from(x) % n128) as u32;
            }
        }
    }
}
