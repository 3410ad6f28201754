// Every module of src/ names its tests: test/<its path>.test.ts (or test/<its path>.<aspect>.test.ts
// where one module has several), so whoever changes a module finds its tests by its name. A
// module with nothing to run (re-exports, types) needs none; a module tested through another's
// tests is listed below with the file that tests it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

/**
 * Modules tested through the tests of another, by path under src/ (a folder ends in `/` and
 * covers the modules under it that have no test file of their own), each with the test file
 * that exercises it. Keep it short: a module with tests of its own leaves this list.
 */
const TESTED_THROUGH: Record<string, string> = {
  // The bot check runs where the send route calls it.
  'botCheck/': 'test/routes/botGate.test.ts',
  // The account check's parts, run end to end against the emulator.
  'check/': 'test/check/run.test.ts',
  // The client's parts, through its calls over a real socket.
  'client/agent.ts': 'test/client/transport.keepalive.test.ts',
  'client/deadline.ts': 'test/client/OtplessClient.faults.test.ts',
  'client/errorBody.ts': 'test/client/OtplessClient.errors.test.ts',
  'client/shapes/': 'test/client/decode.test.ts',
  'contact/confusable.ts': 'test/contact/email.standards.test.ts',
  // The store format's keys, pinned as the store holds them.
  'crypto.ts': 'test/flow/seal.test.ts',
  // The emulator's parts, through its HTTP endpoints and the answers' shapes.
  'emulator/': 'test/emulator/router.shapes.test.ts',
  // The error classes: as the client and the routes raise them, and as a consumer imports them.
  'errors/': 'test/types/errorsConsumer.test.ts',
  // The types of requireLowRisk() and its `req.risk`, and the refetch of stale signals it makes.
  'guards/lowRiskTypes.ts': 'test/guards/requireLowRisk.test.ts',
  'guards/refuse.ts': 'test/guards/requireLowRisk.test.ts',
  'guards/requireIdentity.ts': 'test/guards/requireLowRisk.test.ts',
  'guards/requireServiceSession.ts': 'test/strategy/sessionToken.test.ts',
  'guards/riskRefetch.ts': 'test/guards/requireLowRisk.test.ts',
  // The send limits' counting, windows and options, through SendLimiter.
  // Loading on first use, through the rules that load phone metadata, UTS #46 and the confusables.
  'lazyModule.ts': 'test/contact/phone.test.ts',
  'limits/': 'test/limits/SendLimiter.test.ts',
  'login/compose.ts': 'test/routes/mount.test.ts',
  'login/optionTable.ts': 'test/login/options.test.ts',
  'login/stateWarning.ts': 'test/flow/handoff.sharedState.test.ts',
  // The Nest integration in real Nest apps.
  'nest/': 'test/nest/OtplessModule.test.ts',
  // The checks every options table uses, through the tables' defaults and refusals.
  'options/checks.ts': 'test/options/defaults.test.ts',
  'options.ts': 'test/options/unknownOptions.test.ts',
  'risk/signals.ts': 'test/risk/assessRisk.test.ts',
  // The routes the mount serves, over real HTTP.
  'routes/': 'test/routes/mount.test.ts',
  'routes/callbackRoute.ts': 'test/strategy/MagicLinkStrategy.callback.test.ts',
  'routes/send.ts': 'test/strategy/MagicLinkStrategy.send.test.ts',
  'routes/sendInput.ts': 'test/strategy/MagicLinkStrategy.send.test.ts',
  'routes/sendUnit.ts': 'test/strategy/MagicLinkStrategy.send.test.ts',
  'routes/fastify.ts': 'test/examples/fastify.test.ts',
  'session/': 'test/session/pending.test.ts',
  'session/sessionCompat.ts': 'test/session/sealedSignals.test.ts',
  'stores/marks.ts': 'test/stores/memory.test.ts',
  // The strategy's steps, through whole logins.
  'strategy/': 'test/strategy/MagicLinkStrategy.login.test.ts',
  // The pages, their parts and their messages, drawn in a real app.
  'web/': 'test/web/pages.test.ts',
  'wire/endpoints.ts': 'test/emulator/router.test.ts',
  'wire/serviceErrors.ts': 'test/emulator/errors.test.ts',
  // The dropped-members mark the client's reading leaves on an answer.
  'wire/types.ts': 'test/client/decode.strictTimes.test.ts',
};

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return modules(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [relative(join(ROOT, 'src'), path)] : [];
  });
}

/** Nothing to run: every statement re-exports, imports or declares a type. */
function hasNothingToRun(module: string): boolean {
  const text = readFileSync(join(ROOT, 'src', module), 'utf8');
  const source = ts.createSourceFile(module, text, ts.ScriptTarget.Latest);
  return source.statements.every(
    (s) =>
      (ts.isExportDeclaration(s) && s.moduleSpecifier !== undefined) ||
      (ts.isImportDeclaration(s) && s.importClause?.isTypeOnly === true) ||
      ts.isInterfaceDeclaration(s) ||
      ts.isTypeAliasDeclaration(s),
  );
}

/** test/<path>.test.ts or test/<path>.<aspect>.test.ts for src/<path>.ts. */
function ownTests(module: string): string[] {
  const base = module.replace(/\.ts$/, '');
  const dir = join(ROOT, 'test', base, '..');
  const name = base.split('/').at(-1)!;
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter(
    (file) => file === `${name}.test.ts` || (file.startsWith(`${name}.`) && file.endsWith('.test.ts')),
  );
}

/** The most specific entry of TESTED_THROUGH for a module. */
function testedThrough(module: string): string | undefined {
  const keys = Object.keys(TESTED_THROUGH).filter((key) =>
    key.endsWith('/') ? module.startsWith(key) : module === key,
  );
  const longest = keys.sort((a, b) => b.length - a.length)[0];
  return longest === undefined ? undefined : TESTED_THROUGH[longest];
}

describe('each src module names its tests', () => {
  const all = modules(join(ROOT, 'src'));

  it('in a test file of its own name, or in the list of modules tested through another', () => {
    const unnamed = all.filter((m) => ownTests(m).length === 0 && !hasNothingToRun(m) && !testedThrough(m));
    expect(unnamed).toEqual([]);
  });

  it('every test file the list names exists, and every entry still covers a module without tests of its own', () => {
    for (const test of new Set(Object.values(TESTED_THROUGH))) expect(existsSync(join(ROOT, test)), test).toBe(true);
    const covering = Object.keys(TESTED_THROUGH).filter((key) =>
      all.some(
        (m) =>
          ownTests(m).length === 0 &&
          !hasNothingToRun(m) &&
          (key.endsWith('/') ? m.startsWith(key) : m === key) &&
          testedThrough(m) === TESTED_THROUGH[key],
      ),
    );
    expect(Object.keys(TESTED_THROUGH).filter((key) => !covering.includes(key))).toEqual([]);
  });
});
