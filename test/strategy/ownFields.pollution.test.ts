// Own properties only: with Object.prototype polluted elsewhere in the app, no field the package
// reads from a body, a query or a session comes from the prototype. One test per kind of
// reading site. Each test pollutes and cleans up in `finally` (files of a worker run one by one).
import expressSession from 'express-session';
import { describe, expect, it } from 'vitest';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';
import { loginVia } from '../helpers/harness.js';

const shared = useSharedEmulator();
const proto = Object.prototype as Record<string, unknown>;

async function polluted<T>(key: string, value: unknown, run: () => Promise<T>): Promise<T> {
  proto[key] = value;
  try {
    return await run();
  } finally {
    delete proto[key];
  }
}

describe('a polluted Object.prototype', () => {
  it('is no JSON body field: a victim posting {} is not signed in with a token the prototype holds', async () => {
    const h = await shared.harness({ session: 'express' });
    const attackers = shared.emulator().issueToken({ email: 'pollution-attacker@example.com' });
    const victim = h.browser();
    const res = await polluted('token', attackers, () =>
      victim.post('/auth/callback').set('accept', 'application/json').send({}),
    );
    expect(res.status).not.toBe(302);
    expect((await victim.get('/me')).status).toBe(401);
  });

  it('is no send field: a body without an address sends nothing', async () => {
    const h = await shared.harness({ session: 'express' });
    const before = h.emulator.outbox().length;
    const res = await polluted('email', 'pollution-target@example.com', () =>
      h.browser().post('/auth/magic-link').set('accept', 'application/json').send({ nothing: '' }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_INPUT');
    expect(h.emulator.outbox().length).toBe(before);
  });

  it('is no query parameter: a callback without a code reads none', async () => {
    const h = await shared.harness({ session: 'express' });
    const res = await polluted('code', 'pollution-code', () =>
      h.browser().get('/auth/callback').set('accept', 'application/json'),
    );
    // No code, no flow of this browser: refused before the service is asked.
    expect(res.status).toBe(400);
  });

  it('is no session value: a returnTo the prototype holds is not written into the login session', async () => {
    const store = new expressSession.MemoryStore();
    const h = await shared.harness({ session: 'express', sessionStore: store });
    const browser = h.browser();
    const res = await polluted('returnTo', '/polluted', () =>
      loginVia(h, browser, { email: 'pollution-return@example.com' }),
    );
    expect(res.status).toBe(302);
    const sessions = await new Promise<Record<string, Record<string, unknown>>>((resolve, reject) =>
      store.all((err, all) =>
        err ? reject(err as Error) : resolve((all ?? {}) as unknown as Record<string, Record<string, unknown>>),
      ),
    );
    const loggedIn = Object.values(sessions).filter((s) => s.otpless !== undefined);
    expect(loggedIn).toHaveLength(1);
    expect(Object.hasOwn(loggedIn[0]!, 'returnTo')).toBe(false);
  });
});
