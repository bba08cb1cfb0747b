//! [GRAPH.RNG] tests: SplitMix64 outputs and next_int.

use onepath_reference::SeededRandom;

/// SplitMix64 written out independently.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E3779B97F4A7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
    z ^ (z >> 31)
}

#[test]
fn seed_zero_matches_the_published_splitmix64_value() {
    let mut r = SeededRandom::new(0);
    assert_eq!(r.next_u64(), 0xE220A8397B1DCDAF);
}

#[test]
fn seed_one_first_outputs() {
    let mut r = SeededRandom::new(1);
    let mut state = 1u64;
    for _ in 0..16 {
        assert_eq!(r.next_u64(), splitmix(&mut state));
    }
    // by hand: s = 1 + 0x9E3779B97F4A7C15 = 0x9E3779B97F4A7C16
    let z: u64 = 0x9E3779B97F4A7C16;
    let z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
    let z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
    assert_eq!(SeededRandom::new(1).next_u64(), z ^ (z >> 31));
}

#[test]
fn next_int_is_rejection_then_modulo() {
    for n in [1u32, 2, 3, 6, 7, 1000, 1 << 31, u32::MAX] {
        let mut r = SeededRandom::new(42);
        let mut state = 42u64;
        let limit: u128 = (1u128 << 64) - ((1u128 << 64) % n as u128);
        for _ in 0..50 {
            let expected = loop {
                let x = splitmix(&mut state);
                if (x as u128) < limit {
                    break (x % n as u64) as u32;
                }
            };
            assert_eq!(r.next_int(n), expected);
        }
    }
    let mut r = SeededRandom::new(9);
    assert!((0..100).all(|_| r.next_int(1) == 0));
}

#[test]
fn next_int_distribution_sanity() {
    let mut r = SeededRandom::new(1);
    let mut counts = [0u32; 6];
    for _ in 0..60_000 {
        counts[r.next_int(6) as usize] += 1;
    }
    for c in counts {
        assert!((9_500..10_500).contains(&c), "{counts:?}");
    }
    let mut r = SeededRandom::new(3);
    let mut low = 0;
    for _ in 0..10_000 {
        if r.next_int(u32::MAX) < u32::MAX / 2 {
            low += 1;
        }
    }
    assert!((4_800..5_200).contains(&low), "{low}");
}
