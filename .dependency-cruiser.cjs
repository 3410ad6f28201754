/**
 * The layering of src/, checked in CI (`npm run check:layers`). Every room (a folder, or a file
 * at the root of src/) has one rule below naming what it may import of ours; arrows run down
 * only, and no two folders import each other (no folder-level cycle).
 *
 *   index.ts (the package root)                        nest/ (passport-otpless/nest)
 *      |                                                  |
 *   strategy/   MagicLinkStrategy: the Passport adapter and the callback's steps
 *      |                                                  |
 *   routes/     send, status, pages, the callback route, the one mount, Fastify
 *      |                  guards/   requireLowRisk, requireIdentity, requireServiceSession
 *      |                    |
 *   login/      what the login shares: its options and their table, the composition root,
 *      |        service failures, send-limit glue, enrichment, setup warnings
 *      |
 *   client/  (the typed client)    flow/ (cross-device flows)    limits/ (send limits)
 *      |
 *   session/ (the login record, pending sends)    stores/ (flows and used tokens)
 *      |
 *   web/        pages, messages, host adapters, request helpers
 *      |
 *   risk/  botCheck/  contact/  diagnostics.ts
 *      |
 *   errors/     every code: error classes, callback, guard and flow codes, operator warnings
 *      |
 *   wire/  options/  options.ts  crypto.ts  boundedMemo.ts  lazyModule.ts   (import nothing above)
 *
 *   Beside the library: emulator/ shares only the wire types (and the option checker) with it,
 *   so a client bug cannot hide behind the same bug in the emulator; check/ (otpless-check)
 *   uses the service through the client, as an app would. Nothing of the library imports either.
 *
 * Data flows one way: strategy -> login -> client -> service; guards -> risk.
 */

/** A room's path pattern: `'login'` is the folder src/login/, `'crypto.ts'` the file src/crypto.ts. */
function pathOf(room) {
  return room.endsWith('.ts') ? `^src/${room.replace('.', '\\.')}$` : `^src/${room}/`;
}

/**
 * The rule of one room: it may import itself and `may`, nothing else of src/. `may` holds rooms,
 * or a path pattern (starting with ^) for one part of a room.
 */
function room(name, may, comment) {
  return {
    name: `${name.replace(/\.ts$/, '').replace(/\//g, '-')}-imports`,
    severity: 'error',
    comment,
    from: { path: pathOf(name) },
    to: { path: '^src/', pathNot: [pathOf(name), ...may.map((r) => (r.startsWith('^') ? r : pathOf(r)))] },
  };
}

