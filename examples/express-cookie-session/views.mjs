import { html, raw } from './html.mjs';
import { riskCause } from './user.mjs';

// The app's own server-rendered pages (account, payments, its refusal, 404/500) with one inline
// stylesheet: no external assets, no client script. The sign-in, waiting and link-refused pages
// are the package's (magicLinkRoutes()), in the same colours through the strategy's pages.theme.

const BRAND = 'Acme';

// Inline SVG icons: no icon font or emoji, which a system without emoji fonts shows as boxes.
const ICONS = {
  lock: '<svg viewBox="0 0 24 24" aria-hidden="true"><rect x="5" y="11" width="14" height="10" rx="2"/><path d="M8 11V7a4 4 0 0 1 8 0v4"/><path d="M12 15v2"/></svg>',
  alert:
    '<svg viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="9"/><path d="M12 7.5v5.5"/><path d="M12 16.5v.01"/></svg>',
};

function icon(name, tone) {
  return html`<div class="icon ${tone}">${raw(ICONS[name])}</div>`;
}

const STYLE = `
:root{--bg:#f4f5f7;--card:#fff;--text:#161b26;--muted:#5b6473;--line:#e2e5eb;--brand:#2451d6;--brand-dark:#1a3fae;
--ok:#0f6b37;--ok-bg:#e5f4eb;--warn:#7a4f00;--warn-bg:#fff3d1;--bad:#a8200f;--bad-bg:#fdeceb;--radius:12px}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;background:var(--bg);color:var(--text);
font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;-webkit-font-smoothing:antialiased}
a{color:var(--brand)}a:hover{color:var(--brand-dark)}
.topbar{background:var(--card);border-bottom:1px solid var(--line)}
.topbar .inner{max-width:880px;margin:0 auto;padding:14px 24px;display:flex;align-items:center;gap:16px}
.brand{display:flex;align-items:center;gap:10px;font-weight:650;font-size:18px;color:var(--text);text-decoration:none;letter-spacing:-.01em}
.brand:hover{color:var(--text)}
.mark{width:30px;height:30px;border-radius:8px;background:linear-gradient(135deg,#2f62f0,#1a3fae);color:#fff;display:grid;place-items:center;font-size:16px;font-weight:700}
.spacer{flex:1}
.who{color:var(--muted);font-size:14px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;max-width:40vw}
main{flex:1;width:100%;max-width:880px;margin:0 auto;padding:40px 24px 56px}
main.narrow{max-width:540px}
h1{font-size:28px;line-height:1.25;margin:0 0 8px;letter-spacing:-.015em}
h2{font-size:17px;margin:0 0 14px}
p{margin:0 0 14px}
.lead{color:var(--muted);margin-bottom:28px}
.card{background:var(--card);border:1px solid var(--line);border-radius:var(--radius);padding:28px;box-shadow:0 1px 2px rgba(16,24,40,.04)}
.card + .card{margin-top:20px}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));gap:20px;margin:20px 0}
.grid .card{margin:0}
.button{display:inline-block;font:inherit;font-weight:600;padding:11px 20px;border-radius:8px;border:1px solid var(--brand);
background:var(--brand);color:#fff;text-decoration:none;cursor:pointer;text-align:center}
.button:hover{background:var(--brand-dark);border-color:var(--brand-dark);color:#fff}
.button.secondary{background:#fff;color:var(--brand);border-color:#c9d3ee}
.button.secondary:hover{background:#f2f5fd;color:var(--brand-dark)}
.button.small{padding:6px 12px;font-size:14px;white-space:nowrap}
.actions{display:flex;flex-wrap:wrap;gap:12px;margin-top:24px}
form.inline{display:inline;margin:0}
.note{color:var(--muted);font-size:14px;margin-top:20px}
.demo{border:1px dashed #b9c4e4;background:#f7f9ff;border-radius:10px;padding:14px 16px;font-size:14px;color:#2b3a66;margin-top:24px}
.demo strong{display:block;margin-bottom:4px}.demo p{margin:0 0 8px}.demo .demo-last{margin:0}.demo .actions{margin-top:12px}.demo .reasons{margin:0 0 10px;color:inherit}
.icon{width:52px;height:52px;border-radius:50%;display:grid;place-items:center;margin-bottom:18px}
.icon svg{width:26px;height:26px;fill:none;stroke:currentColor;stroke-width:1.8;stroke-linecap:round;stroke-linejoin:round}
.icon.stop{background:var(--warn-bg);color:var(--warn)}.icon.bad{background:var(--bad-bg);color:var(--bad)}
.list{list-style:none;margin:0;padding:0}
.list li{display:flex;gap:12px;align-items:flex-start;padding:12px 0;border-top:1px solid var(--line)}
.list li:first-child{border-top:0;padding-top:0}.list li:last-child{padding-bottom:0}
.list .what{flex:1;min-width:0}
.list .value{font-weight:600;overflow-wrap:anywhere}
.list .meta{color:var(--muted);font-size:14px}
.kind{font-size:12px;font-weight:600;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);min-width:64px;padding-top:3px}
.badge{display:inline-block;font-size:13px;font-weight:600;border-radius:999px;padding:2px 10px;white-space:nowrap}
.badge.ok{background:var(--ok-bg);color:var(--ok)}.badge.warn{background:var(--warn-bg);color:var(--warn)}.badge.bad{background:var(--bad-bg);color:var(--bad)}
dl{display:grid;grid-template-columns:max-content 1fr;gap:8px 18px;margin:0}
dt{color:var(--muted);font-size:14px;padding-top:1px}dd{margin:0;word-break:break-word}
.verdict{display:flex;align-items:center;gap:12px;margin-bottom:10px}
.reasons{margin:12px 0 0;padding-left:20px;color:var(--muted);font-size:14px}
table{width:100%;border-collapse:collapse;font-size:15px}
th,td{text-align:left;padding:10px 0;border-top:1px solid var(--line)}th{color:var(--muted);font-weight:600;font-size:13px;border-top:0}
td.num{text-align:right;font-variant-numeric:tabular-nums}
footer{color:var(--muted);font-size:13px;text-align:center;padding:0 24px 28px}
code{font:14px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#eef0f4;border-radius:4px;padding:1px 5px}
.nowrap{white-space:nowrap}
@media (max-width:480px){
.topbar .inner{padding:12px 16px;gap:12px}.who .as{display:none}
main{padding:24px 16px 40px}.card{padding:22px 20px}h1{font-size:24px}
.list li{flex-wrap:wrap;gap:4px 12px}.list .kind{flex:1;padding-top:0}.list .badge{order:1}.list .what{order:2;flex-basis:100%}
.actions .button,.actions form.inline{display:block;width:100%}
}
`;

