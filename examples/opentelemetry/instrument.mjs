// Turns passport-otpless's diagnostics_channel events into OpenTelemetry spans and metrics.
// The package depends on no telemetry library: it publishes, this file subscribes.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';

/**
 * Subscribes to every channel and records:
 * - a CLIENT span per call to the service (`otpless <endpoint>`), with its status, error code
 *   and duration, from the `passport-otpless:service:call` tracing channel;
 * - counters: links sent, sends refused (by code), logins (by path), logins refused (by code),
 *   handoffs approved/denied, guard verdicts (by action); a histogram of service call durations.
 *
 * @param {{ tracer: import('@opentelemetry/api').Tracer, meter: import('@opentelemetry/api').Meter }} otel
 * @returns {() => void} a function that unsubscribes everything
 */
export function instrumentPassportOtpless({ tracer, meter }) {
  const counters = {
    linksSent: meter.createCounter('otpless.links.sent', { description: 'Magic links sent' }),
    sendsRefused: meter.createCounter('otpless.sends.refused', { description: 'Sends refused, by code' }),
    logins: meter.createCounter('otpless.logins', { description: 'Logins, by path' }),
    loginsRefused: meter.createCounter('otpless.logins.refused', { description: 'Logins refused, by code' }),
    handoffs: meter.createCounter('otpless.handoffs', { description: 'Cross-device flows decided' }),
    verdicts: meter.createCounter('otpless.guard.verdicts', { description: 'requireLowRisk decisions' }),
  };
  const durations = meter.createHistogram('otpless.service.duration', { unit: 'ms' });
  const spans = new WeakMap();

  /** @type {Array<[string, (message: any) => void]>} */
  const handlers = [
    [
      'passport-otpless:link:sent',
      (m) => counters.linksSent.add(1, { types: m.types.join(','), channel: m.channel ?? 'EMAIL' }),
    ],
    ['passport-otpless:send:refused', (m) => counters.sendsRefused.add(1, { code: m.code })],
    ['passport-otpless:login:succeeded', (m) => counters.logins.add(1, { via: m.via })],
    ['passport-otpless:login:refused', (m) => counters.loginsRefused.add(1, { code: m.code })],
    ['passport-otpless:handoff:approved', () => counters.handoffs.add(1, { outcome: 'approved' })],
    ['passport-otpless:handoff:denied', (m) => counters.handoffs.add(1, { outcome: 'denied', code: m.code })],
    ['passport-otpless:guard:verdict', (m) => counters.verdicts.add(1, { action: m.action, route: m.route })],
    [
      'tracing:passport-otpless:service:call:start',
      (ctx) =>
        spans.set(
          ctx,
          tracer.startSpan(`otpless ${ctx.endpoint}`, {
            kind: SpanKind.CLIENT,
            attributes: { 'otpless.endpoint': ctx.endpoint },
          }),
        ),
    ],
    [
      'tracing:passport-otpless:service:call:error',
      (ctx) => spans.get(ctx)?.setStatus({ code: SpanStatusCode.ERROR, message: ctx.error?.code ?? 'error' }),
    ],
    [
      'tracing:passport-otpless:service:call:asyncEnd',
      (ctx) => {
        const span = spans.get(ctx);
        if (!span) return;
        if (ctx.status !== undefined) span.setAttribute('http.response.status_code', ctx.status);
        if (ctx.errorCode !== undefined) span.setAttribute('otpless.error_code', ctx.errorCode);
        span.end();
        durations.record(ctx.durationMs ?? 0, { endpoint: ctx.endpoint, status: String(ctx.status ?? 'none') });
      },
    ],
  ];
  for (const [name, handler] of handlers) subscribe(name, handler);
  return () => {
    for (const [name, handler] of handlers) unsubscribe(name, handler);
  };
}
