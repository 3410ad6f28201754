import { isOtplessError, OtplessRequestError, OtplessSetupError } from '../errors/index.js';
import { readEmail } from '../contact/email.js';
import type { EmailProblem } from '../contact/email.js';
import { readTypedPhone } from '../contact/phone.js';
import type { CountryCode, PhoneProblem } from '../contact/phone.js';
import type { LimitedDestination } from '../login/sendLimits.js';
import { serviceFailure, serviceFieldOf, statusForServiceError } from '../login/failures.js';
import type { MessageKey } from '../web/messages/index.js';
import type { HttpRequest } from '../web/request.js';
import { mediaType, ownFields } from '../web/request.js';
import { MAGIC_LINK_CHANNELS } from '../wire/endpoints.js';
import type { MagicLinkChannel } from '../wire/types.js';

/** The sentences of a refusal, in the person's language (src/web/messages/). */
export type Say = (key: MessageKey) => string;

/** Where the send finds what the visitor typed. */
export interface SendFields {
  emailField: string;
  mobileField: string;
  channelField: string | undefined;
  defaultCountry: CountryCode | undefined;
  allowInternationalEmail: boolean;
}

/** What a send goes out to, read by the package's one rule for each (contact/). */
export interface SendInput {
  /** The e-mail address as it will be sent to. */
  address: string | undefined;
  /** The mobile number in E.164. */
  e164: string | undefined;
  /** The channel the visitor chose, when the route lets them. */
  channel: MagicLinkChannel | undefined;
  /** What the limits count, with the form field each came from. */
  destinations: LimitedDestination[];
}

const MAX_FIELD_LENGTH = 320;
/** What the developer reads (English, in logs and API answers to a wrong client). */
const MESSAGES = {
  mediaType: 'Send the form as application/x-www-form-urlencoded or application/json.',
  noBody:
    'The request has no body: send the e-mail address or mobile number as a form (application/x-www-form-urlencoded) or as JSON (application/json).',
};
/** What a person reads for each way an address can be wrong (keys of the message catalogue). */
const EMAIL_PROBLEMS: Record<EmailProblem, MessageKey> = {
  format: 'send.email',
  hidden: 'send.hidden',
  lookalike: 'send.lookalike',
  international: 'send.international',
};
/** What a person reads for each way a number can be wrong. */
const PHONE_PROBLEMS: Record<PhoneProblem, MessageKey> = {
  format: 'send.phoneFormat',
  countryCode: 'send.phoneCountryCode',
  invalid: 'send.phoneInvalid',
  kind: 'send.phoneKind',
};

/** The 400 of a send with no body at all (for an API client: a person's form always has one). */
export function noBodyError(): OtplessRequestError {
  return invalid(MESSAGES.noBody, undefined);
}

/** Throws the route's 400 (`INVALID_INPUT`) naming the field at fault, or the body's setup error. */
export function readSendInput(req: HttpRequest, fields: SendFields, t: Say): SendInput {
  const body = readBody(req, t);
  const email = readField(body, fields.emailField, 'email', t);
  const mobile = readField(body, fields.mobileField, 'mobile', t);
  if (email === undefined && mobile === undefined) throw invalid(t('send.none'), undefined);
  const destinations: LimitedDestination[] = [];
  let address: string | undefined;
  if (email !== undefined) {
    const reading = readEmail(email, { international: fields.allowInternationalEmail });
    if (reading.problem) throw invalid(t(emailProblemKey(email, reading.problem)), fields.emailField);
    address = reading.address;
    destinations.push({ value: address, field: fields.emailField });
  }
  let e164: string | undefined;
  if (mobile !== undefined) {
    const reading = readTypedPhone(mobile, fields.defaultCountry);
    if (reading.problem) throw invalid(t(PHONE_PROBLEMS[reading.problem]), fields.mobileField);
    e164 = reading.e164;
    destinations.push({ value: e164, field: fields.mobileField });
  }
  return { address, e164, channel: readChannel(body, fields.channelField, t), destinations };
}

/**
 * True for a POST with no body at all: no parsed body with a field, no `Content-Length` above 0,
 * no chunked body. (A parser that ran on an empty body leaves `{}`, or nothing.)
 */
