import { afterAll, beforeAll } from 'vitest';
import { OtplessClient, type OtplessClientOptions } from '../../src/client/index.js';
import { type CaptureServer, startCaptureServer } from '../client/helpers/captureServer.js';

/**
 * A capture server and a client whose two hosts both point at it, for the test file (or the
 * `describe` block) it is called in: started before its tests, closed after them, the client
 * first. `started` gets both once they are up, for the file's own variables.
 *
 * @example
 * let server: CaptureServer;
 * let client: OtplessClient;
 * useCaptureClient((s, c) => ((server = s), (client = c)));
 */
export function useCaptureClient(
  started: (server: CaptureServer, client: OtplessClient) => void,
  options: Partial<OtplessClientOptions> = {},
): void {
  let server: CaptureServer | undefined;
  let client: OtplessClient | undefined;
  beforeAll(async () => {
    server = await startCaptureServer();
    client = new OtplessClient({
      clientId: 'id',
      clientSecret: 'secret',
      authUrl: server.url,
      userAuthUrl: server.url,
      ...options,
    });
    started(server, client);
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });
}
