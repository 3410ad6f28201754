import Keygrip from 'keygrip';
import type { Response as SupertestResponse } from 'supertest';

/** The harness's cookie-session cookie (`sess`) of a response, decoded as anyone holding it can. */
export function sessionCookie<T = Record<string, unknown>>(res: SupertestResponse): T {
  const set = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const value = set
    .find((c) => c.startsWith('sess='))
    ?.split(';')[0]
    ?.slice('sess='.length);
  if (!value) throw new Error('no session cookie set');
  return JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as T;
}

/** A cookie header carrying `session`, signed with the harness's cookie key as cookie-session signs it. */
export function signedSessionCookie(session: unknown): string {
  const value = Buffer.from(JSON.stringify(session)).toString('base64');
  const sig = new Keygrip(['harness-cookie-key']).sign(`sess=${value}`);
  return `sess=${value}; sess.sig=${sig}`;
}