/** The page shell: top bar (with the user and a sign-out button when logged in), main, footer. */
export function layout({ title, user, body, narrow = false }) {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · ${BRAND}</title>
        <style>
          ${raw(STYLE)}
        </style>
      </head>
      <body>
        <header class="topbar">
          <div class="inner">
            <a class="brand" href="/"><span class="mark" aria-hidden="true">A</span>${BRAND}</a>
            <span class="spacer"></span>
            ${
              user &&
              html`<span class="who"><span class="as">Signed in as </span><strong>${user.name}</strong></span>
                <form class="inline" method="post" action="/logout">
                  <button class="button secondary small" type="submit">Sign out</button>
                </form>`
            }
          </div>
        </header>
        <main class="${narrow ? 'narrow' : ''}">${body}</main>
        <footer>Passwordless sign-in with magic links · <span class="nowrap">passport-otpless example</span></footer>
      </body>
    </html>`.toString();
}

/**
 * The verdict in words, by action and by cause class (`riskCause` in user.mjs): a sign-in whose
 * signals simply did not come is told that it could not be checked, not that it looks automated.
 * No wording names a signal: that would tell an attacker what to hide.
 */
const UNCHECKED = {
  badge: 'warn',
  label: 'Not checked',
  text: 'We could not check this sign-in: our security check did not get the information it needs. That is usually nothing you did, but payments open only for sign-ins we could check. Sign in again; if this keeps happening, contact support.',
};
const VERDICTS = {
  allow: {
    badge: 'ok',
    label: 'Low risk',
    text: 'Nothing unusual was found about this sign-in. Protected pages, such as payments, are open to you.',
  },
  challenge: {
    flagged: {
      badge: 'warn',
      label: 'Needs confirmation',
      text: 'Something about this sign-in looks unusual, so payments ask you to confirm it is you: sign in again from your usual device and network, with any VPN or proxy turned off.',
    },
    unchecked: UNCHECKED,
  },
  block: {
    flagged: {
      badge: 'bad',
      label: 'High risk',
      text: 'This sign-in came from a browser or device that looks automated or modified, so payments stay closed for it.',
    },
    unchecked: UNCHECKED,
  },
};

/** The words for a session user's verdict (`undefined` when no signals were read at all). */
function verdictOf(risk) {
  if (!risk) return undefined;
  const words = VERDICTS[risk.action];
  if (!words || risk.action === 'allow') return words;
  return words[risk.cause ?? riskCause(risk) ?? 'flagged'] ?? words.flagged;
}

/** A sign-out form whose button reads "Sign in again": back to the form, then on to `returnTo`. */
function signInAgain(returnTo, className = 'button') {
  return html`<form class="inline" method="post" action="/logout">
    <input type="hidden" name="returnTo" value="${returnTo}" />
    <button class="${className}" type="submit">Sign in again</button>
  </form>`;
}

const KINDS = { EMAIL: 'E-mail', MOBILE: 'Mobile' };

const DATE_FORMAT = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** `22 Nov 2026, 01:09 UTC`: one unambiguous format, whatever the server's locale. */
function formatDate(iso) {
  const date = new Date(iso ?? '');
  return Number.isNaN(date.getTime()) ? '' : `${DATE_FORMAT.format(date)} UTC`;
}

/** The account: verified identities, device, network and the risk verdict of this sign-in. */
export function accountPage({ user, showRiskReasons }) {
  const verdict = verdictOf(user.risk);
  // A sign-in payments would refuse is not offered payments: its way on is to sign in again.
  const refused = user.risk && user.risk.action !== 'allow';
  const reasons = user.risk?.reasons ?? [];
  const { device = {}, network = {} } = user;
  const place = [network.city, network.country].filter(Boolean).join(', ');
  return layout({
    title: 'Your account',
    user,
    body: html`<h1>Welcome, ${user.name}</h1>
      <p class="lead">You signed in with a magic link on ${formatDate(user.signedInAt)}.</p>
      <div class="card">
        <h2>Verified contacts</h2>
        <ul class="list">
          ${user.identities.map(
            (identity) =>
              html`<li>
                <span class="kind">${KINDS[identity.type] ?? identity.type}</span>
                <span class="what"
                  ><span class="value">${identity.value}</span><br /><span class="meta"
                    >${identity.verifiedAt ? `Confirmed by magic link on ${formatDate(identity.verifiedAt)}` : 'Not confirmed yet'}</span
                  ></span
                >
                ${identity.verified ? html`<span class="badge ok">Verified</span>` : html`<span class="badge warn">Unverified</span>`}
              </li>`,
          )}
        </ul>
      </div>
      <div class="grid">
        <div class="card">
          <h2>Device</h2>
          <dl>
            <dt>Browser</dt>
            <dd>${device.browser || 'Unknown'}</dd>
            <dt>System</dt>
            <dd>${device.os || device.platform || 'Unknown'}</dd>
            ${
              device.screen &&
              html`<dt>Screen</dt>
                <dd>${device.screen}</dd>`
            }
            ${
              device.language &&
              html`<dt>Language</dt>
                <dd>${device.language}</dd>`
            }
          </dl>
        </div>
        <div class="card">
          <h2>Network</h2>
          <dl>
            <dt>IP address</dt>
            <dd>${network.ip || 'Unknown'}</dd>
            <dt>Location</dt>
            <dd>${place || 'Unknown'}</dd>
            ${
              network.provider &&
              html`<dt>Provider</dt>
                <dd>${network.provider}</dd>`
            }
            ${
              network.timezone &&
              html`<dt>Time zone</dt>
                <dd>${network.timezone}</dd>`
            }
          </dl>
        </div>
      </div>
      <div class="card">
        <h2>Security check</h2>
        ${
          verdict
            ? html`<div class="verdict"><span class="badge ${verdict.badge}">${verdict.label}</span></div>
                <p>${verdict.text}</p>`
            : html`<p>No risk signals were read for this sign-in.</p>`
        }
        <div class="actions">
          ${refused ? signInAgain('/payments') : html`<a class="button" href="/payments">Open payments</a>`}
        </div>
        <p class="note">Payments is a protected page: it opens only for low-risk sign-ins.</p>
        ${
          showRiskReasons &&
          refused &&
          html`<div class="demo">
            <strong>Demo mode</strong>
            ${
              reasons.length > 0 &&
              html`<p>What decided the verdict (a real app keeps this in its logs, never on a page):</p>
                <ul class="reasons">
                  ${reasons.map((r) => html`<li><code>${r.signal}${r.detail ? ` (${r.detail})` : ''}</code>: ${r.action}</li>`)}
                </ul>`
            }
            <p class="demo-last">
              Payments will refuse this sign-in: <a href="/payments">open payments anyway</a> to see how.
            </p>
          </div>`
        }
      </div>`,
  });
}

/** The guarded page itself. */
export function paymentsPage({ user }) {
  return layout({
    title: 'Payments',
    user,
    body: html`<h1>Payments</h1>
      <p class="lead">This page is protected: it opened because your sign-in passed the security check.</p>
      <div class="card">
        <h2>Recent payments</h2>
        <table>
          <thead>
            <tr>
              <th>Date</th>
              <th>Description</th>
              <th class="num">Amount</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>18 Nov</td>
              <td>Office supplies</td>
              <td class="num">$128.40</td>
            </tr>
            <tr>
              <td>12 Nov</td>
              <td>Cloud hosting</td>
              <td class="num">$312.00</td>
            </tr>
            <tr>
              <td>03 Nov</td>
              <td>Team lunch</td>
              <td class="num">$86.25</td>
            </tr>
          </tbody>
        </table>
        <div class="actions"><a class="button secondary" href="/account">Back to your account</a></div>
      </div>`,
  });
}

/** What the refusal page says, by action and cause class. */
const UNCHECKED_REFUSAL = {
  title: 'We could not check this sign-in',
  text: 'Payments open only for sign-ins our security check could confirm, and it did not get the information it needs for this one. That is usually nothing you did: sign in again.',
};
const REFUSALS = {
  challenge: {
    flagged: {
      title: 'Please confirm it is you',
      text: 'Payments need a little more certainty than this sign-in gave us. Turn off any VPN or proxy, then sign in again from your usual device.',
    },
    unchecked: UNCHECKED_REFUSAL,
  },
  block: {
    flagged: {
      title: 'This page is not available from this sign-in',
      text: 'For your security, payments cannot be opened from this sign-in. Sign in again from your own phone or computer, in an everyday browser without automation tools or add-ons that change how it presents itself. A private window is fine.',
    },
    unchecked: UNCHECKED_REFUSAL,
  },
};

/**
 * The guard said no. Which signal did it is never shown (an attacker would learn what to
 * hide); the page says what the person can do instead, worded by the cause class.
 */
export function refusedPage({ user, action, cause = 'flagged' }) {
  const words = (REFUSALS[action] ?? REFUSALS.block)[cause] ?? REFUSALS.block.flagged;
  return layout({
    title: words.title,
    user,
    narrow: true,
    body: html`<div class="card">
      ${icon('lock', 'stop')}
      <h1>${words.title}</h1>
      <p>${words.text}</p>
      <p class="note">Your account is safe: nothing was changed. If this keeps happening, contact support.</p>
      <div class="actions">
        ${signInAgain('/payments')}
        <a class="button secondary" href="/account">Back to your account</a>
      </div>
    </div>`,
  });
}

/**
 * Any other problem: a short, friendly page, never a stack trace. A request the app could not
 * read (4xx) is not told to try again in a moment: trying again would not help.
 */
export function errorPage({ status, user }) {
  const kind = status === 404 ? 'notFound' : status < 500 ? 'unreadable' : 'failed';
  const words = {
    notFound: ['Page not found', 'There is nothing at this address.'],
    unreadable: [
      'This request could not be read',
      'Something in it was too long or not in the expected form. Go back and check what you entered.',
    ],
    failed: ['Something went wrong', 'We could not complete your request. Please try again in a moment.'],
  }[kind];
  return layout({
    title: words[0],
    user,
    narrow: true,
    body: html`<div class="card">
      ${icon('alert', 'bad')}
      <h1>${words[0]}</h1>
      <p>${words[1]}</p>
      <div class="actions"><a class="button" href="/">Go to the start page</a></div>
    </div>`,
  });
}
