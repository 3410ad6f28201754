/**
 * Every event the package publishes, one named `diagnostics_channel` each, declared here only
 * (the way undici does). Subscribe with `diagnostics_channel.subscribe(name, listener)`, or
 * through `channels` below. Messages carry kinds, codes and timings: never a code, token,
 * secret, flow id or full destination (a masked one at most: `ja•••@example.com`, `••••0123`).
 * Publishing costs nothing when nobody listens: every site checks `hasSubscribers` first.
 */
import { channel, tracingChannel } from 'node:diagnostics_channel';
import type { RequestErrorCode } from './errors/codes.js';
import type { CallbackFailureCode } from './errors/callbackCodes.js';
import type { FlowDenial } from './errors/flowCodes.js';
import type { IdentityType } from './wire/types.js';
import type { EndpointName } from './wire/endpoints.js';

/** `passport-otpless:link:sent`: `send()` had the service send a link. */
export interface LinkSentEvent {
  types: IdentityType[];
  /** The channel of a mobile number's link ('WHATSAPP' or 'SMS'); absent for e-mail only. */
  channel?: string;
  /** The destinations, masked. */
  to: string[];
  /** True when the link can be approved from another device (crossDevice 'handoff'). */
  handoff: boolean;
}

/** `passport-otpless:send:refused`: `send()` refused before any call (input, limits, cross-site ...). */
export interface SendRefusedEvent {
  /** The error's `code`, as the JSON body's `error.code` (`RATE_LIMITED`, `INVALID_INPUT`, ...). */
  code: RequestErrorCode;
  status: number;
  /** For `RATE_LIMITED`: which limit, and how long until a send is allowed again. */
  retryAfterSeconds?: number;
}

/** `passport-otpless:login:succeeded`: the strategy handed a user to Passport. */
export interface LoginSucceededEvent {
  /** How the person was verified: the link in this browser, a frontend token, or a handoff. */
  via: 'code' | 'token' | 'handoff' | 'session';
  /** The verified identity types. */
  verified: IdentityType[];
  /** The risk verdict stored at login, when signals were asked for. */
  risk?: string;
}

/** `passport-otpless:login:refused`: the callback answered `fail` (the code of `CALLBACK_FAILURES`). */
export interface LoginRefusedEvent {
  /** As Passport's `info.code` and the JSON body's `error.code`. */
  code: CallbackFailureCode;
  status: number;
}

/** `passport-otpless:handoff:approved`: a cross-device flow was approved on the other device. */
export interface HandoffApprovedEvent {
  /** Milliseconds since the link was asked for. */
  ageMs: number;
}

/** `passport-otpless:handoff:denied`: a cross-device flow was denied on the other device. */
export interface HandoffDeniedEvent {
  /** Milliseconds since the link was asked for. */
  ageMs: number;
  /** Why: a wrong number typed, or the person pressed "This wasn't me" (a code the service refuses denies nothing). */
  code: FlowDenial;
}

/**
 * `passport-otpless:service:not-success`: an answer carried `status` in a state other than
 * SUCCESS and was refused (NOT_SUCCESS). `serviceStatus` is that state, at most 40 characters.
 */
export interface ServiceNotSuccessEvent {
  endpoint: EndpointName;
  /** The HTTP status of the answer (a 2xx). */
  status: number;
  serviceStatus: string;
}

/** `passport-otpless:guard:verdict`: a `requireLowRisk()` decision (the audit event, user masked). */
export interface GuardVerdictEvent {
  guard: string;
  route: string;
  action: string;
  reasons: string[];
  stale: boolean;
  refreshed: boolean;
  observeOnly: boolean;
}

/**
 * The context of `passport-otpless:service:call`, a `TracingChannel` (start, end, asyncStart,
 * asyncEnd, error) around every call to the service, so an APM can make a span of it. Filled in
 * as the call goes: `status` and `errorCode` once answered, `durationMs` when done.
 */
export interface ServiceCallContext {
  endpoint: EndpointName;
  status?: number;
  errorCode?: string;
  durationMs?: number;
  /** The error the call failed with (an `OtplessError`: no secret, code or token in it). */
  error?: unknown;
}

/** What each subscriber of `channels.serviceCall` is given: the call's context. */
export interface ServiceCallSubscribers {
  start(context: ServiceCallContext): void;
  end(context: ServiceCallContext): void;
  asyncStart(context: ServiceCallContext): void;
  asyncEnd(context: ServiceCallContext): void;
  error(context: ServiceCallContext): void;
}

