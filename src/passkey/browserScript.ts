/**
 * The browser side of passkeys, served by the mount as a file (`<base>/passkey.js`) and allowed by
 * the pages' CSP by its URL: no bundler, no inline script. Hand-written JSON <-> ArrayBuffer
 * helpers (base64url), since `PublicKeyCredential.parseCreationOptionsFromJSON` is not in every
 * browser yet. It reads the `data-` attributes of `#passkey`:
 *
 * - on the offer page (`data-mode="offer"`): shows the button only where the browser can make a
 *   passkey on this device (else goes on to `data-next` at once); the button asks the server for
 *   options, runs a modal `create()` (after the click: conditional create needs a saved password,
 *   which a link login never has), posts the answer, and goes on.
 * - on the sign-in page (`data-mode="signin"`): shows "Sign in with a passkey" where WebAuthn
 *   exists, and starts the browser's passkey autofill (a conditional `get()`) on the field marked
 *   `autocomplete="username webauthn"`; the button aborts that waiting request before its modal one.
 *
 * A refusal is said in the `role="status"` region, in the page's language (`data-say-*`); the
 * link form stays, so the person can always ask for a link instead.
 */
export const PASSKEY_SCRIPT = `(() => {
  'use strict';
  const box = document.getElementById('passkey');
  if (!box || !window.PublicKeyCredential || !navigator.credentials) {
    if (box && box.dataset.mode === 'offer') location.replace(box.dataset.next);
    return;
  }
  const d = box.dataset;
  const button = document.getElementById('passkey-button');
  const status = document.getElementById('passkey-status');
  const say = (text) => { if (status) status.textContent = text || ''; };
  const toBytes = (text) => {
    const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
    const raw = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
    const bytes = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes.buffer;
  };
  const toText = (buffer) => {
    const bytes = new Uint8Array(buffer);
    let raw = '';
    for (let i = 0; i < bytes.length; i++) raw += String.fromCharCode(bytes[i]);
    return btoa(raw).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  };
  const post = async (url, body) => {
    const res = await fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body || {}),
    });
    const json = await res.json().catch(() => ({}));
    if (!res.ok) throw Object.assign(new Error('refused'), { told: json && json.error && json.error.message });
    return json;
  };
  const answer = (cred) => {
    const r = cred.response;
    const response = { clientDataJSON: toText(r.clientDataJSON) };
    if (r.attestationObject) {
      response.attestationObject = toText(r.attestationObject);
      if (r.getTransports) response.transports = r.getTransports();
    }
    if (r.authenticatorData) response.authenticatorData = toText(r.authenticatorData);
    if (r.signature) response.signature = toText(r.signature);
    if (r.userHandle) response.userHandle = toText(r.userHandle);
    return {
      id: cred.id,
      rawId: toText(cred.rawId),
      type: cred.type,
      response,
      clientExtensionResults: cred.getClientExtensionResults ? cred.getClientExtensionResults() : {},
      authenticatorAttachment: cred.authenticatorAttachment || undefined,
    };
  };
  const told = (err) => (err && err.told) || (err && err.name === 'NotAllowedError' ? d.sayCancelled : d.sayFailed);

  if (d.mode === 'offer') {
    const offer = async () => {
      button.disabled = true;
      say(d.sayWorking);
      try {
        const o = await post(d.optionsUrl);
        o.challenge = toBytes(o.challenge);
        o.user.id = toBytes(o.user.id);
        o.excludeCredentials = (o.excludeCredentials || []).map((c) => ({ ...c, id: toBytes(c.id) }));
        const cred = await navigator.credentials.create({ publicKey: o });
        const done = await post(d.verifyUrl, answer(cred));
        say(d.sayDone);
        location.assign(done.redirect || d.next);
      } catch (err) {
        // This device holds a passkey of this account already: nothing to offer, go on.
        if (err && err.name === 'InvalidStateError') return location.assign(d.next);
        say(told(err));
        button.disabled = false;
      }
    };
    const able = PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable
      ? PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable()
      : Promise.resolve(false);
    able.then((yes) => {
      if (!yes) return location.replace(d.next);
      box.hidden = false;
      button.addEventListener('click', offer);
    }, () => location.replace(d.next));
    return;
  }

  let waiting;
  const signIn = async (conditional) => {
    if (waiting) waiting.abort();
    const controller = new AbortController();
    waiting = controller;
    try {
      const o = await post(d.optionsUrl);
      o.challenge = toBytes(o.challenge);
      o.allowCredentials = (o.allowCredentials || []).map((c) => ({ ...c, id: toBytes(c.id) }));
      const cred = await navigator.credentials.get({
        publicKey: o,
        signal: controller.signal,
        ...(conditional ? { mediation: 'conditional' } : {}),
      });
      if (!cred) return;
      if (!conditional) say(d.sayWorking);
      const form = document.querySelector('form');
      const returnTo = form && form.elements.namedItem('returnTo');
      const done = await post(d.verifyUrl, { ...answer(cred), returnTo: returnTo ? returnTo.value : undefined });
      location.assign(done.redirect);
    } catch (err) {
      if (controller.signal.aborted || (err && err.name === 'AbortError')) return;
      if (!conditional || (err && err.told)) say(told(err));
    } finally {
      if (waiting === controller) waiting = undefined;
    }
  };
  box.hidden = false;
  button.addEventListener('click', () => signIn(false));
  if (PublicKeyCredential.isConditionalMediationAvailable) {
    PublicKeyCredential.isConditionalMediationAvailable().then((yes) => { if (yes && !waiting) signIn(true); }, () => {});
  }
})();
`;
