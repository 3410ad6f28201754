export { SendLimiter } from './SendLimiter.js';
export type { SendDecision, SendLimitedBy } from './SendLimiter.js';
export { DEFAULT_SEND_LIMITS } from './options.js';
export type { SendLimit, SendLimitsOptions, SendLimitsRedisClient } from './options.js';
