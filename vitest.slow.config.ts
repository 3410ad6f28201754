import { defineConfig } from 'vitest/config';

/**
 * `npm run test:slow` (CI runs it after `npm test`): the load run (5,000 full logins) and the
 * property and fuzz tests at their full size on a new seed each run (OTPLESS_TESTS_THOROUGH,
 * read by test/helpers/fuzzRuns.ts). Generous limits: these runs take as long as the machine
 * needs, and no test here asserts a duration.
 */
export default defineConfig({
  test: {
    include: [
      'test/resilience/load.test.ts',
      'test/resilience/fuzz.test.ts',
      'test/risk/assessRisk.properties.test.ts',
      'test/risk/compact.dropped.test.ts',
      'test/client/decode.fuzz.test.ts',
      'test/contact/phone.dialled.test.ts',
      'test/contact/phone.typed.test.ts',
    ],
    env: { OTPLESS_TESTS_THOROUGH: '1' },
    testTimeout: 900_000,
    hookTimeout: 120_000,
    pool: 'forks',
    globalSetup: ['test/helpers/buildOnce.ts'],
    maxWorkers: 2,
  },
});
