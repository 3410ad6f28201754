import { OtplessClient } from '../../src/client/index.js';
import type { EndpointName, OtplessClientOptions } from '../../src/client/index.js';

/** The limit of the one call a test holds; the test holds that answer far longer (seconds). */
export const SHORT_TIMEOUT_MS = 200;
/** Every other call's limit: beyond any test's own timeout, so none of them can time out. */
export const PATIENT_TIMEOUT_MS = 30_000;

/** Each endpoint's method on the client. */
const METHOD = {
  sendMagicLink: 'sendMagicLink',
  verifyCode: 'verifyCode',
  userInfo: 'getUserInfo',
  validateToken: 'validateToken',
  secureInfo: 'getSecureInfo',
  sessionDetails: 'getSessionDetails',
} as const satisfies Record<EndpointName, keyof OtplessClient>;

type Method = (typeof METHOD)[EndpointName];

/**
 * A real client for tests that hold one service call past its timeout: the first call to
 * `endpoint` goes through a second real client with the short limit; every other call (the rest
 * of a login, the next login) is patient. So only the held call can time out, however busy
 * the machine is, and no test races the clock: the held answer comes seconds after the limit.
 */
export class ShortLimitOnce extends OtplessClient {
  readonly #short: OtplessClient;
  #method: Method | undefined;

  constructor(options: OtplessClientOptions, endpoint?: EndpointName, shortMs = SHORT_TIMEOUT_MS) {
    super({ ...options, timeoutMs: PATIENT_TIMEOUT_MS });
    this.#short = new OtplessClient({ ...options, timeoutMs: shortMs });
    this.#method = endpoint && METHOD[endpoint];
  }

  /** The short client for the first call of the held endpoint, once; undefined otherwise. */
  #through(method: Method): OtplessClient | undefined {
    if (method !== this.#method) return undefined;
    this.#method = undefined;
    return this.#short;
  }

  override sendMagicLink(...a: Parameters<OtplessClient['sendMagicLink']>) {
    return this.#through('sendMagicLink')?.sendMagicLink(...a) ?? super.sendMagicLink(...a);
  }
  override verifyCode(...a: Parameters<OtplessClient['verifyCode']>) {
    return this.#through('verifyCode')?.verifyCode(...a) ?? super.verifyCode(...a);
  }
  override getUserInfo(...a: Parameters<OtplessClient['getUserInfo']>) {
    return this.#through('getUserInfo')?.getUserInfo(...a) ?? super.getUserInfo(...a);
  }
  override validateToken(...a: Parameters<OtplessClient['validateToken']>) {
    return this.#through('validateToken')?.validateToken(...a) ?? super.validateToken(...a);
  }
  override getSecureInfo(...a: Parameters<OtplessClient['getSecureInfo']>) {
    return this.#through('getSecureInfo')?.getSecureInfo(...a) ?? super.getSecureInfo(...a);
  }
  override getSessionDetails(...a: Parameters<OtplessClient['getSessionDetails']>) {
    return this.#through('getSessionDetails')?.getSessionDetails(...a) ?? super.getSessionDetails(...a);
  }
  override async close(): Promise<void> {
    await Promise.all([super.close(), this.#short.close()]);
  }
}
