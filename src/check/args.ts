/**
 * The command line of `otpless-check`: flags to `CheckOptions`, with the credentials from the
 * environment unless given as flags.
 */

import { parseArgs } from 'node:util';
import type { CheckOptions } from './options.js';

export const USAGE = `Usage: otpless-check --email ADDRESS [--mobile NUMBER] [options]

Checks what passport-otpless cannot know about your OTPless account: it sends you ONE real
magic link (two with --probe-plus), waits for you to open it, and reports what the service did.
Nothing is printed of the client secret, the link's code or the token.

Credentials (environment preferred: a flag stays in your shell history):
  OTPLESS_CLIENT_ID, OTPLESS_CLIENT_SECRET
  --client-id ID          instead of OTPLESS_CLIENT_ID
  --client-secret SECRET  instead of OTPLESS_CLIENT_SECRET

Where the link goes (at least one):
  --email ADDRESS         your e-mail address
  --mobile NUMBER         your mobile number with country code, e.g. +919876543210
  --channel SMS|WHATSAPP  channel of the mobile link (default SMS: is it honoured?)

Options:
  --auth-url URL          auth host (default https://auth.otpless.app)
  --user-auth-url URL     user-auth host (default https://user-auth.otpless.app)
  --port N                port of the local callback on 127.0.0.1 (default: a free one)
  --landing URL           a page the link should land on instead of the local callback (one a
                          phone can reach); you then paste the URL the browser landed on
  --timeout DURATION      how long to wait for the click: 300, 90s, 10m (default 5m)
  --probe-plus            also try mobile_number=+... (sends a second real message)
  --open-twice            open the link twice: the first opening plays a mail scanner's GET,
                          the second is yours (does the link survive a scanner?)
  OTPLESS_SESSION_TOKEN   (environment) a session token of one of your logins, from the
                          service's frontend SDK: read twice to see whether reading moves
                          lastActiveAt (never printed)
  --json                  print the report as JSON
  --help                  show this help

Exit codes: 0 every check ran, 1 a check could not run (or the credentials were refused),
2 a mistake on the command line.

Opened the link on a phone? It cannot reach 127.0.0.1: copy the URL from the phone's address
bar and paste it into this terminal when asked.`;

/** A command-line mistake: printed with the usage, exit code 2. */
export class UsageError extends Error {}

/** What the command was asked to do. */
export interface ParsedArgs {
  options: CheckOptions;
  json: boolean;
  /** The secret came as a flag: the command says why the environment is better. */
  secretFromFlag: boolean;
}

const DURATION = /^(\d{1,9})(ms|s|m)?$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000 } as const;

function parseDuration(value: string): number {
  const match = DURATION.exec(value.trim());
  if (!match) throw new UsageError(`--timeout must be a duration such as 300, 90s or 10m, got "${value}"`);
  const ms = Number(match[1]) * UNIT_MS[(match[2] as keyof typeof UNIT_MS | undefined) ?? 's'];
  if (ms < 1000 || ms > 24 * 60 * 60 * 1000) throw new UsageError('--timeout must be from 1 s to 24 h');
  return ms;
}

function parsePort(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
    throw new UsageError(`--port must be a port from 0 to 65535, got "${value}"`);
  }
  return Number(value);
}

function parseChannel(value: string): 'SMS' | 'WHATSAPP' {
  const upper = value.toUpperCase();
  if (upper !== 'SMS' && upper !== 'WHATSAPP')
    throw new UsageError(`--channel must be SMS or WHATSAPP, got "${value}"`);
  return upper;
}

/**
 * The options from `argv` and `env`, or 'help'. Throws UsageError; its message never repeats
 * the secret.
 */
export function parseCheckArgs(argv: readonly string[], env: NodeJS.ProcessEnv): ParsedArgs | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        'client-id': { type: 'string' },
        'client-secret': { type: 'string' },
        email: { type: 'string' },
        mobile: { type: 'string' },
        channel: { type: 'string' },
        'auth-url': { type: 'string' },
        'user-auth-url': { type: 'string' },
        port: { type: 'string' },
        landing: { type: 'string' },
        timeout: { type: 'string' },
        'probe-plus': { type: 'boolean' },
        'open-twice': { type: 'boolean' },
        json: { type: 'boolean' },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    // parseArgs names the flag, and for an unknown one only the flag: never a value.
    throw new UsageError((error as Error).message);
  }
  if (values.help) return 'help';
  const clientId = values['client-id'] ?? env.OTPLESS_CLIENT_ID;
  const clientSecret = values['client-secret'] ?? env.OTPLESS_CLIENT_SECRET;
  if (!clientId) throw new UsageError('no client id: set OTPLESS_CLIENT_ID (or give --client-id)');
  if (!clientSecret) throw new UsageError('no client secret: set OTPLESS_CLIENT_SECRET (or give --client-secret)');
  if (values.email === undefined && values.mobile === undefined) {
    throw new UsageError('give --email and/or --mobile: where to send the link');
  }
  const options: CheckOptions = {
    clientId,
    clientSecret,
    ...(values.email !== undefined ? { email: values.email } : {}),
    ...(values.mobile !== undefined ? { mobile: values.mobile } : {}),
    ...(values.channel !== undefined ? { channel: parseChannel(values.channel) } : {}),
    ...(values['auth-url'] !== undefined ? { authUrl: values['auth-url'] } : {}),
    ...(values['user-auth-url'] !== undefined ? { userAuthUrl: values['user-auth-url'] } : {}),
    ...(values.port !== undefined ? { port: parsePort(values.port) } : {}),
    ...(values.landing !== undefined ? { landingPage: values.landing } : {}),
    ...(values.timeout !== undefined ? { clickTimeoutMs: parseDuration(values.timeout) } : {}),
    ...(values['probe-plus'] ? { probePlus: true } : {}),
    ...(values['open-twice'] ? { openTwice: true } : {}),
    ...(env.OTPLESS_SESSION_TOKEN ? { sessionToken: env.OTPLESS_SESSION_TOKEN } : {}),
  };
  return { options, json: values.json ?? false, secretFromFlag: values['client-secret'] !== undefined };
}