export function hasNoBody(req: HttpRequest): boolean {
  const parsed = req.body;
  if (parsed !== undefined && parsed !== null && !(typeof parsed === 'object' && Object.keys(parsed).length === 0)) {
    return false;
  }
  return !(Number(req.headers['content-length'] ?? 0) > 0) && req.headers['transfer-encoding'] === undefined;
}

/**
 * What to tell a person whose address was refused. A plain space is not an "invisible character":
 * it is a space typed, or two contacts in one field ("ada@example.com +14155550123").
 */
function emailProblemKey(typed: string, problem: EmailProblem): MessageKey {
  if (problem !== 'hidden' || !/[ \t]/.test(typed)) return EMAIL_PROBLEMS[problem];
  // Other hidden characters besides the spaces: those are what the person must hear of.
  if (readEmail(typed.replace(/[ \t]+/g, '')).problem === 'hidden') return EMAIL_PROBLEMS.hidden;
  const parts = typed.split(/[\s,;]+/).filter(Boolean);
  const contacts = parts.filter((p) => p.includes('@') || /^\+?[\d().-]{6,}$/.test(p));
  return contacts.length > 1 ? 'send.twoContacts' : 'send.space';
}

/** The parsed body, telling a missing parser apart from a request that simply has no body. */
function readBody(req: HttpRequest, t: Say): Record<string, unknown> {
  // Own fields only: a polluted Object.prototype.email is no address.
  if (req.body && typeof req.body === 'object' && !Array.isArray(req.body)) return ownFields(req.body);
  const type = mediaType(req);
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (req.body === undefined && hasBody) {
    // Reached only when send() runs for a method other than POST or PUT (mounted with app.use,
    // app.all or app.patch): readBodyIfNeeded (body.ts) reads a form or JSON body on those two
    // alone, and the mount and the Fastify plugin route the send as POST only.
    if (type === 'application/json' || type === 'application/x-www-form-urlencoded') {
      throw OtplessSetupError.missingBodyParser();
    }
    // Anything else is the caller's mistake, not the app's setup.
    throw new OtplessRequestError(415, 'UNSUPPORTED_MEDIA_TYPE', MESSAGES.mediaType);
  }
  if (req.body === undefined || req.body === null || (typeof req.body === 'string' && req.body === '')) return {};
  throw invalid(t('send.none'), undefined);
}

function readField(body: Record<string, unknown>, name: string, kind: 'email' | 'mobile', t: Say): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length > MAX_FIELD_LENGTH) throw invalid(t(`send.${kind}`), name);
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

export function invalid(message: string, field: string | undefined): OtplessRequestError {
  return new OtplessRequestError(400, 'INVALID_INPUT', message, field);
}

/** Maps a client failure to what the visitor sees; the client error stays as `cause`. */
export function toSendError(err: unknown, emailField: string, mobileField: string, t: Say): OtplessRequestError {
  const cause = asError(err);
  const status = statusForServiceError(err);
  if (status === 400) {
    const field = fieldOf(err, emailField, mobileField);
    const message = t(field === emailField ? 'send.email' : field === mobileField ? 'send.mobile' : 'send.none');
    return new OtplessRequestError(400, 'INVALID_INPUT', message, field, cause);
  }
  return serviceFailure(err, t('send.service'));
}

/** Which form field an input error is about: the client's field name, or the service's error code. */
function fieldOf(err: unknown, emailField: string, mobileField: string): string | undefined {
  if (isOtplessError(err, 'INVALID_ARGUMENT')) {
    const { field } = err;
    if (field === 'email') return emailField;
    if (field === 'mobileNumber') return mobileField;
    return undefined;
  }
  const kind = serviceFieldOf(err);
  return kind === 'email' ? emailField : kind === 'mobile' ? mobileField : undefined;
}

export function asError(err: unknown): Error | undefined {
  return err instanceof Error ? err : undefined;
}

/** The channel the visitor chose, when the app lets them (`channelField`); a bad value is a 400 on that field. */
function readChannel(body: Record<string, unknown>, field: string | undefined, t: Say): MagicLinkChannel | undefined {
  if (field === undefined) return undefined;
  const value = body[field];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string' && (MAGIC_LINK_CHANNELS as readonly string[]).includes(value.toUpperCase())) {
    return value.toUpperCase() as MagicLinkChannel;
  }
  throw invalid(t('send.channel'), field);
}
