import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import { Authenticator } from '@fastify/passport';
import fastifySecureSession from '@fastify/secure-session';
import fastifySession from '@fastify/session';
import Fastify from 'fastify';
import { escapeHtml } from '../../src/web/pages/index.js';
import { MagicLinkStrategy, otplessFastify } from '../../src/index.js';
import type { Emulator } from '../../src/emulator/index.js';

/**
 * A small native Fastify app for the browser run of the handoff: @fastify/passport on either
 * session plugin with `otplessFastify()`, set up as docs/frameworks.md shows, plus the pages a
 * person sees (the sign-in form, the waiting page with the number, the account page).
 */

export type FastifySessionKind = '@fastify/session' | '@fastify/secure-session';

export interface FastifyApp {
  url: string;
  close(): Promise<void>;
}

interface User {
  id: string;
}

function layout(title: string, body: string, script = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
${script}
<style>
  body { font-family: system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1d2330; }
  main { max-width: 28rem; margin: 3rem auto; background: #fff; padding: 2rem; border-radius: .75rem;
    box-shadow: 0 1px 3px rgba(0,0,0,.12); }
  h1 { font-size: 1.5rem; margin-top: 0; }
  label { display: block; font-weight: 600; margin-bottom: .25rem; }
  input { font-size: 1.1rem; padding: .5rem; width: 100%; box-sizing: border-box; }
  button { margin-top: 1rem; font-size: 1rem; padding: .6rem 1rem; }
  .number { font-size: 3rem; font-weight: 700; letter-spacing: .2em; text-align: center; margin: .5rem 0; }
</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

// The waiting page asks /auth/status every second and goes to the callback once the phone approved.
const WAITING_SCRIPT = `(() => {
  const box = document.querySelector('[data-status-url]');
  const tick = async () => {
    try {
      const res = await fetch(box.dataset.statusUrl, { headers: { accept: 'application/json' } });
      const { status } = await res.json();
      if (status === 'approved') return location.assign(box.dataset.doneUrl);
      if (status !== 'pending') return location.reload();
    } catch {}
    setTimeout(tick, 1000);
  };
  setTimeout(tick, 1000);
})();
`;

/** Starts the app on 127.0.0.1, port 0, against the emulator. */
export async function startFastifyApp(
  emulator: Emulator,
  client: object,
  session: FastifySessionKind,
): Promise<FastifyApp> {
  // A server on port 0 first: the strategy needs its callback URL before the app exists.
  const http = createServer();
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  const strategy = new MagicLinkStrategy(
    {
      ...(client as { clientId: string; clientSecret: string }),
      authUrl: emulator.authUrl,
      userAuthUrl: emulator.userAuthUrl,
      callbackUrl: `${url}/auth/callback`,
      channel: 'SMS',
      enrich: ['secureInfo'],
    },
    async (profile): Promise<User> => ({ id: profile.id }),
  );
  const server = Fastify({ serverFactory: (handler) => http.on('request', handler) });
  const passport = new Authenticator();
  if (session === '@fastify/session') {
    await server.register(fastifyCookie);
    await server.register(fastifySession, {
      secret: 'e2e-fastify-session-secret-0123456789',
      cookie: { secure: false, path: '/' },
      saveUninitialized: false,
      rolling: false, // as docs/frameworks.md says
    });
    await server.register(otplessFastify());
  } else {
    await server.register(fastifySecureSession, { key: Buffer.alloc(32, 9), cookie: { path: '/', httpOnly: true } });
    await server.register(otplessFastify({ secret: 'e2e-fastify-signals-secret-0123456789' }));
  }
  await server.register(fastifyFormbody);
  await server.register(passport.initialize());
  await server.register(passport.secureSession());
  passport.use(strategy.name, strategy);
  passport.registerUserSerializer(async (user: User) => user);
  passport.registerUserDeserializer(async (user: User) => user);

  server.get('/', async (_request, reply) =>
    reply.type('text/html').send(
      layout(
        'Sign in',
        `<h1>Sign in</h1>
<form method="post" action="/auth/magic-link">
  <label for="mobile">Mobile number</label>
  <input id="mobile" name="mobile" type="tel" autocomplete="tel" required>
  <button type="submit">Send me a sign-in link</button>
</form>`,
      ),
    ),
  );
  server.post('/auth/magic-link', strategy.send({ successRedirect: '/waiting' }));
  server.get('/auth/status', strategy.status());
  server.get('/waiting.js', async (_request, reply) => reply.type('text/javascript').send(WAITING_SCRIPT));
  server.get('/waiting', async (request, reply) => {
    const flow = await strategy.flowStatus(request as never);
    reply.header('Cache-Control', 'no-store').type('text/html');
    if (flow.status !== 'pending' || !flow.match)
      return reply.send(
        layout('Not waiting', `<h1>No sign-in is waiting</h1><p>Status: ${escapeHtml(flow.status)}</p>`),
      );
    return reply.send(
      layout(
        'Check your messages',
        `<h1>Check your messages</h1>
<p>We sent a sign-in link by SMS. Opening it on your phone? Type this number there:</p>
<div data-status-url="/auth/status" data-done-url="/auth/callback">
  <p class="number" aria-label="Number to type on your phone">${escapeHtml(flow.match)}</p>
</div>
<p>This page signs you in by itself once you approve.</p>`,
        '<script src="/waiting.js" defer></script>',
      ),
    );
  });
  const callback = { preValidation: passport.authenticate(strategy.name, { successRedirect: '/me' }) };
  server.get('/auth/callback', callback, async () => ({}));
  server.post('/auth/callback', callback, async () => ({}));
  server.get('/me', async (request, reply) => {
    const user = request.user as User | undefined;
    reply.type('text/html');
    if (!user) return reply.code(401).send(layout('Not signed in', '<h1>You are not signed in</h1>'));
    return reply.send(
      layout('Your account', `<h1>You are signed in</h1><p>Signed in as <strong>${escapeHtml(user.id)}</strong></p>`),
    );
  });
  await server.ready();
  return {
    url,
    close: async () => {
      http.closeAllConnections();
      await server.close();
      await strategy.client.close();
    },
  };
}
