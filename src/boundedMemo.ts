/**
 * Keeps `value` under `key` in `memo`, a memo of work too costly to redo on every request (a
 * key derivation, a hash, a decryption), holding at most `max` entries: when a new key finds it
 * full, the oldest entry goes first (a `Map` iterates in insertion order). So a process that
 * sees many distinct inputs (users, secrets, sealed values) keeps a bounded memo, never a leak.
 */
export function rememberAtMost<K, V>(memo: Map<K, V>, key: K, value: V, max: number): V {
  if (memo.size >= max && !memo.has(key)) memo.delete(memo.keys().next().value as K);
  memo.set(key, value);
  return value;
}
