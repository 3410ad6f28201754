import { inspect } from 'node:util';
import { expect } from 'vitest';

/** Every way a value may have travelled on the wire: raw, URL-encoded, form-encoded. */
export function needlesOf(...values: string[]): string[] {
  return values.flatMap((v) => [v, encodeURIComponent(v), new URLSearchParams({ v }).toString().slice(2)]);
}

/** Everything about an error a log line or an error reporter might print. */
export function haystackOf(err: unknown): string {
  const parts: string[] = [inspect(err, { showHidden: true, depth: Infinity, getters: true })];
  if (err instanceof Error) {
    parts.push(err.message, String(err.stack), JSON.stringify(err));
    for (const key of Object.getOwnPropertyNames(err))
      parts.push(String((err as unknown as Record<string, unknown>)[key]));
    const cause = err.cause;
    if (cause !== undefined) {
      parts.push(
        inspect(cause, { showHidden: true, depth: Infinity }),
        JSON.stringify(cause) ?? '',
        String((cause as Error).stack),
        String((cause as Error).message),
      );
      if (typeof cause === 'object' && cause !== null)
        for (const key of Object.getOwnPropertyNames(cause))
          parts.push(String((cause as Record<string, unknown>)[key]));
    }
  }
  return parts.join('\n');
}

/** Fails when any needle appears anywhere in the error. */
export function expectNoSecrets(err: unknown, needles: string[]): void {
  const hay = haystackOf(err);
  for (const needle of needles) {
    if (hay.includes(needle)) expect.fail(`error leaks ${JSON.stringify(needle)}:\n${hay.slice(0, 2000)}`);
  }
}
