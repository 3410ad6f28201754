import { OtplessSetupError } from '../errors/index.js';

/** The part of @simplewebauthn/server the ceremonies call. */
export type WebAuthnServer = typeof import('@simplewebauthn/server');

let loading: Promise<WebAuthnServer> | undefined;

/**
 * @simplewebauthn/server, loaded the first time a passkey ceremony runs: an optional peer, so an
 * app without passkeys installs and loads nothing more (the root entry never imports it).
 * A dynamic `import()`, since the package is asynchronous anyway and ESM-first.
 */
export function loadWebAuthn(): Promise<WebAuthnServer> {
  loading ??= import('@simplewebauthn/server').catch((cause: unknown) => {
    loading = undefined;
    throw new OtplessSetupError(
      'PASSKEY_DEPENDENCY_MISSING',
      'Passkeys are turned on (the passkeys option) but @simplewebauthn/server could not be loaded: ' +
        `npm install @simplewebauthn/server@14 (${cause instanceof Error ? cause.message : String(cause)})`,
    );
  });
  return loading;
}
