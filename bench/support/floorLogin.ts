/**
 * The same-work floor's callback, host-neutral (bench/support/floorExpressChild.ts and
 * floorFastifyChild.ts mount it): per login exactly the checks the strategy makes, each in its
 * simplest correct form, written as a careful engineer would without the package.
 *
 * 1. Take the pending send the link names out of the session, before verifying: the sends are
 *    kept as the strategy's send route wrote them (the flow id sealed with AES-256-GCM, opened
 *    with node:crypto in bench/support/pendingBinding.ts, nothing remembered between requests).
 * 2. Verify the code with undici (one keep-alive Agent) against the emulator.
 * 3. Check the answer minimally: HTTP 200, `userDetails.status === 'SUCCESS'`, a token, a
 *    verified identity, and a request id the send got (its hash among the send's).
 * 4. Mark the token used: a Map of token to expiry, swept every 30 s (not per request); a token
 *    already there is refused.
 * 5. The host logs the user in (Passport), then writes a login record bound by one HMAC-SHA256
 *    over the key id, the session id, the serialized user and the record's fields.
 *
 * It imports nothing of the package (nor of the test harness, which loads it).
 */
import { createHmac } from 'node:crypto';
import { Agent, request } from 'undici';
import { findPending, recordKeyOf, requestIdMatches, type StoredPending } from './pendingBinding.js';

export interface FloorArgs {
  authUrl: string;
  clientId: string;
  clientSecret: string;
}

/** The user the floor logs in (the harness's verify gives the same fields for an e-mail login). */
export interface FloorUser {
  id: string;
  email?: string;
}

interface VerifyAnswer {
  requestId?: unknown;
  userDetails?: {
    status?: unknown;
    token?: unknown;
    identities?: Array<{ identityType?: unknown; identityValue?: unknown; verified?: unknown }>;
  };
}

/** How long a used mark lives: the strategy's default maximum login age plus its clock skew. */
const USED_MS = 300_000 + 60_000;

export function floorLogin(args: FloorArgs) {
  const agent = new Agent({ connections: 64 });
  const verifyUrl = `${args.authUrl}/auth/v1/verify/code`;
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json',
    clientId: args.clientId,
    clientSecret: args.clientSecret,
  };
  const recordKey = recordKeyOf(args.clientSecret);
  const used = new Map<string, number>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [token, until] of used) if (until <= now) used.delete(token);
  }, 30_000);
  sweep.unref();

  return {
    /** The live send this flow id names and what stays in the session beside it, or `undefined`. */
    take(list: unknown, flow: unknown): { found: StoredPending; rest: StoredPending[] } | undefined {
      return findPending(list, flow, recordKey);
    },

    /** Verifies the code for this send: the user, or the refusal's status. */
    async verify(code: unknown, pending: StoredPending): Promise<FloorUser | number> {
      if (typeof code !== 'string' || code === '') return 400;
      const res = await request(verifyUrl, {
        dispatcher: agent,
        method: 'POST',
        headers,
        body: JSON.stringify({ code }),
      });
      if (res.statusCode !== 200) {
        await res.body.dump();
        return 401;
      }
      const answer = (await res.body.json()) as VerifyAnswer;
      const details = answer.userDetails;
      if (details?.status !== 'SUCCESS') return 401;
      const token = details.token;
      if (typeof token !== 'string' || token === '') return 401;
      const identity = details.identities?.find((i) => i.verified === true && typeof i.identityValue === 'string');
      if (!identity) return 401;
      if (typeof answer.requestId !== 'string' || !requestIdMatches(pending, answer.requestId)) return 403;
      if (used.has(token)) return 401;
      used.set(token, Date.now() + USED_MS);
      const value = identity.identityValue as string;
      return identity.identityType === 'EMAIL' ? { id: value, email: value } : { id: value };
    },

    /** The login record for this user in this session: its fields and one HMAC binding them. */
    record(user: FloorUser, sessionId: string): object {
      const verified = [user.email === undefined ? 'MOBILE' : 'EMAIL'];
      const b = createHmac('sha256', recordKey.key)
        .update(JSON.stringify([recordKey.id, sessionId, JSON.stringify(user), user.id, verified]))
        .digest('base64url');
      return { v: 2, id: user.id, verified, k: recordKey.id, b };
    },

    close: () => agent.close(),
  };
}
