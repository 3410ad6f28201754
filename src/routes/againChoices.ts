import type { MagicLinkChannel } from '../wire/types.js';

/** A channel a link went by, as the waiting page names it. */
export type SentChannel = MagicLinkChannel | 'EMAIL';

/** One way to get the link again: by another channel ("instead"), or the same one ("same"). */
export interface AgainChoice {
  channel: SentChannel;
  kind: 'instead' | 'same';
}

/**
 * What the waiting page (and its JSON) offers once the resend wait is over, from where the last
 * link went: for a mobile number, the other channel first when the strategy allows it
 * (`fallbackChannel`), then the same channel again; for an e-mail address, the same again.
 *
 * @example
 * againChoices([{ channel: 'WHATSAPP' }], true) // [{ channel: 'SMS', kind: 'instead' }, { channel: 'WHATSAPP', kind: 'same' }]
 */
export function againChoices(via: ReadonlyArray<{ channel: SentChannel }>, fallbackChannel: boolean): AgainChoice[] {
  const mobile = via.find((v) => v.channel !== 'EMAIL')?.channel as MagicLinkChannel | undefined;
  if (mobile === undefined) return via.length > 0 ? [{ channel: 'EMAIL', kind: 'same' }] : [];
  const other: MagicLinkChannel = mobile === 'SMS' ? 'WHATSAPP' : 'SMS';
  const same: AgainChoice = { channel: mobile, kind: 'same' };
  return fallbackChannel ? [{ channel: other, kind: 'instead' }, same] : [same];
}