/** Every room; a new folder of src/ gets its rule here (the last rule fails until it has one). */
const ROOMS = [
  room(
    'index.ts',
    [
      'strategy',
      'routes',
      'guards',
      'login',
      'client',
      'flow',
      'limits',
      'session',
      'stores',
      'web',
      'risk',
      'botCheck',
      'contact',
      'diagnostics.ts',
      'errors',
      'wire',
    ],
    'The package root re-exports the library: never the emulator or the account check.',
  ),
  room(
    'nest',
    ['routes', 'guards', 'login', 'web', 'errors', 'wire', 'options.ts'],
    'The NestJS module mounts the routes and wraps the guards; it takes the strategy as an argument, never imports it.',
  ),
  room(
    'strategy',
    [
      'routes',
      'login',
      'client',
      'flow',
      'session',
      'stores',
      'web',
      'risk',
      'contact',
      'diagnostics.ts',
      'errors',
      'wire',
      'crypto.ts',
    ],
    'The Passport adapter: its send()/status() hand over to routes/; what the login shares comes from login/.',
  ),
  room(
    'routes',
    [
      'login',
      'flow',
      'limits',
      'session',
      'web',
      'botCheck',
      'contact',
      'diagnostics.ts',
      'errors',
      'wire',
      'options',
      'options.ts',
      'crypto.ts',
      'boundedMemo.ts',
    ],
    'The routes read the login through login/ (setupOf), never the strategy class, the guards or Nest.',
  ),
  room(
    'guards',
    [
      'login',
      'client',
      'session',
      'web',
      'risk',
      'diagnostics.ts',
      'errors',
      'wire',
      'options',
      'options.ts',
      'boundedMemo.ts',
    ],
    'Guards read the login record through session/ and the setup through login/; nothing of the strategy or routes.',
  ),
  room(
    'login',
    [
      'client',
      'flow',
      'limits',
      'session',
      'stores',
      'web',
      'risk',
      'botCheck',
      'contact',
      'diagnostics.ts',
      'errors',
      'wire',
      'options',
      'options.ts',
      'crypto.ts',
    ],
    'What the strategy, the routes and the guards share sits below all three: it imports none of them.',
  ),
  room(
    'client',
    ['contact', 'diagnostics.ts', 'errors', 'wire', 'options', 'options.ts'],
    'The client knows nothing of the login, sessions, web helpers, flows or stores.',
  ),
  room(
    'flow',
    ['session', 'stores', 'web', 'diagnostics.ts', 'errors', 'wire', 'crypto.ts'],
    'Cross-device flows keep their records in stores/ and answer through web/.',
  ),
  room(
    'limits',
    ['stores', 'contact', 'errors', 'options', 'options.ts', 'crypto.ts', 'lazyModule.ts'],
    'Send limits count in memory or in the Redis the stores use.',
  ),
  room(
    'session',
    ['web', 'risk', 'errors', 'wire', 'options', 'options.ts', 'crypto.ts', 'boundedMemo.ts'],
    'The login record and pending sends: session data and the risk signals it keeps.',
  ),
  room(
    'stores',
    ['^src/web/messages/', 'errors', 'options', 'options.ts'],
    'Stores of flows and used tokens: only the English catalogue of web/ for their one error message.',
  ),
  room(
    'web',
    ['botCheck', 'errors', 'options', 'options.ts'],
    'Pages, messages and host helpers know nothing of the login: they render what they are given.',
  ),
  room('risk', ['wire', 'options', 'options.ts'], 'Risk is a pure decision over the wire signals.'),
  room('botCheck', ['errors', 'options', 'options.ts'], 'The bot check is a provider call the send route makes.'),
  room('contact', ['lazyModule.ts'], 'Phone and e-mail rules, over the libraries they load on first use.'),
  room(
    'diagnostics.ts',
    ['errors', 'wire'],
    'The channels name their events with the vocabulary of errors/ and wire/.',
  ),
  room('errors', ['wire'], 'The vocabulary: every code, error class and warning; it imports only the wire names.'),
  room('options', ['options.ts'], 'The option tables every entry point checks its options with.'),
  room('wire', [], 'The wire types import nothing of ours.'),
  room('options.ts', [], 'The option error every table raises: imports nothing of ours.'),
  room('crypto.ts', [], 'Key derivation and sealing: imports nothing of ours.'),
  room('boundedMemo.ts', [], 'A bounded map helper: imports nothing of ours.'),
  room('lazyModule.ts', [], 'Loading a dependency on first use: imports nothing of ours.'),
  room(
    'emulator',
    ['wire', 'options.ts'],
    'The emulator imports nothing of ours but the wire types (and the option checker), so a client bug cannot hide behind the same bug in the emulator.',
  ),
  room(
    'check',
    ['client', 'wire', 'errors', '^src/flow/handoff\\.ts$'],
    'otpless-check tests the service through the client, as an app would; from flow/ only FLOW_PARAM (handoff.ts).',
  ),
];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles between files anywhere in src/.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle',
      severity: 'error',
      scope: 'folder',
      comment: 'No two folders of src/ import each other, directly or through others.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...ROOMS,
    {
      name: 'every-room-has-a-rule',
      severity: 'error',
      comment: 'A file or folder of src/ without a rule above imports nothing of ours until it gets one.',
      from: { path: '^src/', pathNot: ROOMS.map((r) => r.from.path) },
      to: { path: '^src/' },
    },
    {
      name: 'risk-is-pure',
      severity: 'error',
      comment: 'Risk imports nothing of HTTP: a pure function of the signals and the policy.',
      from: { path: '^src/risk/' },
      to: { path: ['^(node:)?https?$', 'undici'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
