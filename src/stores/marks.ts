import { createHash } from 'node:crypto';

/**
 * Used-token marks in memory, compact: a login leaves one for several minutes, so thousands
 * are live at once in a busy process. Each mark is 64 bits of a hash of its key in an
 * open-addressing table (8 bytes a slot, at most half full); marks are grouped in generations
 * by the time they expire, and a generation is dropped whole once its last mark may go.
 * A mark lives up to one generation (`SPAN_MS`) longer than asked: on the safe side.
 */

/** Width of a generation, in ms of expiry time. */
const SPAN_MS = 30_000;
const INITIAL_SLOTS = 64;
/** (hi, lo) of an empty slot and of a removed mark; real hashes are moved off both. */
const EMPTY_LO = 0;
const REMOVED_LO = 1;

class Generation {
  slots = new Uint32Array(INITIAL_SLOTS * 2);
  used = 0;

  constructor(readonly endsAt: number) {}

  /** The slot index of the hash, or of the empty slot where it would go. */
  #find(slots: Uint32Array, hi: number, lo: number): number {
    const mask = slots.length / 2 - 1;
    for (let i = (hi ^ lo) & mask; ; i = (i + 1) & mask) {
      const sHi = slots[2 * i]!;
      const sLo = slots[2 * i + 1]!;
      if ((sHi === hi && sLo === lo) || (sHi === 0 && sLo === EMPTY_LO)) return i;
    }
  }

  has(hi: number, lo: number): boolean {
    const i = this.#find(this.slots, hi, lo);
    return this.slots[2 * i + 1] !== EMPTY_LO || this.slots[2 * i] !== 0;
  }

  add(hi: number, lo: number): void {
    if ((this.used + 1) * 2 > this.slots.length / 2) this.#grow();
    const i = this.#find(this.slots, hi, lo);
    this.slots[2 * i] = hi;
    this.slots[2 * i + 1] = lo;
    this.used += 1;
  }

  remove(hi: number, lo: number): boolean {
    const i = this.#find(this.slots, hi, lo);
    if (this.slots[2 * i] === 0 && this.slots[2 * i + 1] === EMPTY_LO) return false;
    // A removed mark keeps its slot (so the probes past it still find theirs) and stays counted.
    this.slots[2 * i] = 0;
    this.slots[2 * i + 1] = REMOVED_LO;
    return true;
  }

  #grow(): void {
    const old = this.slots;
    this.slots = new Uint32Array(old.length * 2);
    for (let i = 0; i < old.length; i += 2) {
      const hi = old[i]!;
      const lo = old[i + 1]!;
      if (hi === 0 && lo <= REMOVED_LO) continue;
      const j = this.#find(this.slots, hi, lo);
      this.slots[2 * j] = hi;
      this.slots[2 * j + 1] = lo;
    }
  }
}

/** Marks by key, each until its expiry (rounded up to its generation's end). */
export class MemoryMarks {
  readonly #generations = new Map<number, Generation>();
  #count = 0;

  constructor(readonly max: number) {}

  /** Marks held now, counting those of generations not yet dropped. */
  get size(): number {
    return this.#count;
  }

  has(key: string, now: number): boolean {
    const [hi, lo] = hashOf(key);
    this.#sweep(now);
    for (const generation of this.#generations.values()) if (generation.has(hi, lo)) return true;
    return false;
  }

  /** Adds a mark; false when the key is marked already. Throws when full of live marks. */
  add(key: string, expiresAt: number, now: number): boolean {
    const [hi, lo] = hashOf(key);
    this.#sweep(now);
    for (const generation of this.#generations.values()) if (generation.has(hi, lo)) return false;
    if (this.#count >= this.max)
      throw new Error(`MemoryFlowStore: full of live used-token marks (maxMarks ${this.max})`);
    const bucket = Math.ceil(expiresAt / SPAN_MS);
    let generation = this.#generations.get(bucket);
    if (!generation) this.#generations.set(bucket, (generation = new Generation(bucket * SPAN_MS)));
    generation.add(hi, lo);
    this.#count += 1;
    return true;
  }

  remove(key: string, now: number): boolean {
    const [hi, lo] = hashOf(key);
    this.#sweep(now);
    for (const generation of this.#generations.values()) if (generation.remove(hi, lo)) return true;
    return false;
  }

  /**
   * Drops the generations that ended, so the ones left are live. A loop, not a generator: a
   * generator's object and resumptions cost more than the lookup itself, on every login.
   */
  #sweep(now: number): void {
    for (const [bucket, generation] of this.#generations) {
      if (generation.endsAt > now) continue;
      this.#generations.delete(bucket);
      this.#count -= generation.used;
    }
  }
}

/** A used-token mark's key as src/strategy/tokens.ts makes it: `token:` and 22 base64url characters. */
const TOKEN_PREFIX = 'token:';
const TOKEN_KEY_LENGTH = TOKEN_PREFIX.length + 22;

/** By character code: a base64url character's 6 bits, or -1. */
const SIXTETS: Int8Array = (() => {
  const table = new Int8Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
})();

/**
 * 64 bits of the key, never the empty or removed slot's value. A used-token key is already a
 * keyed digest (uniform, unknown without the secret): its 128 bits are folded to 64, which
 * spares a second hash on every login, and every character still counts. Any other key is
 * hashed with SHA-256.
 */
function hashOf(key: string): [number, number] {
  const words = tokenDigestWords(key);
  let hi: number;
  let lo: number;
  if (words) {
    hi = (words[0] ^ words[2]) >>> 0;
    lo = (words[1] ^ words[3]) >>> 0;
  } else {
    const digest = createHash('sha256').update(key).digest();
    hi = digest.readUInt32BE(0);
    lo = digest.readUInt32BE(4);
  }
  if (hi === 0 && lo <= REMOVED_LO) lo += 2;
  return [hi, lo];
}

/**
 * The 128 bits of a used-token key's digest as four big-endian 32-bit words, read straight from
 * its text (the same bits `Buffer.from(digest, 'base64url')` gives, without a Buffer and a regular
 * expression on every login); `undefined` unless the key is `token:` and a canonical 128-bit
 * base64url digest (its last character carries 2 bits and 4 zero bits: one of A, Q, g, w).
 */
function tokenDigestWords(key: string): [number, number, number, number] | undefined {
  if (key.length !== TOKEN_KEY_LENGTH || !key.startsWith(TOKEN_PREFIX)) return undefined;
  const words: [number, number, number, number] = [0, 0, 0, 0];
  // 21 characters are 126 bits; the 22nd adds the last 2. Bytes are taken as soon as 8 bits are in.
  let bits = 0;
  let filled = 0;
  let byte = 0;
  for (let i = TOKEN_PREFIX.length; i < TOKEN_KEY_LENGTH; i++) {
    const code = key.charCodeAt(i);
    const sixtet = code < 128 ? (SIXTETS[code] as number) : -1;
    if (sixtet < 0) return undefined;
    if (i === TOKEN_KEY_LENGTH - 1) {
      if ((sixtet & 0x0f) !== 0) return undefined;
      bits = (bits << 2) | (sixtet >> 4);
      filled += 2;
    } else {
      bits = (bits << 6) | sixtet;
      filled += 6;
    }
    if (filled >= 8) {
      filled -= 8;
      const word = byte >> 2;
      words[word] = ((words[word] as number) * 256 + ((bits >> filled) & 0xff)) >>> 0;
      bits &= (1 << filled) - 1;
      byte++;
    }
  }
  return words;
}
