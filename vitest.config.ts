import { defineConfig } from 'vitest/config';

/**
 * `npm test`: every test but the slow load run (vitest.slow.config.ts), the property and fuzz
 * tests at a tenth of their full size on a fixed seed (test/helpers/fuzzRuns.ts).
 *
 * Most files share their worker's module cache (`isolate: false`): loading the package,
 * Express, undici and supertest once per worker instead of once per file is most of the
 * suite's speed. Files that need a process of their own stay isolated, listed below with why.
 */

/** Files that must not share a process with others. */
export const ISOLATED = [
  // Assert warnings emitted once per process (warnOnce, the emulator's exposed-host warning):
  // another file could have used up the "once" first.
  'test/strategy/failures.test.ts',
  'test/routes/warnings.test.ts',
  'test/strategy/MagicLinkStrategy.quirks.test.ts',
  'test/strategy/enrich.userInfoCredentials.test.ts',
  'test/strategy/warn.evidence.test.ts',
  'test/strategy/MagicLinkStrategy.errorsSay.test.ts',
  'test/flow/handoff.sharedState.test.ts',
  // The host suite imports the built package for its NestJS app (one passport per process).
  'test/hosts/**/*.test.ts',
  'test/emulator/server.security.test.ts',
  // Count every event of the process's diagnostics channels.
  'test/diagnostics.test.ts',
  'test/flow/approve.test.ts',
  // Process-wide watches (unhandled rejections, every log line) over the whole file.
  'test/resilience/**/*.test.ts',
  // The examples import the built package and their own app modules, which keep module state
  // (one passport instance per example); the README and type tests compile code.
  'test/examples/**/*.test.ts',
  'test/readme/**/*.test.ts',
  'test/types/**/*.test.ts',
  // Child processes: nothing to share, and their files stay simple to run alone.
  'test/check/cli.test.ts',
  'test/emulator/cli.test.ts',
];

/** Run by `npm run test:slow` only (vitest.slow.config.ts). */
export const SLOW_ONLY = ['test/resilience/load.test.ts'];

const ALWAYS_EXCLUDED = ['test/e2e/**', 'node_modules/**'];

export default defineConfig({
  test: {
    // Generous: a test's own limit is no race either. Held answers outlast it only where a
    // hang must fail the test, and on a machine at load 19 a busy test took minutes, not 20 s.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/helpers/buildOnce.ts'],
    // Vitest's default on 2 cores is one worker, so a test waiting on a socket, a child
    // process or a held answer would hold up the whole suite; three overlap those waits.
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: [...ISOLATED, ...SLOW_ONLY, ...ALWAYS_EXCLUDED],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ISOLATED,
          exclude: [...SLOW_ONLY, ...ALWAYS_EXCLUDED],
          isolate: true,
        },
      },
    ],
  },
});
