export { sessionCompat } from './sessionCompat.js';
export type { SessionCompatOptions } from './sessionCompat.js';
export { readLoginRecord, LOGIN_RECORD_KEY } from './loginRecord.js';
export type { LoginRecord, LoginRiskRecord } from './loginRecord.js';
export type { SessionLike } from './session.js';
