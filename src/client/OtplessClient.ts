import { ENDPOINTS, type EndpointName } from '../wire/endpoints.js';
import type {
  CodeVerificationResult,
  SecureInfoResult,
  SendMagicLinkResponse,
  SessionDetails,
  TokenValidationResult,
  UserInfo,
} from '../wire/types.js';
import { type BaseUrl, type OtplessClientOptions, resolveOptions } from './options.js';
import { secretForms } from './redact.js';
import {
  codeVerificationResult,
  secureInfoResult,
  sendMagicLinkResponse,
  sessionDetails,
  tokenValidationResult,
  userInfo,
} from './shapes/index.js';
import { type Route, Transport } from './transport.js';
import { checkChannel, checkOpaque, checkSendMagicLinkInput, type SendMagicLinkInput } from './validate.js';

const USER_AGENT = 'passport-otpless';
const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

/**
 * Typed client of the OTPless service: the six calls of the magic-link login, with input checks
 * before any request, a keep-alive pool, a timeout per request, responses checked against the
 * documented shapes, and typed errors that never contain the secret, a code or a token.
 *
 * @example
 * const client = new OtplessClient({ clientId: process.env.OTPLESS_CLIENT_ID!, clientSecret: process.env.OTPLESS_CLIENT_SECRET! });
 * await client.sendMagicLink({ email: 'ada@example.com', redirectUri: 'https://example.com/login/callback' });
 * // ...the user clicks the link and lands on /login/callback?code=...
 * const { userDetails } = await client.verifyCode(req.query.code);
 */
export class OtplessClient {
  readonly #transport: Transport;
  readonly #routes: Readonly<Record<EndpointName, Route>>;
  /** `client_id=...&client_secret=...`, appended to authorize queries and userInfo forms. */
  readonly #credentialParams: string;

