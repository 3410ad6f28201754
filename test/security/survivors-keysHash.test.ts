// Mutation survivor of src/limits/keys.ts: the SHA-256 of a key on a Node without `crypto.hash`
// (20.0 to 20.11, which `engines` allows). Instances on different Node versions that share one
// Redis must count a client under one key, so the fallback must hash exactly as `crypto.hash`.
// The older Node is simulated by taking `hash` off `node:crypto` for one synchronous call.
import { createHash } from 'node:crypto';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { describe, expect, it } from 'vitest';
import { hashedKey } from '../../src/limits/keys.js';

const nodeCrypto = createRequire(import.meta.url)('node:crypto') as { hash?: unknown };

/** Runs `read` as on a Node before 20.12, whose `node:crypto` has no `hash`. */
function withoutCryptoHash<T>(read: () => T): T {
  const hash = nodeCrypto.hash;
  nodeCrypto.hash = undefined;
  syncBuiltinESMExports();
  try {
    return read();
  } finally {
    nodeCrypto.hash = hash;
    syncBuiltinESMExports();
  }
}

describe('hashedKey on a Node without crypto.hash', () => {
  it('hashes a key exactly as with it: SHA-256, base64url, 22 characters', () => {
    const key = 'i:203.0.113.7';
    const pinned = createHash('sha256').update(key).digest('base64url').slice(0, 22);
    expect(hashedKey(key)).toBe(pinned);
    expect(withoutCryptoHash(() => hashedKey(key))).toBe(pinned);
  });
});
