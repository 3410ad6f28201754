/**
 * The layering of src/, checked in CI (`npm run check:layers`). Data flows one way:
 * strategy -> client -> service; guards -> risk; the emulator shares only the wire types.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles anywhere in src/.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'emulator-only-wire',
      severity: 'error',
      comment:
        'The emulator imports nothing of ours but the wire types (and the one option checker every entry point shares), so a client bug cannot hide behind the same bug in the emulator.',
      from: { path: '^src/emulator/' },
      to: { path: '^src/', pathNot: ['^src/emulator/', '^src/wire/', '^src/options\\.ts$'] },
    },
    {
      name: 'nobody-imports-the-emulator',
      severity: 'error',
      comment: 'The package never loads the emulator; apps import it from passport-otpless/emulator.',
      from: { path: '^src/', pathNot: '^src/emulator/' },
      to: { path: '^src/emulator/' },
    },
    {
      name: 'risk-is-pure',
      severity: 'error',
      comment: 'Risk imports nothing of HTTP, the client, sessions, the strategy or the guards.',
      from: { path: '^src/risk/' },
      to: { path: ['^src/(client|strategy|guards|session|web|flow|stores|limits)/', '^(node:)?https?$', 'undici'] },
    },
    {
      name: 'client-below-strategy',
      severity: 'error',
      comment: 'The client knows nothing of the strategy, guards, sessions, web helpers or flows.',
      from: { path: '^src/client/' },
      to: { path: '^src/(strategy|guards|session|web|flow|stores|limits)/' },
    },
    {
      name: 'guards-not-strategy',
      severity: 'error',
      comment: 'Guards read the login record through session/ and answer through web/: nothing of strategy/.',
      from: { path: '^src/guards/' },
      to: { path: '^src/strategy/' },
    },
    {
      name: 'rooms-below-strategy',
      severity: 'error',
      comment: 'session/, web/, flow/, stores/ and limits/ are used by the strategy, never the other way round.',
      from: { path: '^src/(session|web|flow|stores|limits|contact)/' },
      to: { path: '^src/(strategy|guards)/' },
    },
    {
      name: 'check-uses-the-client-only',
      severity: 'error',
      comment:
        'otpless-check (src/check/) tests the service through the client, as an app would: it may use the client, ' +
        'the wire and errors, and from flow/ only handoff.ts for FLOW_PARAM (the parameter the ' +
        'strategy relies on); nothing of the strategy, guards, sessions or risk.',
      from: { path: '^src/check/' },
      to: {
        path: '^src/',
        pathNot: ['^src/check/', '^src/client/', '^src/wire/', '^src/errors/', '^src/flow/handoff\\.ts$'],
      },
    },
    {
      name: 'nobody-imports-the-check',
      severity: 'error',
      comment: 'The check is a command (dist/check.js), never part of the library.',
      from: { path: '^src/', pathNot: '^src/check/' },
      to: { path: '^src/check/' },
    },
    {
      name: 'wire-is-leaf',
      severity: 'error',
      comment: 'The wire types import nothing of ours.',
      from: { path: '^src/wire/' },
      to: { path: '^src/', pathNot: '^src/wire/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
