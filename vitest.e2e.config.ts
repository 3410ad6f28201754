import { defineConfig } from 'vitest/config';

// Browser end-to-end tests: Debian's Chromium driven by playwright-core against the demo app.
// One file at a time and generous timeouts: a cold Chromium start can take seconds.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
