// The error table: the service's codes from src/wire, emulator-only codes outside them, the
// table comment in errors.ts listing every row with its source.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERRORS, errorBody, SERVICE_FAULT_ERRORS } from '../../src/emulator/errors.js';
import {
  CREDENTIAL_ERROR_CODES,
  EXPIRED_ERROR_CODES,
  isServiceErrorCode,
  RATE_LIMIT_ERROR_CODES,
  SERVICE_ERROR_CODES,
} from '../../src/wire/serviceErrors.js';

const rows = Object.entries(ERRORS) as Array<[string, { status: number; errorCode?: string; message: string }]>;

describe('src/wire/serviceErrors', () => {
  it('names the documented codes and the sets the strategy needs', () => {
    expect(SERVICE_ERROR_CODES).toMatchObject({
      invalidCredentials: '7002',
      emptyCredentials: '7012',
      invalidPhone: '7102',
      invalidRedirectUri: '7108',
      invalidToken: '7114',
      invalidRequestId: '7119',
      expired: '7301',
    });
    expect([...CREDENTIAL_ERROR_CODES].sort()).toEqual(['7002', '7012', '7019', '7026']);
    expect([...RATE_LIMIT_ERROR_CODES].sort()).toEqual(['7020', '7021', '7022', '7023', '7024']);
    expect([...EXPIRED_ERROR_CODES]).toEqual(['7301']);
    expect(Object.values(SERVICE_ERROR_CODES).every((code) => /^7\d{3}$/.test(code))).toBe(true);
    expect(isServiceErrorCode('7114')).toBe(true);
    expect(isServiceErrorCode('7118')).toBe(false);
    expect(isServiceErrorCode(7114)).toBe(false);
  });
});

describe('the emulator error table', () => {
  it('uses only documented 7xxx codes, with the short label in message', () => {
    const labels: Record<number, string> = {
      400: 'Invalid Request',
      401: 'Access blocked',
      403: 'Access blocked',
      429: 'Rate Limit Exceeded',
    };
    for (const [name, row] of rows) {
      if (!row.errorCode || row.errorCode.startsWith('EMU-')) continue;
      expect(isServiceErrorCode(row.errorCode), `${name}: ${row.errorCode}`).toBe(true);
      const label = row.errorCode === '7301' ? 'Expired' : labels[row.status];
      expect(row.message, name).toBe(label);
      expect(SERVICE_FAULT_ERRORS as readonly string[]).toContain(name);
    }
    expect(Object.values(SERVICE_ERROR_CODES).sort()).toEqual(
      rows
        .map(([, row]) => row.errorCode ?? '')
        .filter((code) => /^\d+$/.test(code))
        .sort(),
    );
  });

  it('puts emulator-only codes outside the service range, as EMU-<status or FAULT>', () => {
    const emulatorOnly = rows.filter(([, row]) => row.errorCode?.startsWith('EMU-'));
    expect(emulatorOnly.map(([, row]) => row.errorCode).sort()).toEqual([
      'EMU-400',
      'EMU-404',
      'EMU-405',
      'EMU-413',
      'EMU-415',
      'EMU-421',
      'EMU-FAULT',
    ]);
    for (const [name, row] of emulatorOnly) {
      if (row.errorCode !== 'EMU-FAULT') expect(row.errorCode, name).toBe(`EMU-${row.status}`);
    }
  });

  it('answers a 500 exactly like the service: a message and nothing else', () => {
    expect(ERRORS.internal.status).toBe(500);
    expect(errorBody('internal')).toEqual({ message: 'Something went wrong. Please try again!' });
  });

  it('lists every code in the table comment at the top of errors.ts, each with its source', () => {
    const source = readFileSync(new URL('../../src/emulator/errors.ts', import.meta.url), 'utf8');
    const table = source.slice(0, source.indexOf('*/'));
    const listed = [...table.matchAll(/^ \* \| ([^|]+) \| ([^|]+) \|.*\| ([^|]+) \|$/gm)].map((m) => ({
      code: (m[1] ?? '').trim(),
      source: (m[3] ?? '').trim(),
    }));
    for (const [, row] of rows) {
      const code = row.errorCode ?? '(none)';
      const hit = listed.find(
        (entry) =>
          entry.code === code ||
          // "7020-7024" covers the rate limits.
          (/^\d{4}-\d{4}$/.test(entry.code) &&
            /^\d+$/.test(code) &&
            Number(code) >= Number(entry.code.slice(0, 4)) &&
            Number(code) <= Number(entry.code.slice(5))),
      );
      expect(hit, `${code} is not in the table comment`).toBeDefined();
      expect(hit?.source).toBe(code.startsWith('EMU-') ? 'emulator-only' : 'service-facts.md');
    }
  });
});
