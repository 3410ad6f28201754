export { OtplessClient } from './OtplessClient.js';
export type { OtplessClientOptions } from './options.js';
export type { SendMagicLinkInput } from './validate.js';
