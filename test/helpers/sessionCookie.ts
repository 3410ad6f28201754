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
