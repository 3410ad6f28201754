import { createHash, timingSafeEqual } from 'node:crypto';
import { apiError } from './errors.js';
import type { EmulatorClient } from './types.js';

export type CredentialCheck = 'ok' | 'empty' | 'invalid';

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** The accepted clients; secrets are compared in constant time. */
export class ClientRegistry {
  private readonly secretDigests = new Map<string, Buffer>();
  // Compared against when the id is unknown, so an unknown id costs the same as a wrong secret.
  private readonly decoy = digest('no such client');

  constructor(readonly clients: readonly EmulatorClient[]) {
    for (const client of clients) this.secretDigests.set(client.clientId, digest(client.clientSecret));
  }

  has(clientId: string): boolean {
    return this.secretDigests.has(clientId);
  }

  check(clientId: string | null | undefined, clientSecret: string | null | undefined): CredentialCheck {
    if (!clientId || !clientSecret) return 'empty';
    const expected = this.secretDigests.get(clientId);
    // Digests have equal lengths, so timingSafeEqual never throws and leaks no length.
    const matches = timingSafeEqual(expected ?? this.decoy, digest(clientSecret));
    return expected !== undefined && matches ? 'ok' : 'invalid';
  }

  /** Throws the service's 401 (7012 empty, 7002 invalid) unless the credentials are right. */
  require(clientId: string | null | undefined, clientSecret: string | null | undefined): string {
    const result = this.check(clientId, clientSecret);
    if (result === 'empty') throw apiError('emptyCredentials');
    if (result === 'invalid') throw apiError('invalidCredentials');
    return clientId as string;
  }
}
