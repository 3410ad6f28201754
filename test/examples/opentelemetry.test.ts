import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import {
  InMemoryMetricExporter,
  AggregationTemporality,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { ensureBuilt } from './helpers/ensureBuild.js';
import { linkTo } from './helpers/inbox.js';

await ensureBuilt();
const { createApp } = await import('../../examples/opentelemetry/app.mjs');

const CLIENT = { clientId: 'otel-client', clientSecret: 'otel-secret-value-123' };
let emulator: Emulator;
const spans = new InMemorySpanExporter();
const metrics = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter: metrics, exportIntervalMillis: 60_000 });
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const meterProvider = new MeterProvider({ readers: [reader] });

beforeAll(async () => {
  emulator = await startEmulator({ clients: [CLIENT], quiet: true });
});
afterAll(async () => {
  await meterProvider.shutdown();
  await tracerProvider.shutdown();
  await emulator.close();
});

describe('opentelemetry example', () => {
  it('turns a login into spans and metrics, with no secret in them', async () => {
    const server = (await import('node:http')).createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { app, close } = createApp({
      otpless: { ...CLIENT, authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl },
      callbackUrl: `${base}/auth/callback`,
      sessionSecret: 'otel-test-session-secret',
      tracer: tracerProvider.getTracer('test'),
      meter: meterProvider.getMeter('test'),
    });
    server.on('request', app);
    try {
      const browser = supertest.agent(server);
      expect((await browser.post('/auth/magic-link').send({ email: 'otel@example.com' })).status).toBe(200);
      const clicked = await fetch(linkTo(emulator, 'otel@example.com'), { redirect: 'manual' });
      const callback = new URL(clicked.headers.get('location')!);
      // A browser follows the link (Accept: text/html): signed in, and on to /me.
      const landed = await browser.get(callback.pathname + callback.search).set('accept', 'text/html');
      expect(landed.status).toBe(303);
      expect(landed.headers.location).toBe('/me');
      expect((await browser.get('/me')).status).toBe(200);
      expect((await browser.post('/auth/magic-link').send({ email: 'bad' })).status).toBe(400);

      const names = spans.getFinishedSpans().map((s) => s.name);
      expect(names).toEqual(
        expect.arrayContaining(['otpless sendMagicLink', 'otpless verifyCode', 'otpless secureInfo']),
      );
      const verify = spans.getFinishedSpans().find((s) => s.name === 'otpless verifyCode')!;
      expect(verify.attributes['http.response.status_code']).toBe(200);

      await reader.forceFlush();
      const points = new Map<string, number>();
      for (const resource of metrics.getMetrics()) {
        for (const scope of resource.scopeMetrics) {
          for (const metric of scope.metrics) {
            for (const point of metric.dataPoints) {
              const key = `${metric.descriptor.name}${JSON.stringify(point.attributes)}`;
              points.set(key, typeof point.value === 'number' ? point.value : (point.value as { count: number }).count);
            }
          }
        }
      }
      expect(points.get('otpless.links.sent{"types":"EMAIL","channel":"EMAIL"}')).toBe(1);
      expect(points.get('otpless.logins{"via":"code"}')).toBe(1);
      expect(points.get('otpless.sends.refused{"code":"INVALID_INPUT"}')).toBe(1);
      expect(points.get('otpless.guard.verdicts{"action":"allow","route":"GET /me"}')).toBe(1);

      const exported = JSON.stringify([spans.getFinishedSpans().map((s) => [s.name, s.attributes]), [...points]]);
      for (const secret of [CLIENT.clientSecret, callback.searchParams.get('code')!, 'otel@example.com']) {
        expect(exported).not.toContain(secret);
      }
    } finally {
      await close();
      server.close();
    }
  });
});
