// The labels, salt and sizes
// of the store's keys and seals. A change to any of them goes unseen inside one process (both
// sides derive the same), but every instance sharing a store, and the next release reading what
// this one wrote, must derive the same keys, number and seal: pinned here, as the store holds them.
import { describe, expect, it } from 'vitest';
import { StoreSecrets } from '../../src/flow/seal.js';

const SECRET = 'known-answer-secret';
const FLOW_ID = 'AAAAAAAAAAAAAAAAAAAAAA';

describe('the store format, as any instance of this release derives it', () => {
  it.each([
    ['a string', SECRET],
    ['a Buffer', Buffer.from(SECRET)],
  ])('from a secret given as %s: the flow key, the number, a send digest and a used-token mark', (_as, secret) => {
    const secrets = new StoreSecrets(secret);
    expect(secrets.flowKey(FLOW_ID)).toBe('flow:L3f2qtB4SyeL5IRF8Luj4Q');
    expect(secrets.matchNumber(FLOW_ID)).toBe('19');
    expect(secrets.sendDigest('req-1')).toBe('ipZMW6qSyxYy6hyr7Zv3sg');
    expect(secrets.tokenKey('tok-1')).toBe('token:LYvHNIj5TOqNqfyrg6XJpQ');
    expect(secrets.approvalUsedKey(FLOW_ID)).toBe('token:vUGy9Ft6_CrMLE0n5CJ1ww');
    expect(secrets.recordKey.id).toBe('wLXoix88ODG');
  });

  it('a flow record sealed by this release opens for its flow, and only for it', () => {
    const sealed = 'iaasOtQHa5Ws_BGY.58igeTNTU0uXYT9UksOGVA.ft6-gDviFO32FIezaIf--hJEsCDlf_Wr0SmRehq2ZOg';
    const secrets = new StoreSecrets(SECRET);
    expect(secrets.open(FLOW_ID, sealed)).toEqual({ approvedAt: 1, note: 'pinned' });
    expect(secrets.open(`B${FLOW_ID.slice(1)}`, sealed)).toBeUndefined();
    expect(new StoreSecrets('another-secret').open(FLOW_ID, sealed)).toBeUndefined();
  });

  it('a sealed approval altered in its form does not open: a fourth part, a number, two parts', () => {
    const secrets = new StoreSecrets(SECRET);
    const sealed = secrets.seal(FLOW_ID, { approvedAt: 2 });
    expect(secrets.open(FLOW_ID, sealed)).toEqual({ approvedAt: 2 });
    expect(secrets.open(FLOW_ID, `${sealed}.x`)).toBeUndefined();
    expect(secrets.open(FLOW_ID, sealed.split('.').slice(0, 2).join('.'))).toBeUndefined();
    expect(secrets.open(FLOW_ID, 42 as never)).toBeUndefined();
  });

  it('a sealed approval with its tag cut short does not open (a 4-byte tag would be 2^32 guesses from a forgery)', () => {
    // Node refuses it (`setAuthTag` under `authTagLength: 16`); without that option a 4-byte tag
    // opens, and this fails.
    const secrets = new StoreSecrets(SECRET);
    const [iv, tag, body] = secrets.seal(FLOW_ID, { approvedAt: 3 }).split('.') as [string, string, string];
    const short = Buffer.from(tag, 'base64url').subarray(0, 4).toString('base64url');
    expect(secrets.open(FLOW_ID, [iv, short, body].join('.'))).toBeUndefined();
  });
});
