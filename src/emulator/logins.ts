import type { DeliveryMethod, IdentityType } from '../wire/types.js';
import type { EmulatorContext } from './context.js';
import { DEFAULT_USER_AGENT, deviceInfoFor, type BrowserSeen } from './device.js';
import { randomId, userIdFor } from './ids.js';
import { networkFor } from './location.js';
import type { RiskScenario } from './scenarios.js';
import type { Completion, Login, LoginIdentity } from './store.js';
import { normalizeEmail } from './validation.js';

/** A completed login. */
export type CompletedLogin = Login & { completion: Completion };

/** The browser of a login until a click tells otherwise (and of issueToken logins): a documentation address (RFC 5737). */
export const DEFAULT_BROWSER: BrowserSeen = { userAgent: DEFAULT_USER_AGENT, ip: '203.0.113.7', language: 'en-US' };

/** The channels a mobile link can be sent by (`channel` of the send); WHATSAPP is the default. */
export type PhoneChannel = Extract<DeliveryMethod, 'WHATSAPP' | 'SMS'>;
export const PHONE_CHANNELS: readonly PhoneChannel[] = ['WHATSAPP', 'SMS'];

/**
 * The identities of a login, mobile first (the order the user id is taken from). Mobile links
 * are "delivered" by `phoneChannel`, e-mail links by e-mail.
 */
export function identitiesOf(
  mobileNumber: string | undefined,
  email: string | undefined,
  phoneChannel: PhoneChannel = 'WHATSAPP',
): LoginIdentity[] {
  const identities: LoginIdentity[] = [];
  if (mobileNumber) identities.push({ type: 'MOBILE', value: mobileNumber, method: phoneChannel });
  if (email) identities.push({ type: 'EMAIL', value: normalizeEmail(email), method: 'EMAIL' });
  return identities;
}

interface NewLogin {
  clientId: string;
  identities: readonly LoginIdentity[];
  scenario: RiskScenario;
  link?: { id: string; redirectUri: string; expiresAt: number };
  /** Default: a new random id. */
  requestId?: string;
}

/** A pending login, not yet in the store. The user is the first identity's (mobile before e-mail). */
export function newLogin(ctx: EmulatorContext, spec: NewLogin): Login {
  const now = ctx.clock.now();
  const first = spec.identities[0];
  if (!first) throw new TypeError('a login needs at least one identity');
  return {
    clientId: spec.clientId,
    requestId: spec.requestId ?? newRequestId(),
    sessionToken: randomId(32),
    userId: userIdFor(first.type, first.value),
    identities: spec.identities,
    createdAt: now,
    ...(spec.link ? { link: spec.link } : {}),
    codeUsed: false,
    scenario: spec.scenario,
    seen: DEFAULT_BROWSER,
    lastActiveAt: now,
    cache: {},
  };
}

/** An opaque request id, as the send answers it. */
export function newRequestId(): string {
  return randomId(16);
}

/** Completes a login: issues its token and fixes its device and network details. */
export function completeLogin(
  ctx: EmulatorContext,
  login: Login,
  unverified: ReadonlySet<IdentityType> = new Set(),
): CompletedLogin {
  const now = ctx.clock.now();
  ctx.store.complete(login, {
    token: randomId(32),
    completedAt: now,
    tokenExpiresAt: now + ctx.tokenTtlMs,
    device: deviceInfoFor(login.seen, login.scenario),
    network: networkFor(login.seen.ip, login.scenario),
    unverified,
  });
  return login as CompletedLogin;
}

/** Checks a list of identity types (nextLogin, issueToken); throws a TypeError naming `where`. */
export function identityTypeSet(value: unknown, where: string): ReadonlySet<IdentityType> {
  if (value === undefined) return new Set();
  if (!Array.isArray(value) || value.some((type) => type !== 'MOBILE' && type !== 'EMAIL')) {
    throw new TypeError(`${where}: unverified must be an array of 'MOBILE' and/or 'EMAIL'`);
  }
  return new Set(value as IdentityType[]);
}

export type TokenLookup = { login: CompletedLogin } | { problem: 'invalid' | 'expired' };

/**
 * Finds the live login of a token for this client; marks it active. With the
 * `rejectVerifyTokenOnEnrich` quirk, tokens that verify-code returned are unknown here.
 */
export function lookupToken(ctx: EmulatorContext, clientId: string, token: string | undefined): TokenLookup {
  const login = token === undefined ? undefined : ctx.store.findByToken(token);
  // Another client's token is as unknown to this client as a made-up one.
  if (!login?.completion || login.clientId !== clientId) return { problem: 'invalid' };
  if (ctx.quirks.rejectVerifyTokenOnEnrich && login.link !== undefined) return { problem: 'invalid' };
  const now = ctx.clock.now();
  if (now >= login.completion.tokenExpiresAt) return { problem: 'expired' };
  login.lastActiveAt = now;
  return { login: login as CompletedLogin };
}
