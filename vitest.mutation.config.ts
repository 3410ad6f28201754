import { defineConfig } from 'vitest/config';

/**
 * The one test config besides vitest.config.ts: Stryker's Vitest runner loads a config file and
 * cannot pick a project of one, so it would run vitest.config.ts's slow and browser projects too.
 *
 * The tests Stryker runs against each mutant (stryker.config.mjs, `npm run test:mutation`):
 * every test that runs the library in its own process. Tests that run it in a child process
 * (the demo, the README's quick start, the two CLIs, the load run's emulator) cannot see the
 * active mutant, and the browser tests need Chromium: left out.
 *
 * `MUTATION_TESTS` (comma-separated globs) narrows the run to the tests written for one file,
 * for a busy machine: `MUTATION_TESTS='test/web/**' npm run test:mutation -- --mutate
 * src/web/origin.ts`. Fewer tests can only kill fewer mutants, so a narrowed score is a floor.
 */
const narrowed = process.env.MUTATION_TESTS?.split(',')
  .map((glob) => glob.trim())
  .filter((glob) => glob !== '');

export default defineConfig({
  test: {
    include: narrowed !== undefined && narrowed.length > 0 ? narrowed : ['test/**/*.test.ts'],
    exclude: [
      'test/e2e/**',
      'test/examples/demo.test.ts',
      'test/readme/**',
      'test/check/cli.test.ts',
      'test/emulator/cli.test.ts',
      'test/resilience/load.test.ts',
      'test/types/**',
      'node_modules/**',
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
