/**
 * Every warning the package gives the operator, written once: its code, the line docs/codes.md
 * shows for it (`doc`, rendered by `npm run docs:warnings`), and its words (`message`, given the
 * details that vary). Emitted through `warnOnce(code, ...details)`. No message may hold a
 * secret, code or token.
 */
export const WARNINGS = {
  OTPLESS_CREDENTIALS: {
    doc: "the service refused this app's clientId / clientSecret",
    message: (f: { endpoint: string; status: number; errorCode: string | undefined }) =>
      `OTPless refused this app's credentials (${f.endpoint}: HTTP ${f.status}` +
      `${f.errorCode === undefined ? '' : `, errorCode ${f.errorCode}`}). ` +
      'Check clientId and clientSecret, and that this OTPless app may use this call; ' +
      'until then every sign-in fails with a 502.',
  },
  OTPLESS_REDIRECT_URI: {
    doc: 'the service refused `callbackUrl` as a redirect URI (errorCode 7108): register it',
    message: () =>
      'OTPless refused the callback URL as redirect_uri (errorCode 7108): register callbackUrl as an allowed ' +
      'redirect URI of this OTPless app; until then every send fails with a 502.',
  },
  OTPLESS_FLOW_PARAM_MISSING: {
    doc: 'the service drops the query of `redirect_uri`; cross-device handoff cannot work',
    message: (flowParam: string) =>
      `passport-otpless: a sign-in link came back without its "${flowParam}" parameter: either the service drops ` +
      'the query of redirect_uri (then cross-device handoff cannot work), or a visitor opened an altered link. ' +
      "Same-browser logins fall back to the service's request id. `npx otpless-check` tells which.",
  },
  OTPLESS_BINDING_FAILED: {
    doc: 'a link came back without its flow parameter and its request id named no send of the browser',
    message: () =>
      "passport-otpless: a link came back without its flow parameter and the service's requestId matched no " +
      'send of the browser: either neither binding holds for this service, or a visitor opened an altered ' +
      'link in another browser. `npx otpless-check` tells which.',
  },
  OTPLESS_REQUEST_ID_DIFFERS: {
    doc: "with `requestIdsDiffer: true`, a verify-code request id was not the send's; binding rests on the flow parameter",
    message: () =>
      "passport-otpless: the service's verify-code requestId is not one the send returned; as requestIdsDiffer " +
      'says, binding rests on the flow parameter alone. Run `npx otpless-check` for details.',
  },
  OTPLESS_STATE_IN_MEMORY: {
    doc: "sessions are in a shared store but flows, used tokens and send limits are in this process's memory: give the strategy `store: redisClient`",
    message: () =>
      'passport-otpless: sessions are in a shared store but sign-in flows, used tokens and send limits are in ' +
      "this process's memory: other instances will not see them. Give the strategy your Redis client: " +
      'new MagicLinkStrategy({ ..., store: redisClient }).',
  },
  OTPLESS_NO_RISK_SIGNALS: {
    doc: "`requireLowRisk()` met a login without risk signals: add `enrich: ['secureInfo']` (or `'validateToken'`) to the strategy",
    message: () =>
      'requireLowRisk() refuses logins without risk signals, and this one has none: the strategy fetched no ' +
      "signals at login. Give MagicLinkStrategy enrich: ['secureInfo'] (or ['validateToken']) so that logins " +
      'carry them; frontend-SDK token logins carry them already.',
  },
  OTPLESS_ORIGIN_DIFFERS: {
    doc: "a send came from a page of another origin than `callbackUrl`'s (`localhost` against `127.0.0.1`): the link returns to another cookie jar, where the browser that asked is not found",
    message: (from: string, expected: string) =>
      `passport-otpless: a link was asked for from ${from}, but links return to ${expected} (callbackUrl), ` +
      'another cookie jar: the browser will not find its sign-in there. Open the app at ' +
      `${expected}, or set callbackUrl to the origin the app is opened at.`,
  },
  OTPLESS_SESSION_COOKIE_NOT_SET: {
    doc: 'a send was answered, but no session cookie was set for a browser that had none (a `secure` cookie over plain http, or no session middleware before the route): the link will not find the browser that asked',
    message: () =>
      'passport-otpless: a link was sent, but the answer set no session cookie, so the browser that asked ' +
      "will not be recognised when the link comes back. Over plain http, a session cookie must not be 'secure' " +
      '(express-session: cookie.secure; @fastify/session: cookie: { secure: false }); check that the session ' +
      'middleware runs before the route.',
  },
  OTPLESS_NO_RECORD_KEY: {
    doc: "a guard read a login record in a process that built no `MagicLinkStrategy`: the record's key is derived from the strategy's store secret, so build the strategy (with the same secret) in every process that guards routes",
    message: () =>
      'passport-otpless: a login record was read in a process where no MagicLinkStrategy was built, so it ' +
      'cannot be checked and counts as none. Build the strategy (with the same storeSecret or client secret) ' +
      'in every process whose routes use the guards.',
  },
  OTPLESS_SERVICE_UNREACHABLE: {
    doc: 'the service could not be reached (a timeout or a network error), whichever route met it: check `authUrl`/`userAuthUrl` and the network, `npx otpless-check`',
    message: () =>
      'passport-otpless: the OTPless service could not be reached (a timeout or a network error): sign-ins fail ' +
      'until it can. Check authUrl/userAuthUrl and the network from this host; `npx otpless-check` tests both.',
  },
  OTPLESS_NOT_SUCCESS: {
    doc: 'the service answered 200 with a `status` other than `SUCCESS`; such logins fail with 502 `SERVICE_NOT_SUCCESS`',
    message: (endpoint: string, serviceStatus: string) =>
      `OTPless ${endpoint} answered with status "${serviceStatus}" instead of SUCCESS; such answers are ` +
      'refused (502 SERVICE_NOT_SUCCESS). Subscribe to passport-otpless:service:not-success to count them.',
  },
  OTPLESS_TOKEN_TIME_UNKNOWN: {
    doc: 'validate-token gave no readable `verifiedAt` and only a `timestamp` of unknown meaning: frontend-token logins are refused (`TOKEN_REJECTED`); run `otpless-check`',
    message: () =>
      'OTPless validate-token answered without verifiedAt, and what its `timestamp` stamps is not known: ' +
      'frontend-token logins are refused (TOKEN_REJECTED). Run `npx otpless-check` against the real service ' +
      'to learn whether `timestamp` is the sign-in time (see docs/service-facts.md).',
  },
  OTPLESS_TOKEN_REPLAYABLE: {
    doc: "validate-token's identity `verifiedAt` dates each answer (learned at run time, or `tokenVerifiedAt: 'answer'`): a used frontend-SDK token would read as fresh again, so every frontend-token login is refused (`TOKEN_REJECTED`)",
    message: () =>
      'OTPless validate-token stamps verifiedAt at the time of each answer, not at the sign-in: a used ' +
      'frontend-SDK token would sign in again once its used mark lapsed, so frontend-token logins are ' +
      'refused (TOKEN_REJECTED). Magic-link logins are unaffected. Run `npx otpless-check` against the ' +
      "real service; if it finds verifiedAt dates the sign-in, set tokenVerifiedAt: 'signIn' " +
      '(see docs/service-facts.md).',
  },
  OTPLESS_SESSION_RESENT: {
    doc: "the session plugin saved and sent again a session the waiting page's poll did not change (`@fastify/session`'s default `rolling: true`): a poll answered after a login in another tab puts the session from before the login back; register it with `rolling: false`",
    message: () =>
      "passport-otpless: the session plugin sent the session's cookie again on a waiting page's poll that " +
      "changed nothing (@fastify/session's default rolling: true). A poll answered after a login in another " +
      'tab then puts the session from before the login back in the browser (signed out again). Register ' +
      '@fastify/session with rolling: false (see docs/frameworks.md).',
  },
  OTPLESS_SCANNER_SIGNS_IN: {
    doc: "a strategy was made with `crossDevice: 'accept'` and no `confirm: true`: a mail scanner's GET of a link signs the scanner in and spends the code; add `confirm: true` or keep `'handoff'`",
    message: () =>
      "passport-otpless: crossDevice: 'accept' without confirm: true signs in whatever opens a link first, " +
      "a mail scanner's GET included (the code is spent, the person's click then fails). Add confirm: true, " +
      "or keep crossDevice: 'handoff' (the default).",
  },
} as const;

/** The emulator's own warnings: it imports none of the library, so its words stay in src/emulator/. */
export const EMULATOR_WARNINGS = {
  OTPLESS_EMULATOR_EXPOSED: { doc: 'the emulator listens on a non-loopback address' },
} as const;

/** A code of the package's operator warnings. */
export type WarningCode = keyof typeof WARNINGS;

/** Codes already warned about in this process. */
const warned = new Set<string>();

/**
 * Tells the operator about a setup problem once per process (per `code`), through
 * `process.emitWarning` with type `PassportOtplessWarning` and that code: it shows on stderr by
 * default and reaches `process.on('warning')`.
 *
 * @returns true when this call emitted the warning
 * @example
 * process.on('warning', (w) => { if (w.name === 'PassportOtplessWarning') log.error(w.message) });
 */
export function warnOnce<C extends WarningCode>(
  code: C,
  ...details: Parameters<(typeof WARNINGS)[C]['message']>
): boolean {
  if (warned.has(code)) return false;
  warned.add(code);
  const message = (WARNINGS[code].message as (...args: unknown[]) => string)(...details);
  process.emitWarning(message, { type: 'PassportOtplessWarning', code });
  return true;
}
