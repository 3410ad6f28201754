// Builds the table of docs/spec-fields.md from the client's shapes themselves: every field of a
// full answer of each operation, whether the answer needs it, and what a value of the wrong
// kind does. test/client/decode.specFields.test.ts keeps the doc equal to this output.
import { decodeBody } from '../../src/client/decode.js';
import {
  codeVerificationResult,
  secureInfoResult,
  sendMagicLinkResponse,
  sessionDetails,
  tokenValidationResult,
  userInfo,
} from '../../src/client/shapes/index.js';
import { isOtplessError } from '../../src/index.js';
import type { EndpointName } from '../../src/wire/endpoints.js';
import { copy, OK_BY_PATH } from '../client/helpers/fixtures.js';

type Json = Record<string, unknown>;
type Path = (string | number)[];

/** Full answers: the fixtures, with the spec's members they leave out. */
function samples(): Array<{ endpoint: EndpointName; shape: (v: unknown) => unknown; body: Json }> {
  const user: Json = {
    ...(copy(OK_BY_PATH['/auth/userInfo']) as Json),
    family_name: 'Lovelace',
    phone_number: '+919876543210',
    national_phone_number: '9876543210',
    country_code: '+91',
  };
  (user.authentication_details as Json).phone = {
    mode: 'WHATSAPP',
    phone_number: '9876543210',
    country_code: '+91',
    auth_state: 'verified',
  };
  const secure = copy(OK_BY_PATH['/auth/v1/secure-info']) as Json;
  const device = secure.device_info as Json;
  device.browserInfo = {
    ...(device.browserInfo as Json),
    browserMajorVersion: '120',
    browserFullVersion: '120.0.1',
    userAgent: 'Mozilla/5.0',
  };
  const vpn = (secure.secure_info as Json).vpn as Json;
  vpn.originTimezone = 'Asia/Kolkata';
  (vpn.methods as Json).auxiliaryMobile = false;
  (vpn.methods as Json).osMismatch = false;
  return [
    { endpoint: 'sendMagicLink', shape: sendMagicLinkResponse, body: copy(OK_BY_PATH['/auth/v1/authorize']) as Json },
    { endpoint: 'verifyCode', shape: codeVerificationResult, body: copy(OK_BY_PATH['/auth/v1/verify/code']) as Json },
    { endpoint: 'userInfo', shape: userInfo, body: user },
    {
      endpoint: 'validateToken',
      shape: tokenValidationResult,
      body: copy(OK_BY_PATH['/auth/v1/validate/token']) as Json,
    },
    { endpoint: 'secureInfo', shape: secureInfoResult, body: secure },
    {
      endpoint: 'sessionDetails',
      shape: sessionDetails,
      body: copy(OK_BY_PATH['/v1/sessions/get-session-details']) as Json,
    },
  ];
}

/** Every path to a leaf (a value that is not an object, or an empty object); array items by index 0. */
function leaves(value: unknown, path: Path = []): Path[] {
  if (Array.isArray(value)) return value.length === 0 ? [path] : leaves(value[0], [...path, 0]);
  if (typeof value === 'object' && value !== null && Object.keys(value).length > 0) {
    return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]));
  }
  return [path];
}

function edit(body: Json, path: Path, change: (parent: Json, key: string | number) => void): Json {
  const out = copy(body);
  const parent = path.slice(0, -1).reduce<Json>((o, k) => o[k as string] as Json, out);
  change(parent, path[path.length - 1]!);
  return out;
}

function get(value: unknown, path: Path): unknown {
  return path.reduce<unknown>(
    (o, k) => (typeof o === 'object' && o !== null ? (o as Json)[k as string] : undefined),
    value,
  );
}

/** What the client does with `body`: the answer's first missing ancestor of `path`, or a refusal. */
function outcome(endpoint: EndpointName, shape: (v: unknown) => unknown, body: Json, path: Path): string {
  let result: unknown;
  try {
    result = decodeBody(endpoint, 200, JSON.stringify(body), shape as never);
  } catch (err) {
    if (isOtplessError(err, 'BAD_RESPONSE')) return 'refused (`BAD_RESPONSE`)';
    if (isOtplessError(err, 'NOT_SUCCESS')) return 'refused (`NOT_SUCCESS`)';
    throw err;
  }
  for (let n = 1; n <= path.length; n++) {
    if (get(result, path.slice(0, n)) === undefined) {
      const at = name(path.slice(0, n));
      return n === path.length ? 'dropped' : `drops \`${at}\``;
    }
  }
  return 'kept';
}

function name(path: Path): string {
  return path.map((k, i) => (typeof k === 'number' ? '[]' : i === 0 ? k : `.${k}`)).join('');
}

/** A value of another JSON kind than `value`. */
function wrongKind(value: unknown): unknown {
  return typeof value === 'string' ? 12.5 : 'x';
}

/** The markdown rows: operation, field, needed, a value of the wrong kind. */
export function specFieldRows(): string[] {
  const rows: string[] = [];
  for (const { endpoint, shape, body } of samples()) {
    for (const path of leaves(body)) {
      const missing = outcome(
        endpoint,
        shape,
        edit(body, path, (p, k) => delete p[k as string]),
        path,
      );
      const wrong = outcome(
        endpoint,
        shape,
        edit(body, path, (p, k) => (p[k as string] = wrongKind(get(body, path)))),
        path,
      );
      const needed = missing.startsWith('refused') ? 'yes' : 'no';
      rows.push(`| ${endpoint} | \`${name(path)}\` | ${needed} | ${wrong} |`);
    }
  }
  return rows;
}

export const SPEC_FIELDS_HEADER = ['| operation | field | needed | a value of the wrong kind |', '|---|---|---|---|'];
