/**
 * Do validate-token, secure-info and userInfo accept the token verify-code returned (unknown
 * 4)? The docs describe them with tokens from the service's browser SDK; the strategy's
 * `enrich` option calls them with verify-code's token.
 */

import type { OtplessClient } from '../client/index.js';
import type { SecureInfo } from '../wire/types.js';
import { attempt, briefly } from './answers.js';
import type { EnrichCall, EnrichmentFinding, Observations } from './types.js';

const CALLS = ['validateToken', 'secureInfo', 'userInfo'] as const;

/**
 * The three calls at once (as the strategy makes them), each read as accepted or not. The risk
 * signals of the two answers that carry them go to `collect` (the risk-values finding).
 */
export async function checkEnrichment(
  client: OtplessClient,
  token: string,
  observed: Observations,
  collect: (signals: SecureInfo | undefined) => void = () => {},
): Promise<EnrichmentFinding> {
  // Whether each call worked, and the risk signals as they came: nothing else it answered.
  const run: Record<(typeof CALLS)[number], () => Promise<unknown>> = {
    validateToken: async () => collect((await client.validateToken(token)).secureInfo),
    secureInfo: async () => collect((await client.getSecureInfo(token)).secure_info),
    userInfo: () => client.getUserInfo(token),
  };
  const results = await Promise.all(CALLS.map((name) => attempt(name, observed, run[name])));
  const calls = Object.fromEntries(
    CALLS.map((name, i) => {
      const result = results[i]!;
      const call: EnrichCall = result.ok ? { accepted: true } : { accepted: false, error: result.answer };
      return [name, call];
    }),
  ) as Record<(typeof CALLS)[number], EnrichCall>;

  const accepted = CALLS.filter((name) => calls[name].accepted);
  const refused = CALLS.filter((name) => calls[name].error?.kind === 'api');
  const failed = CALLS.filter((name) => !calls[name].accepted && calls[name].error?.kind !== 'api');
  const parts = [
    accepted.length > 0 ? `accepted by ${accepted.join(', ')}` : '',
    ...refused.map((name) => `${name} refused it (${briefly(calls[name].error!)})`),
    ...failed.map((name) => `${name} failed (${briefly(calls[name].error!)})`),
  ].filter((part) => part !== '');
  const outcome = failed.length > 0 ? 'failed' : refused.length > 0 ? 'unexpected' : 'expected';
  return { outcome, ...calls, answer: parts.join('; ') };
}
