/**
 * The waiting page's live status, the only script any page of the package runs (its CSP allows
 * it by hash, so the text must stay exactly this). It reads the `data-` attributes of `#waiting`:
 * every 2 s it asks `statusUrl` (same-origin credentials, JSON); on `approved` it goes to
 * `continueUrl`, which finishes the login; on `denied` it says so in place and leaves "start
 * again"; on `expired` or `none` (nothing waits here any more, as after a sign-in in another
 * tab) it reloads, so the server says where to go (or offers a new link). It counts the expiry
 * and the resend wait down and enables the resend buttons at zero. Status changes are read out by the `role="status"`
 * region; the countdowns are not, since a sentence each second would drown everything else.
 */
export const WAITING_SCRIPT = `(() => {
  const box = document.getElementById('waiting');
  if (!box) return;
  const d = box.dataset;
  const $ = (id) => document.getElementById(id);
  const started = Date.now();
  const left = (seconds) => Math.max(0, Math.ceil(Number(seconds) - (Date.now() - started) / 1000));
  const time = (s) => Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0');
  const say = (text) => {
    const live = $('waiting-status');
    if (live && text && live.textContent !== text) live.textContent = text;
  };
  const count = () => {
    const expiry = $('waiting-expiry');
    if (expiry && d.expiresIn) expiry.textContent = d.expiresText.replace('{time}', time(left(d.expiresIn)));
    const wait = $('resend-wait');
    const buttons = document.querySelectorAll('#waiting-resend button');
    if (wait && buttons.length && d.resendIn) {
      const s = left(d.resendIn);
      wait.textContent = d.resendText.replace('{time}', time(s));
      if (s === 0) {
        for (const button of buttons) button.disabled = false;
        wait.hidden = true;
      }
    }
  };
  const timer = setInterval(count, 1000);
  const end = (status) => {
    clearInterval(timer);
    const heading = document.querySelector('h1');
    if (heading) heading.textContent = d.titleOver;
    document.title = d.titleOver;
    for (const id of ['waiting-sent', 'waiting-match', 'waiting-expiry', 'waiting-resend']) {
      const part = $(id);
      if (part) part.hidden = true;
    }
    say(status === 'denied' ? d.sayDenied : d.sayExpired);
  };
  const poll = async () => {
    try {
      const res = await fetch(d.statusUrl, {
        credentials: 'same-origin',
        cache: 'no-store',
        headers: { accept: 'application/json' },
      });
      if (res.ok) {
        const { status } = await res.json();
        if (status === 'approved') {
          say(d.sayApproved);
          return location.assign(d.continueUrl);
        }
        if (status === 'denied') return end(status);
        if (status === 'expired' || status === 'none') return location.reload();
      }
    } catch {}
    setTimeout(poll, 2000);
  };
  setTimeout(poll, 2000);
})();`;
