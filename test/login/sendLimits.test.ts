// send()'s built-in limits, over real HTTP: real Express, cookie-session, Passport and the
// emulator on its own sockets; the memory store (test/limits/redisLimits.test.ts runs Redis).
import { describe, expect, it } from 'vitest';
import { MagicLinkStrategy, SendLimiter } from '../../src/index.js';
import type { MagicLinkStrategyOptions } from '../../src/index.js';
import { CLIENT, clickLink, lastLinkTo } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';

const { harness, emulator } = useSharedEmulator();
const json = { accept: 'application/json' };
const sentTo = (pattern: RegExp) =>
  emulator()
    .outbox()
    .filter((e) => pattern.test(e.to)).length;

describe('send limits per destination', () => {
  it('allows 5 sends per address in 15 minutes by default, counting case and +tag variants as one', async () => {
    const h = await harness();
    const browser = h.browser();
    const variants = [
      'kim@limits.example',
      'KIM@limits.example',
      'kim+1@limits.example',
      'Kim+x@Limits.EXAMPLE',
      'kim@LIMITS.example',
    ];
    for (const email of variants) {
      expect((await browser.post('/auth/magic-link').set(json).send({ email })).status).toBe(200);
    }
    const refused = await browser.post('/auth/magic-link').set(json).send({ email: 'kim@limits.example' });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(850);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(refused.body).toEqual({
      error: {
        code: 'RATE_LIMITED',
        message: 'Too many sign-in links were sent to this e-mail address. Try again in 15 minutes.',
        field: 'email',
        retryAfterSeconds: retryAfter,
      },
    });
    expect(sentTo(/^kim(\+\w+)?@limits\.example$/i)).toBe(5);
    // Nothing was remembered for the refused send: no pending request was added to the session.
    expect(refused.headers['set-cookie']).toBeUndefined();
    // Another address is not affected.
    expect((await browser.post('/auth/magic-link').set(json).send({ email: 'lee@limits.example' })).status).toBe(200);
  });

  it('counts every way of writing one number as one destination', async () => {
    const h = await harness({
      strategy: { defaultCountry: 'US', limits: { perDestination: { limit: 4, windowSeconds: 60 } } },
    });
    const browser = h.browser();
    for (const mobile of ['+1 415 555 0142', '(415) 555-0142', '011 1 415 555 0142', '415.555.0142']) {
      expect((await browser.post('/auth/magic-link').set(json).send({ mobile })).status).toBe(200);
    }
    const refused = await browser.post('/auth/magic-link').set(json).send({ mobile: '1 415 555 0142' });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'RATE_LIMITED', field: 'mobile' });
    expect(refused.body.error.message).toBe(
      'Too many sign-in links were sent to this mobile number. Try again in 1 minute.',
    );
  });

  it('refuses a send to two destinations when one is spent, and counts neither', async () => {
    const h = await harness({ strategy: { limits: { perDestination: { limit: 1, windowSeconds: 60 } } } });
    const browser = h.browser();
    expect((await browser.post('/auth/magic-link').set(json).send({ email: 'both@limits.example' })).status).toBe(200);
    const both = { email: 'both@limits.example', mobile: '+91 98123 45001' };
    expect((await browser.post('/auth/magic-link').set(json).send(both)).status).toBe(429);
    // The number's send was given back: it can still get its one link.
    expect((await browser.post('/auth/magic-link').set(json).send({ mobile: '+919812345001' })).status).toBe(200);
  });
});

describe('send limits per client IP', () => {
  it('refuses the sends over the budget of one address, whatever the destinations', async () => {
    const h = await harness({ strategy: { limits: { perIp: { limit: 3, windowSeconds: 60 } } } });
    const browser = h.browser();
    for (let i = 0; i < 3; i++) {
      expect(
        (
          await browser
            .post('/auth/magic-link')
            .set(json)
            .send({ email: `ip${i}@limits.example` })
        ).status,
      ).toBe(200);
    }
    const refused = await h.browser().post('/auth/magic-link').set(json).send({ email: 'ip3@limits.example' });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many sign-in links were asked for from this network. Try again in 1 minute.',
      retryAfterSeconds: expect.any(Number),
    });
    expect(sentTo(/^ip3@limits\.example$/)).toBe(0);
  });

  it("honours Express's trust proxy: each forwarded client has its own budget", async () => {
    const h = await harness({
      strategy: { limits: { perIp: { limit: 1, windowSeconds: 60 } } },
      routes: (app) => app.set('trust proxy', 'loopback'),
    });
    const from = (ip: string, email: string) =>
      h.browser().post('/auth/magic-link').set(json).set('x-forwarded-for', ip).send({ email });
    expect((await from('203.0.113.7', 'p1@limits.example')).status).toBe(200);
    expect((await from('203.0.113.7', 'p2@limits.example')).status).toBe(429);
    expect((await from('203.0.113.8', 'p3@limits.example')).status).toBe(200);
    // One IPv6 subscriber (a /64) is one client, whichever of its addresses it uses.
    expect((await from('2001:db8:1:2::10', 'p4@limits.example')).status).toBe(200);
    expect((await from('2001:db8:1:2:ffff::1', 'p5@limits.example')).status).toBe(429);
  });

  it('without trust proxy, X-Forwarded-For is not believed', async () => {
    const h = await harness({ strategy: { limits: { perIp: { limit: 1, windowSeconds: 60 } } } });
    const from = (ip: string, email: string) =>
      h.browser().post('/auth/magic-link').set(json).set('x-forwarded-for', ip).send({ email });
    expect((await from('203.0.113.7', 'q1@limits.example')).status).toBe(200);
    expect((await from('203.0.113.8', 'q2@limits.example')).status).toBe(429);
  });
});

