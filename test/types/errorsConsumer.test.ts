import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ERRORS_CONSUMER } from '../../scripts/lib/errorsConsumer.mjs';
import { freshFolder, STRICT_OPTIONS, typeErrors } from '../readme/freshFolder.js';

// A consumer compiled against the packed package, as an app installs it: every error class
// imported from `passport-otpless/errors`, narrowed on `err.code` alone, under both module
// systems (the .cts resolves the CommonJS declarations), then run.
const root = fileURLToPath(new URL('../..', import.meta.url));
const folder = freshFolder(root);
afterAll(() => folder.remove());

const EXPECTED = [
  'argument email',
  'api 401 7002',
  'timeout 5000',
  'network validateToken',
  'response 200',
  'state NOT_FOUND',
  'setup MISSING_SESSION 500',
  'request RATE_LIMITED 429 {"error":{"code":"RATE_LIMITED","message":"Try again in a minute.","field":"email","retryAfterSeconds":60}}',
];

describe('a consumer of passport-otpless/errors', () => {
  const files = ['consumer.mts', 'consumer.cts'].map((name) => {
    const file = join(folder.dir, name);
    writeFileSync(file, ERRORS_CONSUMER);
    return file;
  });

  it('compiles under strict options, ESM and CommonJS, narrowing to each class on its code', () => {
    expect(typeErrors(folder.dir, files, STRICT_OPTIONS)).toEqual([]);
  });

  it('fails to compile when a case assigns an error to a class its code does not narrow to', () => {
    const wrong = join(folder.dir, 'wrong.mts');
    writeFileSync(
      wrong,
      ERRORS_CONSUMER.replace('const e: OtplessTimeoutError = err;', 'const e: OtplessApiError = err;'),
    );
    const problems = typeErrors(folder.dir, [wrong], STRICT_OPTIONS);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /Type 'OtplessTimeoutError' is missing the following properties from type 'OtplessApiError'/,
        ),
      ]),
    );
  });

  it.each(['consumer.mts', 'consumer.cts'])('runs as %s: each error reaches its own case', (name) => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', name], { cwd: folder.dir, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual(EXPECTED);
  });
});
