/**
 * The one deterministic pseudo-random generator of the benchmarks and test fixtures
 * (mulberry32, Tommy Ettinger's 32-bit generator), so that synthetic data is reproducible.
 */

/**
 * A mulberry32 generator seeded with `seed` (taken as an unsigned 32-bit integer).
 * @returns a function giving the next number, uniform in [0, 1), 2^-32 apart.
 * Example: `const uniform = random(42); uniform()` gives the same sequence on every run.
 */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
