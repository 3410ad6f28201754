/**
 * The six endpoints of the service (spec section 4) and where each puts the credentials
 * (spec section 5). Shared by the client and the emulator so both agree on the wire.
 */

/** Which of the two hosts serves an endpoint. */
export type ServiceHost = 'auth' | 'userAuth';

/** Where the client id and secret travel. */
export type CredentialPlacement = 'query' | 'form' | 'headers';

export interface EndpointDescriptor {
  /** Stable endpoint name, used in errors and fault injection. */
  readonly name: EndpointName;
  readonly method: 'GET' | 'POST';
  readonly host: ServiceHost;
  readonly path: string;
  readonly credentials: CredentialPlacement;
}

export type EndpointName =
  'sendMagicLink' | 'verifyCode' | 'userInfo' | 'validateToken' | 'secureInfo' | 'sessionDetails';

export const ENDPOINTS: Readonly<Record<EndpointName, EndpointDescriptor>> = Object.freeze({
  sendMagicLink: {
    name: 'sendMagicLink',
    method: 'GET',
    host: 'auth',
    path: '/auth/v1/authorize',
    credentials: 'query',
  },
  verifyCode: {
    name: 'verifyCode',
    method: 'POST',
    host: 'auth',
    path: '/auth/v1/verify/code',
    credentials: 'headers',
  },
  userInfo: { name: 'userInfo', method: 'POST', host: 'auth', path: '/auth/userInfo', credentials: 'form' },
  validateToken: {
    name: 'validateToken',
    method: 'POST',
    host: 'userAuth',
    path: '/auth/v1/validate/token',
    credentials: 'headers',
  },
  secureInfo: {
    name: 'secureInfo',
    method: 'POST',
    host: 'userAuth',
    path: '/auth/v1/secure-info',
    credentials: 'headers',
  },
  sessionDetails: {
    name: 'sessionDetails',
    method: 'POST',
    host: 'userAuth',
    path: '/v1/sessions/get-session-details',
    credentials: 'headers',
  },
});

/** Default production hosts (service-facts.md). */
export const DEFAULT_AUTH_URL = 'https://auth.otpless.app';
export const DEFAULT_USER_AUTH_URL = 'https://user-auth.otpless.app';

/** Link lifetime limits in seconds (spec section 8). */
export const EXPIRY_DEFAULT_SECONDS = 300;
export const EXPIRY_MIN_SECONDS = 30;
export const EXPIRY_MAX_SECONDS = 2_592_000;

/** The delivery channels the send call takes for a mobile number (`channel`); the service's default is WHATSAPP. */
export const MAGIC_LINK_CHANNELS = ['WHATSAPP', 'SMS'] as const;
