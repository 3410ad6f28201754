#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { EMULATOR_DEFAULT_CLIENT, refuseProduction } from './config.js';
import { QUIRK_NAMES, type QuirkName } from './quirks.js';
import { startEmulator } from './server.js';
import type { EmulatorOptions, EmulatorQuirks } from './types.js';
import { ENDPOINTS } from '../wire/endpoints.js';
import type { DeliveryMethod } from '../wire/types.js';

/** The channels `--not-delivered` takes: those a send can use (Viber is not one, service-facts.md). */
const LOSABLE: readonly DeliveryMethod[] = ['WHATSAPP', 'SMS', 'EMAIL'];

const USAGE = `Usage: otpless-emulator [options]

Runs a local OTPless service: the auth host, the user-auth host and a dev inbox.

Options:
  --port N              auth host port (default 4700; 0 picks a free port)
  --user-auth-port M    user-auth host port (default N+1, or a free port when N is 0)
  --host H              interface to listen on (default 127.0.0.1)
  --client-id X         accepted client id (default ${EMULATOR_DEFAULT_CLIENT.clientId})
  --client-secret Y     its secret (give both or neither)
  --quiet               do not print each sent link
  --quirk NAME          behave as an unknown of the real service would if it went the other
                        way (repeatable): ${QUIRK_NAMES.join(', ')}
  --allowed-host NAME   also accept this name in the Host header (repeatable), e.g. a Docker
                        service name; other names are refused with 421
  --not-delivered CH    answer every send by channel CH (WHATSAPP, SMS or EMAIL; repeatable)
                        as usual but never deliver its message: the dev inbox shows it as not
                        delivered, to try what the waiting page offers when nothing arrives
  --allow-in-production start even when NODE_ENV is production
  --help                show this help`;

const DEFAULT_PORT = 4700;

/** A command-line mistake: the message is printed with the usage, and the exit code is 2. */
class UsageError extends Error {}

function parsePort(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535)
    throw new UsageError(`${name} must be a port from 0 to 65535, got "${value}"`);
  return Number(value);
}

/** What the command line asks for: the emulator's options, and the channels whose messages are lost. */
interface CliRequest {
  options: EmulatorOptions;
  notDelivered: DeliveryMethod[];
}

/** Options for startEmulator from argv, or 'help'. Throws UsageError on bad arguments. */
function parseCliArgs(argv: readonly string[]): CliRequest | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        'user-auth-port': { type: 'string' },
        host: { type: 'string' },
        'client-id': { type: 'string' },
        'client-secret': { type: 'string' },
        quiet: { type: 'boolean' },
        quirk: { type: 'string', multiple: true },
        'allowed-host': { type: 'string', multiple: true },
        'not-delivered': { type: 'string', multiple: true },
        'allow-in-production': { type: 'boolean' },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return 'help';
  const authPort = parsePort('--port', values.port) ?? DEFAULT_PORT;
  const userAuthPort = parsePort('--user-auth-port', values['user-auth-port']) ?? (authPort === 0 ? 0 : authPort + 1);
  if (userAuthPort > 65535)
    throw new UsageError('--port 65535 leaves no port for the user-auth host: give --user-auth-port');
  const clientId = values['client-id'];
  const clientSecret = values['client-secret'];
  if ((clientId === undefined) !== (clientSecret === undefined))
    throw new UsageError('give --client-id and --client-secret together');
  if (clientId === '' || clientSecret === '') throw new UsageError('--client-id and --client-secret must not be empty');
  const quirks: EmulatorQuirks = {};
  for (const name of values.quirk ?? []) {
    if (!(QUIRK_NAMES as readonly string[]).includes(name))
      throw new UsageError(`unknown --quirk "${name}"; the quirks are ${QUIRK_NAMES.join(', ')}`);
    quirks[name as QuirkName] = true;
  }
  const allowedHosts = values['allowed-host'] ?? [];
  if (allowedHosts.some((name) => name.trim() === '')) throw new UsageError('--allowed-host must not be empty');
  const notDelivered = [...new Set(values['not-delivered'] ?? [])];
  for (const channel of notDelivered) {
    if (!(LOSABLE as readonly string[]).includes(channel))
      throw new UsageError(`unknown --not-delivered "${channel}"; the channels are ${LOSABLE.join(', ')}`);
  }
  const options: EmulatorOptions = {
    authPort,
    userAuthPort,
    ...(values.host !== undefined ? { host: values.host } : {}),
    ...(clientId !== undefined && clientSecret !== undefined ? { clients: [{ clientId, clientSecret }] } : {}),
    // A library is quiet by default; the command prints each link unless told not to.
    ...(values.quiet ? { quiet: true } : { log: (line: string) => console.log(line) }),
    quirks,
    ...(allowedHosts.length > 0 ? { allowedHosts } : {}),
    allowInProduction: values['allow-in-production'] ?? false,
  };
  return { options, notDelivered: notDelivered as DeliveryMethod[] };
}

async function main(): Promise<void> {
  let request: CliRequest | 'help';
  try {
    request = parseCliArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`otpless-emulator: ${error.message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (request === 'help') {
    console.log(USAGE);
    return;
  }
  const { options, notDelivered } = request;
  refuseProduction(options.allowInProduction, 'Pass --allow-in-production if this really is what you want.');
  const emulator = await startEmulator(options);
  for (const channel of notDelivered) {
    emulator.fault({ path: ENDPOINTS.sendMagicLink.path, notDelivered: channel, times: Infinity });
  }
  const quirks = Object.keys(emulator.quirks());
  const [client] = emulator.clients;
  // The emulator's own credentials are printed on purpose: a developer pastes them into the app.
  console.log(`OTPless emulator running
  auth URL:       ${emulator.authUrl}
  user-auth URL:  ${emulator.userAuthUrl}
  dev inbox:      ${emulator.authUrl}/
  client id:      ${client?.clientId ?? ''}
  client secret:  ${client?.clientSecret ?? ''}${quirks.length > 0 ? `\n  quirks:         ${quirks.join(', ')}` : ''}${
    notDelivered.length > 0 ? `\n  not delivered:  ${notDelivered.join(', ')}` : ''
  }
Press Ctrl+C to stop.`);
  const stop = (signal: NodeJS.Signals): void => {
    console.log(`Received ${signal}, closing.`);
    void emulator.close().then(() => {
      process.exitCode = 0;
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`otpless-emulator: ${(error as Error).message ?? String(error)}`);
  process.exitCode = 1;
});