  /**
   * @throws TypeError naming the bad option (missing credentials, bad URL, bad timeoutMs, ...)
   * @example
   * const client = new OtplessClient({ clientId, clientSecret, timeoutMs: 5_000 });
   */
  constructor(options: OtplessClientOptions) {
    const o = resolveOptions(options);
    this.#transport = new Transport({
      timeoutMs: o.timeoutMs,
      maxResponseBytes: o.maxResponseBytes,
      connections: o.connections,
      secrets: secretForms(o.clientSecret),
    });
    this.#credentialParams = `client_id=${encodeURIComponent(o.clientId)}&client_secret=${encodeURIComponent(o.clientSecret)}`;

    // Header objects are built once and shared by every request of an endpoint (undici only reads them).
    const base = { accept: JSON_TYPE, 'user-agent': USER_AGENT };
    const byHeaders = { ...base, 'content-type': JSON_TYPE, clientId: o.clientId, clientSecret: o.clientSecret };
    const byForm = { ...base, 'content-type': FORM_TYPE };
    const hosts: Record<'auth' | 'userAuth', BaseUrl> = { auth: o.auth, userAuth: o.userAuth };
    const routes = {} as Record<EndpointName, Route>;
    for (const e of Object.values(ENDPOINTS)) {
      const host = hosts[e.host];
      const headers = e.credentials === 'headers' ? byHeaders : e.credentials === 'form' ? byForm : base;
      routes[e.name] = Object.freeze({
        endpoint: e.name,
        origin: host.origin,
        path: host.prefix + e.path,
        method: e.method,
        headers: Object.freeze(headers),
      });
    }
    this.#routes = Object.freeze(routes);
  }

  /**
   * Sends a magic link to an e-mail address and/or a mobile number (`GET /auth/v1/authorize`).
   * After a click, the user is redirected to `redirectUri` with `?code=...`; pass that code to
   * {@link verifyCode}.
   *
   * @returns one `requestIds` entry per channel used (MOBILE and/or EMAIL)
   * @throws OtplessInputError (before any request), OtplessApiError, OtplessTimeoutError,
   *   OtplessNetworkError, OtplessResponseError
   * @example
   * const { requestIds } = await client.sendMagicLink({
   *   mobileNumber: '+919876543210', // or the service's '919876543210': bare digits carry the country code
   *   redirectUri: 'https://example.com/login/callback',
   *   expiry: 600,
   *   channel: 'SMS',
   * });
   */
  async sendMagicLink(input: SendMagicLinkInput): Promise<SendMagicLinkResponse> {
    const checked = checkSendMagicLinkInput(input);
    const channel = checkChannel(input.channel);
    const route = this.#routes.sendMagicLink;
    let query = `${this.#credentialParams}&redirect_uri=${encodeURIComponent(checked.redirectUri)}`;
    if (checked.mobileNumber !== undefined) query += `&mobile_number=${checked.mobileNumber}`;
    if (checked.email !== undefined) query += `&email=${encodeURIComponent(checked.email)}`;
    if (checked.expiry !== undefined) query += `&expiry=${checked.expiry}`;
    if (channel !== undefined) query += `&channel=${channel}`;
    return this.#transport.send(route, `${route.path}?${query}`, undefined, sendMagicLinkResponse, NONE);
  }

  /**
   * Exchanges the code from the magic-link redirect for the user's verified identities and a
   * token (`POST /auth/v1/verify/code`). A code works once and expires (typically 5 minutes).
   *
   * @throws OtplessInputError, OtplessApiError (e.g. 400 for a used or expired code), ...
   * @example
   * const { userDetails } = await client.verifyCode(String(req.query.code));
   * const email = userDetails.identities.find((i) => i.identityType === 'EMAIL')?.identityValue;
   */
  async verifyCode(code: string): Promise<CodeVerificationResult> {
    const value = checkOpaque(code, 'code', 'verifyCode');
    const route = this.#routes.verifyCode;
    // Awaited, not returned: an async function that returns a promise settles two turns later.
    return await this.#transport.send(route, route.path, JSON.stringify({ code: value }), codeVerificationResult, [
      value,
    ]);
  }

  /**
   * Reads the user's profile for a token received after authentication (`POST /auth/userInfo`,
   * form-encoded). At least one of `email` and `phone_number` is guaranteed present.
   *
   * @example
   * const user = await client.getUserInfo(token);
   * console.log(user.email ?? user.phone_number);
   */
  async getUserInfo(token: string): Promise<UserInfo> {
    const value = checkOpaque(token, 'token', 'userInfo');
    const route = this.#routes.userInfo;
    return this.#transport.send(
      route,
      route.path,
      `token=${encodeURIComponent(value)}&${this.#credentialParams}`,
      userInfo,
      [value],
    );
  }

  /**
   * Validates a token produced by the OTPless frontend SDK (`POST /auth/v1/validate/token`).
   * `secureInfo` (risk signals) is present only when the secure SDK is integrated.
   *
   * @example
   * const { userId, identities, secureInfo } = await client.validateToken(req.body.token);
   */
  async validateToken(token: string): Promise<TokenValidationResult> {
    const value = checkOpaque(token, 'token', 'validateToken');
    const route = this.#routes.validateToken;
    return this.#transport.send(route, route.path, JSON.stringify({ token: value }), tokenValidationResult, [value]);
  }

  /**
   * Reads the risk signals, network and device of a login (`POST /auth/v1/secure-info`).
   * Keys are snake_case here: `secure_info`, `network_info`, `device_info`.
   *
   * @example
   * const { secure_info } = await client.getSecureInfo(token);
   * if (secure_info.vpn?.result) console.warn('login through a VPN');
   */
  async getSecureInfo(token: string): Promise<SecureInfoResult> {
    const value = checkOpaque(token, 'token', 'secureInfo');
    const route = this.#routes.secureInfo;
    return this.#transport.send(route, route.path, JSON.stringify({ token: value }), secureInfoResult, [value]);
  }

  /**
   * Reads a session by the session token received after authentication
   * (`POST /v1/sessions/get-session-details`).
   *
   * @example
   * const { userId, lastActiveAt } = await client.getSessionDetails(sessionToken);
   */
  async getSessionDetails(sessionToken: string): Promise<SessionDetails> {
    const value = checkOpaque(sessionToken, 'sessionToken', 'sessionDetails');
    const route = this.#routes.sessionDetails;
    return this.#transport.send(route, route.path, JSON.stringify({ sessionToken: value }), sessionDetails, [value]);
  }

  /**
   * Closes the keep-alive pool once requests in flight have finished. Later calls fail with
   * `NETWORK`.
   *
   * @example
   * process.on('SIGTERM', () => void client.close());
   */
  async close(): Promise<void> {
    await this.#transport.close();
  }
}

const NONE: readonly string[] = [];
