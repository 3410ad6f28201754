import { defineConfig } from 'vitest/config';

/**
 * The tests Stryker runs against each mutant (stryker.config.mjs, `npm run test:mutation`):
 * every test that runs the library in its own process. Tests that run it in a child process
 * (the demo, the README's quick start, the two CLIs, the load run's emulator) cannot see the
 * active mutant, and the browser tests need Chromium: left out.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
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
