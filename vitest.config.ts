import { defineConfig } from 'vitest/config';

/**
 * The one test config; each run is a set of its projects, chosen with `--project`:
 *
 * - `npm test` (`--project shared --project isolated`): every test but the browser tests, the
 *   packing-and-installing tests and the load run, the property and fuzz tests at a tenth of
 *   their full size on a fixed seed (test/helpers/fuzzRuns.ts). `npm test -- test/web/origin.test.ts` runs one file.
 * - `npm run test:package` (`--project package`): the tests that pack this checkout and install
 *   or read the packed package (the README's runnable blocks, the errors consumer, the package's
 *   files and imports).
 * - `npm run test:slow` (`--project slow`): the load run and the property and fuzz tests at
 *   their full size on a new seed each run.
 * - `npm run test:e2e` (`--project e2e`): the browser tests, one file at a time.
 * - `npm run test:mutation` runs Stryker, which loads vitest.mutation.config.ts: its Vitest
 *   runner takes a config file but no project filter, and would run every project of this one.
 *
 * A bare `vitest run` runs every project, slow and browser ones included.
 *
 * Most files of the quick run share their worker's module cache (`isolate: false`): loading the
 * package, Express, undici and supertest once per worker instead of once per file is most of the
 * suite's speed. Files that need a process of their own stay isolated, listed below with why.
 */

/** Files that must not share a process with others. */
export const ISOLATED = [
  // Assert warnings emitted once per process (warnOnce, the emulator's exposed-host warning):
  // another file could have used up the "once" first.
  'test/login/failures.test.ts',
  'test/login/tokenTimes.test.ts',
  'test/routes/warnings.test.ts',
  'test/strategy/MagicLinkStrategy.quirks.test.ts',
  'test/login/enrich.userInfoCredentials.test.ts',
  'test/errors/warnings.evidence.test.ts',
  'test/errors/warnings.test.ts',
  'test/strategy/attempt.test.ts',
  'test/routes/loginRoutes.test.ts',
  'test/login/scannerWarning.test.ts',
  'test/strategy/MagicLinkStrategy.errorsSay.test.ts',
  'test/flow/handoff.sharedState.test.ts',
  // A process that built no strategy (no record key), and its warning once per process.
  'test/session/recordBinding.noKey.test.ts',
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

/**
 * Run by `npm run test:package` only: the tests that pack this checkout (`npm pack`) and install or
 * read the packed package, a fifth of the quick run's time on a busy machine.
 */
export const PACKAGE = ['test/readme/readme.test.ts', 'test/types/errorsConsumer.test.ts', 'test/package/**/*.test.ts'];

/** Run by `npm run test:slow` only. */
export const SLOW_ONLY = ['test/resilience/load.test.ts'];

/** The tests `npm run test:slow` runs: the load run and the property and fuzz tests at full size. */
export const SLOW = [
  ...SLOW_ONLY,
  'test/resilience/fuzz.test.ts',
  'test/risk/assessRisk.properties.test.ts',
  'test/risk/compact.dropped.test.ts',
  'test/client/decode.fuzz.test.ts',
  'test/contact/phone.dialled.test.ts',
  'test/contact/phone.typed.test.ts',
];

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
          exclude: [...ISOLATED, ...SLOW_ONLY, ...PACKAGE, ...ALWAYS_EXCLUDED],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ISOLATED,
          exclude: [...SLOW_ONLY, ...PACKAGE, ...ALWAYS_EXCLUDED],
          isolate: true,
        },
      },
      {
        // Packing and installing: each file in a process of its own, as the isolated ones.
        extends: true,
        test: {
          name: 'package',
          include: PACKAGE,
          exclude: ALWAYS_EXCLUDED,
          isolate: true,
        },
      },
      {
        // Generous limits: these runs take as long as the machine needs, and no test here
        // asserts a duration. OTPLESS_TESTS_THOROUGH is read by test/helpers/fuzzRuns.ts.
        extends: true,
        test: {
          name: 'slow',
          include: SLOW,
          env: { OTPLESS_TESTS_THOROUGH: '1' },
          testTimeout: 900_000,
          hookTimeout: 120_000,
          maxWorkers: 2,
        },
      },
      {
        // Debian's Chromium driven by playwright-core against the demo app. One file at a time
        // and a generous hook limit: a cold Chromium start can take seconds.
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          fileParallelism: false,
        },
      },
    ],
  },
});
