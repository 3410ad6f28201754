export { passkeysOf } from './manage.js';
export type { PasskeyManager, PasskeySummary } from './manage.js';
export { StoreCredentials } from './storeCredentials.js';
export type { PasskeyCredential, PasskeyCredentialStore } from './credentials.js';
export type { PasskeyOptions } from './options.js';
