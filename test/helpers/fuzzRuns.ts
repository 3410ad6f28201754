/**
 * How many cases the property and fuzz tests run, by suite:
 * - `npm test`: a tenth of the full count (at least `min`), on a fixed seed, so the quick suite
 *   runs the same cases every time (nothing to flake) and stays fast;
 * - `npm run test:slow` (the `slow` project of vitest.config.ts sets OTPLESS_TESTS_THOROUGH=1): the full count on
 *   a new seed each run, as fast-check does by default;
 * - `FUZZ_RUNS=n` overrides both (new seed each run), for a long hunt;
 * - `FUZZ_SEED=s` replays the seed a failed run printed (with its `FUZZ_RUNS`, or the suite's count).
 */
const thorough = process.env.OTPLESS_TESTS_THOROUGH === '1';

/** True in `npm run test:slow`: sweeps run over every case instead of a chosen part. */
export const THOROUGH = thorough;
const given = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : undefined;
const replay = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

/** The fixed seed of the quick runs. */
export const QUICK_SEED = 20_260_101;

/** Cases for a property whose full run is `full`. */
export function fuzzRuns(full: number, min = 100): number {
  if (given !== undefined) return given;
  return thorough ? full : Math.max(min, Math.round(full / 10));
}

/** fast-check parameters for `numRuns` cases: the fixed seed in the quick suite only. */
export function fuzzParams(numRuns: number): { numRuns: number; seed?: number } {
  if (replay !== undefined) return { numRuns, seed: replay };
  return thorough || given !== undefined ? { numRuns } : { numRuns, seed: QUICK_SEED };
}
