//! SplitMix64 generator of [GRAPH.RNG.SPLITMIX], [GRAPH.RNG.NEXT_INT], [GRAPH.RNG.SEED].

/// [GRAPH.RNG.SPLITMIX] [GRAPH.RNG.SEED] The SplitMix64 generator used to draw landmark roots.
#[derive(Clone, Debug)]
pub struct SeededRandom {
    state: u64,
}

impl SeededRandom {
    /// [GRAPH.RNG.SEED] Starts the state at `seed`.
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

    /// [GRAPH.RNG.NEXT_INT] A uniform value in `0..n` by rejection; `n = 0` (outside the
    /// clause's domain) returns 0 without drawing.
    pub fn next_int(&mut self, n: u32) -> u32 {
        if n == 0 {
            return 0;
        }
        let n = n as u64;
        // 2^64 mod n, computed without 128-bit arithmetic.
        let rem = (u64::MAX % n + 1) % n;
        loop {
            let x = self.next_u64();
            if rem == 0 || x < 0u64.wrapping_sub(rem) {
                return (x % n) as u32;
            }
        }
    }
}
