//! The set of reached nodes (or padded cells) of a saved search, as a two-level bitset, so that a
//! state save walks what the search visited instead of every node slot ([STATE.VISITED]: the
//! visited entries are written in increasing index), and a reset clears only what was touched.
//!
//! Level 0 holds one bit per index; level 1 one bit per level-0 word that may be non-zero; level
//! 2 one bit per level-1 word that may be non-zero. Saving and clearing cost `O(n / 262144 +
//! touched words)`: a 2^26-node search over a handful of nodes reads 256 level-2 words, not 2^26
//! slots (issue 33: a short query on a 4096² grid pays for what it explores).

/// A set of indexes below a fixed length, iterated in increasing order.
#[derive(Clone, Default)]
pub(crate) struct VisitSet {
    /// Bit `i & 63` of word `i >> 6`: index `i` is in the set.
    words: Vec<u64>,
    /// Bit `w & 63` of word `w >> 6`: level-0 word `w` may be non-zero.
    summary: Vec<u64>,
    /// Bit `s & 63` of word `s >> 6`: level-1 word `s` may be non-zero.
    top: Vec<u64>,
}

impl VisitSet {
    /// An empty set for indexes below `n`.
    pub fn with_len(n: usize) -> VisitSet {
        let words = n.div_ceil(64);
        let summary = words.div_ceil(64);
        VisitSet {
            words: vec![0; words],
            summary: vec![0; summary],
            top: vec![0; summary.div_ceil(64)],
        }
    }

    /// Grows the set to hold indexes below `n` (new indexes are absent).
    pub fn grow(&mut self, n: usize) {
        let words = n.div_ceil(64);
        if self.words.len() < words {
            self.words.resize(words, 0);
            self.summary.resize(words.div_ceil(64), 0);
            self.top.resize(words.div_ceil(64).div_ceil(64), 0);
        }
    }

    /// Adds index `i` (idempotent).
    #[inline(always)]
    pub fn insert(&mut self, i: usize) {
        let w = i >> 6;
        self.words[w] |= 1 << (i & 63);
        self.summary[w >> 6] |= 1 << (w & 63);
        self.top[w >> 12] |= 1 << ((w >> 6) & 63);
    }

    /// Removes every index, touching only the words that were used.
    pub fn clear(&mut self) {
        for (t, top) in self.top.iter_mut().enumerate() {
            let mut sb = *top;
            while sb != 0 {
                let k = (t << 6) | sb.trailing_zeros() as usize;
                let mut bits = self.summary[k];
                while bits != 0 {
                    let w = (k << 6) | bits.trailing_zeros() as usize;
                    self.words[w] = 0;
                    bits &= bits - 1;
                }
                self.summary[k] = 0;
                sb &= sb - 1;
            }
            *top = 0;
        }
    }

    /// The number of indexes in the set.
    pub fn count(&self) -> usize {
        let mut n = 0;
        self.each_word(|_, word| n += word.count_ones() as usize);
        n
    }

    /// Calls `f(i)` for every index in increasing order.
    #[inline]
    pub fn for_each(&self, mut f: impl FnMut(usize)) {
        self.each_word(|w, mut word| {
            while word != 0 {
                f((w << 6) | word.trailing_zeros() as usize);
                word &= word - 1;
            }
        });
    }

    /// Calls `f(w, word)` for every non-zero level-0 word in increasing order.
    #[inline(always)]
    fn each_word(&self, mut f: impl FnMut(usize, u64)) {
        for (t, &top) in self.top.iter().enumerate() {
            let mut sb = top;
            while sb != 0 {
                let k = (t << 6) | sb.trailing_zeros() as usize;
                let mut bits = self.summary[k];
                while bits != 0 {
                    let w = (k << 6) | bits.trailing_zeros() as usize;
                    let word = self.words[w];
                    if word != 0 {
                        f(w, word);
                    }
                    bits &= bits - 1;
                }
                sb &= sb - 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::VisitSet;

    #[test]
    fn iterates_in_order_and_clears_what_it_touched() {
        let mut s = VisitSet::with_len(70_000);
        let idx = [69_999usize, 0, 63, 64, 4095, 4096, 12_345, 63];
        for &i in &idx {
            s.insert(i);
        }
        let mut got = Vec::new();
        s.for_each(|i| got.push(i));
        assert_eq!(got, vec![0, 63, 64, 4095, 4096, 12_345, 69_999]);
        assert_eq!(s.count(), 7);
        s.clear();
        assert_eq!(s.count(), 0);
        assert!(s.words.iter().all(|&w| w == 0) && s.summary.iter().all(|&w| w == 0));
        assert!(s.top.iter().all(|&w| w == 0));
        s.grow(140_000);
        s.insert(139_999);
        let mut got = Vec::new();
        s.for_each(|i| got.push(i));
        assert_eq!(got, vec![139_999]);
    }
}
