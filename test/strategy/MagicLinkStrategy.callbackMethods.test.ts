import express from 'express';
import { describe, expect, it } from 'vitest';
import { clickLink, lastLinkTo } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';

// A callback mounted by hand with `app.all`: every method but GET and HEAD is checked like a
// POST, so a PUT or a PATCH from another site spends no code and signs no one in.

const shared = useSharedEmulator();

describe('the callback mounted with app.all', () => {
  it('refuses a PUT or PATCH with the link’s code from another site, and the code stays good for its browser', async () => {
    const h = await shared.harness({
      session: 'express',
      routes: (app) =>
        app.all(
          '/any/callback',
          express.urlencoded({ extended: false }),
          // Passport is the harness's, reached once the harness exists.
          (req, res, next) => h.passport.authenticate('magic-link', { successRedirect: '/me' })(req, res, next),
        ),
    });
    const browser = h.browser();
    await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'methods@example.com' });
    const callback = await clickLink(lastLinkTo(h.emulator, 'methods@example.com'));
    const query = callback.slice(callback.indexOf('?'));
    for (const method of ['put', 'patch'] as const) {
      const res = await browser[method](`/any/callback${query}`).set('origin', 'https://evil.example');
      expect(res.status).toBe(403);
    }
    expect((await browser.get('/me')).status).toBe(401);
    // The same link in its own browser still signs in: the refusals spent nothing.
    expect((await browser.get(callback)).status).toBe(302);
    expect((await browser.get('/me')).status).toBe(200);
  });
});
