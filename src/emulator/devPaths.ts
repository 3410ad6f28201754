/** Emulator-only paths on the auth host (the dev inbox is at `/`). */

/** A magic link is `{authUrl}/__emulator/link/<linkId>`. */
export const LINK_PREFIX = '/__emulator/link/';

/** The outbox as JSON. */
export const OUTBOX_PATH = '/__emulator/outbox';
