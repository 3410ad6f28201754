import { ENDPOINTS } from '../wire/endpoints.js';
import type { DeliveryMethod } from '../wire/types.js';
import { SERVICE_FAULT_ERRORS } from './errors.js';
import type { FaultSpec } from './types.js';

interface ArmedFault {
  readonly spec: FaultSpec;
  remaining: number;
}

function checkSpec(spec: FaultSpec): void {
  if (!spec || typeof spec.path !== 'string' || !spec.path.startsWith('/')) {
    throw new TypeError('fault(spec): spec.path must be a path starting with "/", e.g. "/auth/v1/verify/code"');
  }
  if (spec.status !== undefined && !(Number.isInteger(spec.status) && spec.status >= 100 && spec.status <= 599)) {
    throw new TypeError(`fault(spec): spec.status must be an HTTP status from 100 to 599, got ${String(spec.status)}`);
  }
  if (spec.error !== undefined && !(SERVICE_FAULT_ERRORS as readonly string[]).includes(spec.error)) {
    throw new TypeError(
      `fault(spec): spec.error must be one of the service's errors (${SERVICE_FAULT_ERRORS.join(', ')}), got ${String(spec.error)}`,
    );
  }
  if (spec.delayMs !== undefined && !(Number.isFinite(spec.delayMs) && spec.delayMs >= 0)) {
    throw new TypeError(`fault(spec): spec.delayMs must be a finite number >= 0, got ${String(spec.delayMs)}`);
  }
  const times = spec.times ?? 1;
  if (!(times === Infinity || (Number.isInteger(times) && times >= 1))) {
    throw new TypeError(`fault(spec): spec.times must be an integer >= 1 or Infinity, got ${String(spec.times)}`);
  }
  if (spec.reset && faultAnswers(spec)) {
    throw new TypeError(
      'fault(spec): spec.reset destroys the socket, so it cannot be combined with error, status, body or headers',
    );
  }
  if (spec.notDelivered !== undefined) checkNotDelivered(spec);
  if (
    spec.body !== undefined &&
    typeof spec.body !== 'string' &&
    (typeof spec.body !== 'object' || spec.body === null)
  ) {
    throw new TypeError('fault(spec): spec.body must be a string or an object');
  }
}

const DELIVERY_METHODS: readonly DeliveryMethod[] = ['WHATSAPP', 'SMS', 'VIBER', 'EMAIL'];

/** A message lost on its way: only on the send, and only that (the send itself answers as usual). */
function checkNotDelivered(spec: FaultSpec): void {
  if (!DELIVERY_METHODS.includes(spec.notDelivered as DeliveryMethod)) {
    throw new TypeError(
      `fault(spec): spec.notDelivered must be one of ${DELIVERY_METHODS.join(', ')}, got ${String(spec.notDelivered)}`,
    );
  }
  if (spec.path !== ENDPOINTS.sendMagicLink.path) {
    throw new TypeError(
      `fault(spec): spec.notDelivered applies to the send only: path "${ENDPOINTS.sendMagicLink.path}"`,
    );
  }
  if (spec.reset || faultAnswers(spec) || spec.delayMs !== undefined) {
    throw new TypeError('fault(spec): spec.notDelivered answers the send as usual, so it takes only path and times');
  }
}

/** Faults waiting for calls, per path, applied in the order they were added. */
export class Faults {
  private readonly byPath = new Map<string, ArmedFault[]>();
  /** Messages to lose, per channel, in the order they were added (`notDelivered`). */
  private readonly lost: ArmedFault[] = [];

  add(spec: FaultSpec): void {
    checkSpec(spec);
    if (spec.notDelivered !== undefined) {
      this.lost.push({ spec: { ...spec }, remaining: spec.times ?? 1 });
      return;
    }
    const queue = this.byPath.get(spec.path) ?? [];
    queue.push({ spec: { ...spec }, remaining: spec.times ?? 1 });
    this.byPath.set(spec.path, queue);
  }

  /** The fault for this call to `path`, consuming one of its `times`; undefined when none. */
  take(path: string): FaultSpec | undefined {
    const queue = this.byPath.get(path);
    const armed = queue?.[0];
    if (!queue || !armed) return undefined;
    armed.remaining -= 1;
    if (armed.remaining <= 0) queue.shift();
    if (queue.length === 0) this.byPath.delete(path);
    return armed.spec;
  }

  /**
   * Whether the message of this channel is lost (a `notDelivered` fault for it), consuming one
   * of that fault's `times`. Sends by other channels leave it armed.
   */
  takeNotDelivered(channel: DeliveryMethod): boolean {
    const index = this.lost.findIndex((armed) => armed.spec.notDelivered === channel);
    const armed = this.lost[index];
    if (!armed) return false;
    armed.remaining -= 1;
    if (armed.remaining <= 0) this.lost.splice(index, 1);
    return true;
  }

  clear(): void {
    this.byPath.clear();
    this.lost.length = 0;
  }
}

/** Whether the fault answers the call itself (rather than only delaying it). */
export function faultAnswers(spec: FaultSpec): boolean {
  return spec.error !== undefined || spec.status !== undefined || spec.body !== undefined || spec.headers !== undefined;
}
