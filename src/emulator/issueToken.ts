import type { EmulatorContext } from './context.js';
import { completeLogin, identitiesOf, identityTypeSet, newLogin } from './logins.js';
import { isRiskScenario, RISK_SCENARIOS } from './scenarios.js';
import type { IssueTokenOptions } from './types.js';
import { isValidEmail, isValidMobile } from './validation.js';

const DEFAULT_EMAIL = 'emulator.user@example.com';

/** Simulates the frontend SDK: a completed login, returned by its token. Throws TypeError on bad options. */
export function issueToken(ctx: EmulatorContext, options: IssueTokenOptions = {}): string {
  const { mobileNumber, risk = 'clean' } = options;
  const email = options.email ?? (mobileNumber === undefined ? DEFAULT_EMAIL : undefined);
  if (mobileNumber !== undefined && !isValidMobile(mobileNumber)) {
    throw new TypeError('issueToken: mobileNumber must be 8 to 15 digits with country code, no plus sign');
  }
  if (email !== undefined && !isValidEmail(email.trim()))
    throw new TypeError('issueToken: email is not a valid address');
  if (!isRiskScenario(risk)) throw new TypeError(`issueToken: risk must be one of ${RISK_SCENARIOS.join(', ')}`);
  const unverified = identityTypeSet(options.unverified, 'issueToken');
  const clientId = options.clientId ?? ctx.clients.clients[0]?.clientId ?? '';
  if (!ctx.clients.has(clientId)) throw new TypeError(`issueToken: clientId "${clientId}" is not a configured client`);

  const login = newLogin(ctx, { clientId, identities: identitiesOf(mobileNumber, email), scenario: risk });
  ctx.store.add(login, ctx.clock.now());
  return completeLogin(ctx, login, unverified).completion.token;
}