/**
 * `channels.serviceCall`: Node's `TracingChannel`, typed here by what a subscriber uses. Our own
 * type, because @types/node swapped the order of `TracingChannel`'s type parameters (20:
 * store, context; 24+: context, store), and a declaration naming either order fails to compile
 * under the other.
 */
export interface ServiceCallChannel {
  subscribe(subscribers: Partial<ServiceCallSubscribers>): void;
  unsubscribe(subscribers: Partial<ServiceCallSubscribers>): boolean;
}

/** The tracing channel around every call to the service, fully typed, for our own use. */
export const serviceCallTracing = tracingChannel<unknown, ServiceCallContext>('passport-otpless:service:call');

/**
 * A `diagnostics_channel` typed by the message it carries: a subscriber gets the event's payload
 * type, and each publish site is checked against it. Node's `Channel` underneath (our own type,
 * as for `ServiceCallChannel`: @types/node's `Channel` is not generic in every major).
 */
export interface EventChannel<T> {
  readonly name: string | symbol;
  readonly hasSubscribers: boolean;
  publish(message: T): void;
  subscribe(listener: (message: T, name: string | symbol) => void): void;
  unsubscribe(listener: (message: T, name: string | symbol) => void): boolean;
}

const eventChannel = <T>(name: string): EventChannel<T> => channel(name) as unknown as EventChannel<T>;

/** The package's channels, by name, each with its payload type. */
export const channels: {
  readonly linkSent: EventChannel<LinkSentEvent>;
  readonly sendRefused: EventChannel<SendRefusedEvent>;
  readonly loginSucceeded: EventChannel<LoginSucceededEvent>;
  readonly loginRefused: EventChannel<LoginRefusedEvent>;
  readonly handoffApproved: EventChannel<HandoffApprovedEvent>;
  readonly handoffDenied: EventChannel<HandoffDeniedEvent>;
  readonly guardVerdict: EventChannel<GuardVerdictEvent>;
  readonly serviceNotSuccess: EventChannel<ServiceNotSuccessEvent>;
  readonly serviceCall: ServiceCallChannel;
} = {
  linkSent: eventChannel('passport-otpless:link:sent'),
  sendRefused: eventChannel('passport-otpless:send:refused'),
  loginSucceeded: eventChannel('passport-otpless:login:succeeded'),
  loginRefused: eventChannel('passport-otpless:login:refused'),
  handoffApproved: eventChannel('passport-otpless:handoff:approved'),
  handoffDenied: eventChannel('passport-otpless:handoff:denied'),
  guardVerdict: eventChannel('passport-otpless:guard:verdict'),
  serviceNotSuccess: eventChannel('passport-otpless:service:not-success'),
  serviceCall: serviceCallTracing as unknown as ServiceCallChannel,
};

/** Every channel name, for documentation and tests. */
export const CHANNEL_NAMES = [
  'passport-otpless:link:sent',
  'passport-otpless:send:refused',
  'passport-otpless:login:succeeded',
  'passport-otpless:login:refused',
  'passport-otpless:handoff:approved',
  'passport-otpless:handoff:denied',
  'passport-otpless:guard:verdict',
  'passport-otpless:service:not-success',
  'tracing:passport-otpless:service:call:start',
  'tracing:passport-otpless:service:call:end',
  'tracing:passport-otpless:service:call:asyncStart',
  'tracing:passport-otpless:service:call:asyncEnd',
  'tracing:passport-otpless:service:call:error',
] as const;

/** True when anyone listens to the service-call tracing channel (Node 20 has no `hasSubscribers` on it). */
export function tracingServiceCalls(): boolean {
  const t = serviceCallTracing as unknown as Record<
    'start' | 'end' | 'asyncEnd' | 'error',
    { hasSubscribers: boolean }
  >;
  return t.start.hasSubscribers || t.end.hasSubscribers || t.asyncEnd.hasSubscribers || t.error.hasSubscribers;
}

/** `jane.doe@example.com` -> `ja•••@example.com`, `+14155550123` -> `••••0123`. */
export function maskDestination(value: string): string {
  const at = value.lastIndexOf('@');
  if (at > 0) return `${value.slice(0, Math.min(2, at - 1) || 1)}•••${value.slice(at)}`;
  return `••••${value.replace(/\D/g, '').slice(-4)}`;
}
