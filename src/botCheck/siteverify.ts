/**
 * The verifying call the three providers share: a form POST of the secret, the token and the
 * client's IP, answered with JSON `{ success, score? }`. Anything but a clear `success: true`
 * (and a score that passes the provider's own reading of it, `scorePasses`) is false; a call
 * that fails or times out throws, and the send is refused as unavailable: closed, never open.
 */
export async function verifyChallenge(call: {
  url: string;
  secret: string;
  siteKey: string;
  token: string;
  remoteIp: string | undefined;
  timeoutMs: number;
  scorePasses: (score: unknown) => boolean;
}): Promise<boolean> {
  const form = new URLSearchParams({ secret: call.secret, response: call.token, sitekey: call.siteKey });
  if (call.remoteIp) form.set('remoteip', call.remoteIp);
  let answer: Response;
  try {
    answer = await fetch(call.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      signal: AbortSignal.timeout(call.timeoutMs),
      redirect: 'error',
    });
  } catch (err) {
    // The message of a fetch error names no secret: the secret is in the body, never the URL.
    throw new Error(`the bot check's verifying call failed (${(err as Error).name})`, { cause: err });
  }
  if (!answer.ok) {
    await answer.body?.cancel();
    throw new Error(`the bot check's verifying call answered HTTP ${answer.status}`);
  }
  let body: unknown;
  try {
    body = await answer.json();
  } catch {
    throw new Error("the bot check's verifying call answered no JSON");
  }
  const { success, score } = (body ?? {}) as { success?: unknown; score?: unknown };
  if (success !== true) return false;
  return call.scorePasses(score);
}
