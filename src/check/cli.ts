#!/usr/bin/env node
/**
 * `npx otpless-check`: runs the account check from a terminal. The report goes to stdout (a
 * table, or JSON with --json); progress and prompts to stderr, so `--json > report.json` works.
 * Exit codes: 0 every check ran, 1 a check could not run, 2 a command-line mistake.
 */

import { secretForms } from '../client/redact.js';
import { parseCheckArgs, UsageError, USAGE } from './args.js';
import { CheckOptionsError } from './options.js';
import { readPastedUrl } from './paste.js';
import { renderJson, renderTable } from './report.js';
import { runCheck } from './run.js';
import { describeWait, type SentLink } from './wait.js';

const NAME = 'otpless-check';

/**
 * The secret as it may have been given: after --client-secret (either form) and in the
 * environment. Everything printed is scrubbed of it: the report never holds it, and this is
 * the second lock, for a message nobody foresaw.
 */
function secretsOf(argv: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const given: string[] = [];
  argv.forEach((arg, i) => {
    if (arg === '--client-secret' && argv[i + 1] !== undefined) given.push(argv[i + 1]!);
    if (arg.startsWith('--client-secret=')) given.push(arg.slice('--client-secret='.length));
  });
  if (env.OTPLESS_CLIENT_SECRET) given.push(env.OTPLESS_CLIENT_SECRET);
  if (env.OTPLESS_SESSION_TOKEN) given.push(env.OTPLESS_SESSION_TOKEN);
  return given.filter((secret) => secret.length >= 4).flatMap(secretForms);
}

function scrubber(secrets: readonly string[]): (text: string) => string {
  const longestFirst = [...new Set(secrets)].sort((a, b) => b.length - a.length);
  return (text) => longestFirst.reduce((out, secret) => out.split(secret).join('[redacted]'), text);
}

/** What the person is asked to do once the link is out. */
function prompt(link: SentLink): string {
  const wait = `Waiting up to ${describeWait(link.timeoutMs)}.`;
  const where = link.sentTo.join(' and the ');
  if (link.again) {
    return `Open the SAME link again (the first opening played a mail scanner's GET). ${
      link.listening ? 'On this computer the check goes on by itself; from a phone, paste' : 'Paste'
    } the whole URL it landed on. ${wait}`;
  }
  if (!link.listening) {
    return `Open the link sent to the ${where}, then paste here the whole URL the browser landed on. ${wait}`;
  }
  return (
    `Open the link sent to the ${where}.\n` +
    '  On this computer: the check goes on by itself.\n' +
    '  On a phone: the page will not load (127.0.0.1 is the phone itself); copy the URL from its address bar\n' +
    `  and paste it here, then press Enter. ${wait}`
  );
}

async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const scrub = scrubber(secretsOf(argv, env));
  const err = (line: string) => process.stderr.write(`${scrub(line)}\n`);
  let parsed;
  try {
    parsed = parseCheckArgs(argv, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err(`${NAME}: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (parsed.secretFromFlag) {
    err(`${NAME}: note: --client-secret stays in your shell history; prefer OTPLESS_CLIENT_SECRET in the environment.`);
  }
  let report;
  try {
    report = await runCheck(parsed.options, {
      say: err,
      landing: (link, signal) => {
        err(prompt(link));
        return readPastedUrl(process.stdin, signal, err);
      },
    });
  } catch (error) {
    process.stdin.destroy();
    if (error instanceof CheckOptionsError) {
      err(`${NAME}: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    throw error;
  }
  // Nothing more to read: an open stdin (a pipe nobody closes) would keep the process alive.
  process.stdin.destroy();
  process.stdout.write(scrub(parsed.json ? renderJson(report) : renderTable(report)));
  return report.complete ? 0 : 1;
}

main(process.argv.slice(2), process.env).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const scrub = scrubber(secretsOf(process.argv.slice(2), process.env));
    process.stderr.write(`${NAME}: ${scrub(error instanceof Error ? error.message : String(error))}\n`);
    process.exitCode = 1;
  },
);