describe('what counts', () => {
  it('invalid input costs nothing', async () => {
    const h = await harness({ strategy: { limits: { perIp: { limit: 2, windowSeconds: 60 } } } });
    const browser = h.browser();
    for (const body of [
      {},
      { email: 'nope' },
      { mobile: '(415) 555-0123' },
      { email: 'ａ@limits.example' },
      { mobile: '+1 900 555 0100' },
    ]) {
      expect((await browser.post('/auth/magic-link').set(json).send(body)).status).toBe(400);
    }
    expect((await browser.post('/auth/magic-link').set(json).send({ email: 'v1@limits.example' })).status).toBe(200);
    expect((await browser.post('/auth/magic-link').set(json).send({ email: 'v2@limits.example' })).status).toBe(200);
    expect((await browser.post('/auth/magic-link').set(json).send({ email: 'v3@limits.example' })).status).toBe(429);
  });

  it('a send the service refused is not counted (the budget is given back)', async () => {
    const h = await harness({ strategy: { limits: { perDestination: { limit: 2, windowSeconds: 60 } } } });
    const browser = h.browser();
    h.emulator.fault({
      path: '/auth/v1/authorize',
      status: 400,
      body: { message: 'Invalid Request', errorCode: '7104', description: 'Request error: Invalid email' },
      times: 3,
    });
    for (let i = 0; i < 3; i++) {
      const res = await browser.post('/auth/magic-link').set(json).send({ email: 'refused@limits.example' });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'email' });
    }
    expect((await browser.post('/auth/magic-link').set(json).send({ email: 'refused@limits.example' })).status).toBe(
      200,
    );
    expect((await browser.post('/auth/magic-link').set(json).send({ email: 'refused@limits.example' })).status).toBe(
      200,
    );
    expect((await browser.post('/auth/magic-link').set(json).send({ email: 'refused@limits.example' })).status).toBe(
      429,
    );
  });

  it("tells the service's own rate limit (429, 7020) apart from ours: 503 SERVICE_UNAVAILABLE, and the try still counts", async () => {
    const h = await harness({ strategy: { limits: { perDestination: { limit: 1, windowSeconds: 60 } } } });
    h.emulator.fault({
      path: '/auth/v1/authorize',
      status: 429,
      body: { message: 'Rate Limit Exceeded', errorCode: '7020', description: 'Too many requests' },
      times: 1,
    });
    const theirs = await h.browser().post('/auth/magic-link').set(json).send({ email: 'theirs@limits.example' });
    expect(theirs.status).toBe(503);
    expect(theirs.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(theirs.headers['retry-after']).toBeUndefined();
    // While the service refuses on its own limit, nothing is given back: the next try is ours to refuse.
    const ours = await h.browser().post('/auth/magic-link').set(json).send({ email: 'theirs@limits.example' });
    expect(ours.status).toBe(429);
    expect(ours.body.error.code).toBe('RATE_LIMITED');
  });

  it('a successful login clears the count of the destination it verified', async () => {
    const h = await harness({ strategy: { limits: { perDestination: { limit: 2, windowSeconds: 600 } } } });
    const browser = h.browser();
    for (let i = 0; i < 2; i++) {
      expect((await browser.post('/auth/magic-link').set(json).send({ email: 'Back+in@Limits.example' })).status).toBe(
        200,
      );
    }
    expect((await browser.post('/auth/magic-link').set(json).send({ email: 'back@limits.example' })).status).toBe(429);
    const callback = await clickLink(lastLinkTo(h.emulator, 'back+in@limits.example'));
    expect((await browser.get(callback)).status).toBe(302);
    expect((await browser.get('/me').set(json)).body.user.email).toMatch(/^back\+in@limits\.example$/i);
    // Logged in, the person (on a new device, say) may ask again.
    expect((await h.browser().post('/auth/magic-link').set(json).send({ email: 'back@limits.example' })).status).toBe(
      200,
    );
  });
});

