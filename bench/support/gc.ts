import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// The runner is started by tsx without --expose-gc: this exposes gc() in a new context.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * A full collection before a timed sample, so that garbage left by the previous sample (or by
 * preparing codes and logins) is not collected on the next sample's time.
 */
export function collectGarbage(): void {
  gc();
}
