// Mutation testing (`npm run test:mutation`, not in CI: it takes long). Stryker plants one bug
// at a time in the security-critical files below and runs the tests that cover it; a mutant
// no test notices "survives". docs/testing.md lists the survivors and why each is harmless.
// Narrow a run with `npm run test:mutation -- --mutate src/web/origin.ts`.

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
// eslint-disable-next-line no-restricted-syntax -- Stryker reads the default export of its config file
export default {
  packageManager: 'npm',
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  // Not `related`: Vitest's import graph does not link the example tests (which reach src/ only
  // through the built dist/, rebuilt by buildCommand from the mutated sources) to a mutated file,
  // so they would be left out. Per-test coverage still runs only the tests that reach a mutant.
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  coverageAnalysis: 'perTest',
  mutate: [
    'src/flow/**/*.ts',
    'src/session/pending.ts',
    'src/session/loginRecord.ts',
    'src/session/recordFormat.ts',
    'src/session/recordBinding.ts',
    'src/session/checkedLogins.ts',
    'src/session/jsonShape.ts',
    'src/session/writeOnLogin.ts',
    'src/session/sealedSignals.ts',
    'src/strategy/verify.ts',
    'src/strategy/callbackInput.ts',
    'src/strategy/tokens.ts',
    'src/crypto.ts',
    'src/boundedMemo.ts',
    'src/web/origin.ts',
    'src/risk/assessRisk.ts',
    'src/guards/core.ts',
    'src/limits/keys.ts',
    'src/contact/**/*.ts',
    'src/stores/**/*.ts',
    '!src/**/index.ts',
    '!src/**/types.ts',
  ],
  // Some tests import the built package (the examples): build it from the mutated sources.
  buildCommand: 'npx tsup',
  concurrency: 2,
  // The first run of every test, with coverage per test, takes minutes on a busy machine.
  dryRunTimeoutMinutes: 30,
  timeoutMS: 30_000,
  timeoutFactor: 2,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
