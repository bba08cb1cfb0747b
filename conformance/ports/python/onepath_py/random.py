"""SeededRandom: [GRAPH.RNG.SPLITMIX] [GRAPH.RNG.NEXT_INT] [GRAPH.RNG.SEED]."""

U64 = (1 << 64) - 1


class SeededRandom(object):
    """[GRAPH.RNG.SPLITMIX] [GRAPH.RNG.SEED] SplitMix64 with a u64 state set to the seed."""

    __slots__ = ("_s",)

    def __init__(self, seed=1):
        """[GRAPH.RNG.SEED] The state starts at the seed (taken mod 2^64); default 1."""
        self._s = seed & U64

    def next_u64(self):
        """[GRAPH.RNG.SPLITMIX] s += golden gamma; two xor-shift-multiply rounds; final xor-shift."""
        self._s = (self._s + 0x9E3779B97F4A7C15) & U64
        z = self._s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & U64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & U64
        return z ^ (z >> 31)

    def next_int(self, n):
        """[GRAPH.RNG.NEXT_INT] [GRAPH.ALT.ACCESSORS] Rejection sampling: accept ``x < 2^64 - (2^64 mod n)``, return ``x mod n``.

        ``next_int(0)`` returns 0 without drawing ([GRAPH.ALT.ACCESSORS] overrides the
        "a port may reject it" of [GRAPH.RNG.NEXT_INT]).  GUESS: a negative ``n`` (not
        representable as u32) is treated like 0.
        """
        if n < 1:
            return 0
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n
