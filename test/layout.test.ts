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
 * Modules tested through the tests of another, one entry per module by its path under src/ (no
 * folder-wide entry: each module says where it is tested), each with the test file that
 * exercises it. Keep it short: a module with tests of its own leaves this list.
 */
const TESTED_THROUGH: Record<string, string> = {
  // The bot check runs where the send route calls it.
  'botCheck/botCheck.ts': 'test/routes/botGate.test.ts',
  'botCheck/siteverify.ts': 'test/routes/botGate.test.ts',
  // The account check's parts, run end to end against the emulator.
  'check/answers.ts': 'test/check/run.test.ts',
  'check/args.ts': 'test/check/run.test.ts',
  'check/credentials.ts': 'test/check/run.test.ts',
  'check/enrich.ts': 'test/check/run.test.ts',
  'check/landing.ts': 'test/check/run.test.ts',
  'check/linkTwice.ts': 'test/check/unknowns.test.ts',
  'check/recommendUnknowns.ts': 'test/check/unknowns.test.ts',
  'check/riskValues.ts': 'test/check/unknowns.test.ts',
  'check/sessionActivity.ts': 'test/check/unknowns.test.ts',
  'check/verifiedAt.ts': 'test/check/unknowns.test.ts',
  'check/options.ts': 'test/check/run.test.ts',
  'check/paste.ts': 'test/check/listener.test.ts',
  'check/plus.ts': 'test/check/run.test.ts',
  'check/recommend.ts': 'test/check/run.test.ts',
  'check/report.ts': 'test/check/run.quirks.test.ts',
  'check/send.ts': 'test/check/run.test.ts',
  'check/tokenTimestamp.ts': 'test/check/run.test.ts',
  'check/types.ts': 'test/check/run.test.ts',
  'check/verify.ts': 'test/check/run.test.ts',
  'check/wait.ts': 'test/check/run.test.ts',
  // The client's parts, through its calls over a real socket.
  'client/agent.ts': 'test/client/transport.keepalive.test.ts',
  'client/deadline.ts': 'test/client/OtplessClient.faults.test.ts',
  'client/errorBody.ts': 'test/client/OtplessClient.errors.test.ts',
  'client/shapes/check.ts': 'test/client/decode.fuzz.test.ts',
  'client/shapes/codeVerification.ts': 'test/client/decode.test.ts',
  'client/shapes/device.ts': 'test/client/decode.test.ts',
  'client/shapes/identity.ts': 'test/client/decode.test.ts',
  'client/shapes/network.ts': 'test/client/decode.test.ts',
  'client/shapes/secureInfo.ts': 'test/client/decode.test.ts',
  'client/shapes/secureInfoResult.ts': 'test/client/decode.test.ts',
  'client/shapes/sendMagicLink.ts': 'test/client/decode.test.ts',
  'client/shapes/sessionDetails.ts': 'test/client/decode.test.ts',
  'client/shapes/tokenValidation.ts': 'test/client/decode.test.ts',
  'client/shapes/userInfo.ts': 'test/client/decode.test.ts',
  'contact/confusable.ts': 'test/contact/email.standards.test.ts',
  // The store format's keys, pinned as the store holds them.
  'crypto.ts': 'test/flow/seal.test.ts',
  // The emulator's parts, through its HTTP endpoints and the answers' shapes.
  'emulator/devPaths.ts': 'test/emulator/router.shapes.test.ts',
  'emulator/device.ts': 'test/emulator/server.security.test.ts',
  'emulator/handlers/dev.ts': 'test/emulator/router.shapes.test.ts',
  'emulator/handlers/sessionDetails.ts': 'test/emulator/router.shapes.test.ts',
  'emulator/handlers/userInfo.ts': 'test/emulator/router.shapes.test.ts',
  'emulator/handlers/verifyCode.ts': 'test/emulator/router.shapes.test.ts',
  'emulator/hosts.ts': 'test/emulator/router.shapes.test.ts',
  'emulator/http.ts': 'test/emulator/router.shapes.test.ts',
  'emulator/ids.ts': 'test/emulator/router.shapes.test.ts',
  'emulator/issueToken.ts': 'test/emulator/router.shapes.test.ts',
  'emulator/location.ts': 'test/emulator/router.shapes.test.ts',
  'emulator/phone.ts': 'test/emulator/router.shapes.test.ts',
  'emulator/redirect.ts': 'test/emulator/router.shapes.test.ts',
  'emulator/timers.ts': 'test/emulator/router.shapes.test.ts',
  'emulator/validation.ts': 'test/emulator/router.shapes.test.ts',
  'emulator/views.ts': 'test/emulator/router.shapes.test.ts',
  // The error classes: as the client and the routes raise them, and as a consumer imports them.
  'errors/OtplessApiError.ts': 'test/types/errorsConsumer.test.ts',
  'errors/OtplessError.ts': 'test/types/errorsConsumer.test.ts',
  'errors/OtplessInputError.ts': 'test/types/errorsConsumer.test.ts',
  'errors/OtplessNetworkError.ts': 'test/types/errorsConsumer.test.ts',
  'errors/OtplessRequestError.ts': 'test/types/errorsConsumer.test.ts',
  'errors/OtplessResponseError.ts': 'test/types/errorsConsumer.test.ts',
  'errors/OtplessSetupError.ts': 'test/types/errorsConsumer.test.ts',
  'errors/OtplessStateError.ts': 'test/types/errorsConsumer.test.ts',
  'errors/OtplessTimeoutError.ts': 'test/types/errorsConsumer.test.ts',
  'errors/brand.ts': 'test/types/errorsConsumer.test.ts',
  'errors/callbackCodes.ts': 'test/readme/codes.test.ts',
  'errors/codes.ts': 'test/readme/codes.test.ts',
  'errors/flowCodes.ts': 'test/flow/approve.test.ts',
  'errors/guardCodes.ts': 'test/guards/requireLowRisk.test.ts',
  'errors/isOtplessError.ts': 'test/types/errorsConsumer.test.ts',
  // The types of requireLowRisk() and its `req.risk`, and the refetch of stale signals it makes.
  'guards/lowRiskTypes.ts': 'test/guards/requireLowRisk.test.ts',
  'guards/passkeyLogins.ts': 'test/passkey/routes.test.ts',
  'guards/refuse.ts': 'test/guards/requireLowRisk.test.ts',
  'guards/requireIdentity.ts': 'test/guards/requireLowRisk.test.ts',
  'guards/riskRefetch.ts': 'test/guards/requireLowRisk.test.ts',
  // The send limits' counting, windows and options, through SendLimiter.
  // Loading on first use, through the rules that load phone metadata, UTS #46 and the confusables.
  'lazyModule.ts': 'test/contact/phone.test.ts',
  'limits/memoryLimits.ts': 'test/limits/SendLimiter.test.ts',
  'limits/options.ts': 'test/limits/redisLimits.counts.test.ts',
  'limits/wait.ts': 'test/limits/keys.test.ts',
  'login/optionTable.ts': 'test/login/options.test.ts',
  'login/stateWarning.ts': 'test/flow/handoff.sharedState.test.ts',
  // The Nest integration in real Nest apps.
  'nest/OtplessExceptionFilter.ts': 'test/nest/OtplessModule.test.ts',
  'nest/OtplessMount.ts': 'test/nest/OtplessModule.test.ts',
  'nest/guards.ts': 'test/nest/OtplessModule.test.ts',
  'nest/options.ts': 'test/nest/OtplessModule.test.ts',
  // The checks every options table uses, through the tables' defaults and refusals.
  'options/checks.ts': 'test/options/defaults.test.ts',
  'options.ts': 'test/options/unknownOptions.test.ts',
  // Passkeys: the ceremony steps, the grant, the pages and the script, over real HTTP and in Chromium.
  'passkey/authenticationOptions.ts': 'test/passkey/routes.test.ts',
  'passkey/browserScript.ts': 'test/passkey/routes.test.ts',
  'passkey/challenges.ts': 'test/passkey/routes.test.ts',
  'passkey/context.ts': 'test/passkey/routes.test.ts',
  'passkey/credentials.ts': 'test/passkey/routes.test.ts',
  'passkey/grant.ts': 'test/passkey/routes.test.ts',
  'passkey/login.ts': 'test/passkey/routes.test.ts',
  'passkey/manage.ts': 'test/passkey/routes.test.ts',
  'passkey/offerPage.ts': 'test/passkey/routes.test.ts',
  'passkey/options.ts': 'test/passkey/routes.test.ts',
  'passkey/refusals.ts': 'test/passkey/routes.test.ts',
  'passkey/registrationOptions.ts': 'test/passkey/routes.test.ts',
  'passkey/registrationVerify.ts': 'test/passkey/routes.test.ts',
  'passkey/responses.ts': 'test/passkey/routes.test.ts',
  'passkey/webauthn.ts': 'test/passkey/routes.test.ts',
  'risk/signals.ts': 'test/risk/assessRisk.test.ts',
  // The routes the mount serves, over real HTTP.
  'routes/pageRoutes.ts': 'test/routes/mount.test.ts',
  'routes/paths.ts': 'test/routes/mount.test.ts',
  'routes/status.ts': 'test/routes/mount.test.ts',
  'routes/waitingRecord.ts': 'test/routes/mount.test.ts',
  'routes/callbackRoute.ts': 'test/strategy/MagicLinkStrategy.callback.test.ts',
  'routes/send.ts': 'test/strategy/MagicLinkStrategy.send.test.ts',
  'routes/sendInput.ts': 'test/strategy/MagicLinkStrategy.send.test.ts',
  'routes/sendUnit.ts': 'test/strategy/MagicLinkStrategy.send.test.ts',
  'routes/fastify.ts': 'test/examples/fastify.test.ts',
  'session/recordFormat.ts': 'test/session/pending.test.ts',
  'session/recordKeys.ts': 'test/session/pending.test.ts',
  'session/session.ts': 'test/session/pending.test.ts',
  'session/writeOnLogin.ts': 'test/session/pending.test.ts',
  'session/sessionCompat.ts': 'test/session/sealedSignals.test.ts',
  'stores/marks.ts': 'test/stores/memory.test.ts',
  // The strategy's steps, through whole logins.
  'strategy/bindingWarnings.ts': 'test/strategy/MagicLinkStrategy.login.test.ts',
  'strategy/finishLogin.ts': 'test/strategy/MagicLinkStrategy.login.test.ts',
  'strategy/passportBase.ts': 'test/strategy/MagicLinkStrategy.login.test.ts',
  // The pages, their parts and their messages, drawn in a real app.
  'web/form.ts': 'test/web/pages.test.ts',
  'web/host.ts': 'test/web/pages.test.ts',
  'web/messages/en.ts': 'test/web/pages.test.ts',
  'web/messages/es.ts': 'test/web/pages.test.ts',
  'web/messages/hi.ts': 'test/web/pages.test.ts',
  'web/messages/id.ts': 'test/web/pages.test.ts',
  'web/messages/index.ts': 'test/web/pages.test.ts',
  'web/messages/pt-BR.ts': 'test/web/pages.test.ts',
  'web/pageOptions.ts': 'test/web/pages.test.ts',
  'web/pages/approval.ts': 'test/web/pages.test.ts',
  'web/pages/confirm.ts': 'test/web/pages.test.ts',
  'web/pages/context.ts': 'test/web/pages.test.ts',
  'web/pages/document.ts': 'test/web/pages.test.ts',
  'web/pages/error.ts': 'test/web/pages.test.ts',
  'web/pages/forms.ts': 'test/web/pages.test.ts',
  'web/pages/show.ts': 'test/web/pages.test.ts',
  'web/pages/signIn.ts': 'test/web/pages.test.ts',
  'web/pages/waiting.ts': 'test/web/pages.test.ts',
  'web/pages/waitingScript.ts': 'test/web/pages.test.ts',
  'web/request.ts': 'test/web/pages.test.ts',
  'web/theme.ts': 'test/web/pages.test.ts',
  'web/view.ts': 'test/web/pages.test.ts',
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

/** The entry of TESTED_THROUGH for a module. */
function testedThrough(module: string): string | undefined {
  return Object.hasOwn(TESTED_THROUGH, module) ? TESTED_THROUGH[module] : undefined;
}

describe('each src module names its tests', () => {
  const all = modules(join(ROOT, 'src'));

  it('in a test file of its own name, or in the list of modules tested through another', () => {
    const unnamed = all.filter((m) => ownTests(m).length === 0 && !hasNothingToRun(m) && !testedThrough(m));
    expect(unnamed).toEqual([]);
  });

  it('names modules one by one: no entry covers a whole folder', () => {
    expect(Object.keys(TESTED_THROUGH).filter((key) => !key.endsWith('.ts'))).toEqual([]);
  });

  it('every test file the list names exists, and every entry still covers a module without tests of its own', () => {
    for (const test of new Set(Object.values(TESTED_THROUGH))) expect(existsSync(join(ROOT, test)), test).toBe(true);
    const untested = new Set(all.filter((m) => ownTests(m).length === 0 && !hasNothingToRun(m)));
    const covering = Object.keys(TESTED_THROUGH).filter((key) => untested.has(key));
    expect(Object.keys(TESTED_THROUGH).filter((key) => !covering.includes(key))).toEqual([]);
  });
});