describe('how a refusal is answered', () => {
  it('redirects a form post to failureRedirect with error=RATE_LIMITED, and Retry-After', async () => {
    const h = await harness({
      strategy: { limits: { perDestination: { limit: 1, windowSeconds: 180 } } },
      send: { successRedirect: '/check-inbox', failureRedirect: '/login' },
    });
    const post = () =>
      h
        .browser()
        .post('/auth/magic-link')
        .type('form')
        .set('accept', 'text/html')
        .send({ email: 'form@limits.example' });
    expect((await post()).headers.location).toBe('/check-inbox');
    const refused = await post();
    expect(refused.status).toBe(303);
    expect(refused.headers.location).toBe('/login?error=RATE_LIMITED&field=email');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(170);
  });

  it('hands the refusal to onError with its message, status and retryAfterSeconds', async () => {
    const h = await harness({
      strategy: { limits: { perIp: { limit: 1, windowSeconds: 3600 } } },
      send: {
        onError: (err, _req, res) => {
          res.statusCode = err.status;
          res.end(`${err.code} ${err.retryAfterSeconds ?? ''} ${err.message}`);
        },
      },
    });
    await h.browser().post('/auth/magic-link').set(json).send({ email: 'oe1@limits.example' });
    const res = await h
      .browser()
      .post('/auth/magic-link')
      .set('accept', 'text/html')
      .send({ email: 'oe2@limits.example' });
    expect(res.status).toBe(429);
    expect(res.text).toMatch(
      /^RATE_LIMITED \d+ Too many sign-in links were asked for from this network\. Try again in 60 minutes\.$/,
    );
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
  });

  it('limits: false sends without counting', async () => {
    const h = await harness({ strategy: { limits: false } });
    for (let i = 0; i < 8; i++) {
      expect((await h.browser().post('/auth/magic-link').set(json).send({ email: 'free@limits.example' })).status).toBe(
        200,
      );
    }
  });

  it('shares one SendLimiter between two strategies, and lets the app reset a destination', async () => {
    const limiter = new SendLimiter({ perDestination: { limit: 1, windowSeconds: 60 } });
    const a = await harness({ strategy: { limits: limiter } });
    const b = await harness({ strategy: { limits: limiter } });
    expect((await a.browser().post('/auth/magic-link').set(json).send({ email: 'shared@limits.example' })).status).toBe(
      200,
    );
    expect((await b.browser().post('/auth/magic-link').set(json).send({ email: 'shared@limits.example' })).status).toBe(
      429,
    );
    await limiter.resetDestination('SHARED+support@limits.example');
    expect((await b.browser().post('/auth/magic-link').set(json).send({ email: 'shared@limits.example' })).status).toBe(
      200,
    );
  });
});

describe('limits options', () => {
  const base = { ...CLIENT, callbackUrl: 'http://127.0.0.1/cb' };
  it.each([
    [
      { limits: 'yes' },
      'MagicLinkStrategy: options.limits must be an object with perDestination, perIp, redis, prefix, secret or maxCounts (or false)',
    ],
    [
      { limits: { perIP: { limit: 1, windowSeconds: 60 } } },
      'MagicLinkStrategy: options.limits.perIP is not an option',
    ],
    [{ limits: { perIp: 5 } }, 'MagicLinkStrategy: options.limits.perIp must be false or { limit, windowSeconds }'],
    [
      { limits: { perIp: { limit: 0, windowSeconds: 60 } } },
      'MagicLinkStrategy: options.limits.perIp.limit must be a whole number from 1 to 1000000',
    ],
    [
      { limits: { perDestination: { limit: 5, windowSeconds: 1.5 } } },
      'MagicLinkStrategy: options.limits.perDestination.windowSeconds must be a whole number',
    ],
    [{ limits: { redis: {} } }, 'MagicLinkStrategy: options.limits.redis must be a node-redis client'],
    [
      { defaultCountry: 'us' },
      "MagicLinkStrategy: options.defaultCountry must be an ISO 3166-1 alpha-2 country code in upper case, such as 'US' or 'IN'",
    ],
    [{ defaultCountry: 'XX' }, 'MagicLinkStrategy: options.defaultCountry must be'],
    [{ allowInternationalEmail: 'yes' }, 'MagicLinkStrategy: options.allowInternationalEmail must be true or false'],
  ])('names the bad option %j', (options, message) => {
    expect(
      () =>
        new MagicLinkStrategy(
          { ...base, ...options } as unknown as MagicLinkStrategyOptions & { passReqToCallback?: false },
          async () => ({ id: 'x' }),
        ),
    ).toThrow(message);
  });

  it('checks send({ defaultCountry }) when the route is set up', async () => {
    const h = await harness();
    expect(() => h.strategy.send({ defaultCountry: 'ZZ' as never })).toThrow('send(): options.defaultCountry must be');
  });

  it('SendLimiter names its own options', () => {
    expect(() => new SendLimiter({ perIp: { limit: -1, windowSeconds: 60 } })).toThrow(
      'SendLimiter: options.perIp.limit must be',
    );
    expect(() => new SendLimiter('x' as never)).toThrow('SendLimiter: options must be');
    expect(new SendLimiter().perDestination).toEqual({ limit: 5, windowSeconds: 900 });
    expect(new SendLimiter().perIp).toEqual({ limit: 20, windowSeconds: 900 });
  });
});
