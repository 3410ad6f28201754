import type { Dispatcher } from 'undici';
import { createAgent, requestOn } from './agent.js';
import type { EndpointName } from '../wire/endpoints.js';
import { OtplessApiError } from '../errors/index.js';
import { OtplessNetworkError } from '../errors/index.js';
import { OtplessResponseError } from '../errors/index.js';
import { OtplessTimeoutError } from '../errors/index.js';
import { parseServiceError } from './errorBody.js';
import { redact, sanitizedCause, secretForms } from './redact.js';
import type { Check } from './shapes/check.js';
import { decodeBody } from './decode.js';
import { serviceCallTracing, tracingServiceCalls, type ServiceCallContext } from '../diagnostics.js';
import { Deadline } from './deadline.js';
import { withRetryUnsent } from './retryUnsent.js';

/** The fixed part of one endpoint's requests, built once per client. */
export interface Route {
  readonly endpoint: EndpointName;
  readonly origin: string;
  readonly path: string;
  readonly method: 'GET' | 'POST';
  readonly headers: Readonly<Record<string, string>>;
}

export interface TransportOptions {
  timeoutMs: number;
  maxResponseBytes: number;
  connections: number;
  /** Forms of the client secret to redact from any outside text. */
  secrets: readonly string[];
}

/**
 * HTTP for the client: one keep-alive pool per origin (undici Agent), a timeout over the whole
 * request, a cap on response bodies, and the mapping of every failure to a typed, redacted error.
 * The one retry: a request whose pooled socket was found dead before any of it was sent
 * (see retryUnsent.ts).
 */
export class Transport {
  readonly #agent: Dispatcher;
  readonly #timeoutMs: number;
  readonly #maxResponseBytes: number;
  readonly #secrets: readonly string[];
  #closed = false;

  constructor(options: TransportOptions) {
    this.#timeoutMs = options.timeoutMs;
    this.#maxResponseBytes = options.maxResponseBytes;
    this.#secrets = options.secrets;
    this.#agent = withRetryUnsent(
      createAgent({
        connections: options.connections,
        // undici stops reading (and drops the socket) past this, so a huge chunked body is never buffered.
        maxResponseSize: options.maxResponseBytes,
      }),
    );
  }

  /**
   * Sends one request and returns its JSON body once `shape` accepts it.
   * @param path request path (with query string for authorize)
   * @param sensitive the code or token this call carries (raw), redacted from errors in all its forms
   */
  send<T>(
    route: Route,
    path: string,
    body: string | undefined,
    shape: Check<T>,
    sensitive: readonly string[],
  ): Promise<T> {
    // No span asked for: the request's own promise, with no async layer (a promise, a turn) around it.
    if (!tracingServiceCalls()) return this.#send(route, path, body, shape, sensitive);
    return this.#traced(route.endpoint, () => this.#send(route, path, body, shape, sensitive));
  }

  /**
   * `call` (the request, started inside the span) in a span for APMs: endpoint, status, the
   * service's error code and the duration; no URL (the authorize call's query holds the secret)
   * and no body.
   */
  async #traced<T>(endpoint: EndpointName, call: () => Promise<T>): Promise<T> {
    const context: ServiceCallContext = { endpoint };
    const started = performance.now();
    let result: T | undefined;
    // The traced function resolves to nothing: tracePromise would put its value (the answer,
    // with the login's token) on the context every listener sees.
    await serviceCallTracing.tracePromise(async () => {
      try {
        result = await call();
        context.status = 200; // a 2xx the shape accepted
      } catch (err) {
        const failed = err as { status?: unknown; errorCode?: unknown };
        if (typeof failed.status === 'number') context.status = failed.status;
        if (typeof failed.errorCode === 'string') context.errorCode = failed.errorCode;
        throw err;
      } finally {
        context.durationMs = performance.now() - started;
      }
    }, context);
    return result as T;
  }

  async #send<T>(
    route: Route,
    path: string,
    body: string | undefined,
    shape: Check<T>,
    sensitive: readonly string[],
  ): Promise<T> {
    if (this.#closed)
      throw new OtplessNetworkError(
        route.endpoint,
        `OTPless ${route.endpoint}: the client is closed. Create a new OtplessClient.`,
      );
    // One deadline covers connect, headers and body: undici's own timeouts are per phase and idle-based.
    const deadline = new Deadline(this.#timeoutMs);
    try {
      let response: Dispatcher.ResponseData;
      try {
        response = await requestOn(this.#agent, {
          origin: route.origin,
          path,
          method: route.method,
          headers: route.headers,
          body,
          signal: deadline.asSignal(),
        });
      } catch (err) {
        throw this.#failure(route, err, deadline.aborted, sensitive);
      }
      const { statusCode } = response;
      if (statusCode < 200 || statusCode > 299) throw await this.#apiError(route, response, sensitive);
      // A body announced larger than the cap is not read at all (undici caps chunked ones).
      if (this.#announcedTooLarge(response)) {
        response.body.destroy();
        throw this.#tooLarge(route, statusCode);
      }
      let text: string;
      try {
        text = await response.body.text();
      } catch (err) {
        if (isTooLarge(err)) throw this.#tooLarge(route, statusCode);
        throw this.#failure(route, err, deadline.aborted, sensitive);
      }
      return decodeBody(route.endpoint, statusCode, text, shape, () => this.#secretsWith(sensitive));
    } finally {
      deadline.clear();
    }
  }

  /** Waits for requests in flight, then closes every pooled socket. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#agent.close();
  }

  /** True when the answer announces a body larger than the cap. */
  #announcedTooLarge(response: Dispatcher.ResponseData): boolean {
    const declared = response.headers['content-length'];
    return typeof declared === 'string' && Number(declared) > this.#maxResponseBytes;
  }

  async #apiError(
    route: Route,
    response: Dispatcher.ResponseData,
    sensitive: readonly string[],
  ): Promise<OtplessApiError> {
    let text = '';
    if (this.#announcedTooLarge(response)) {
      response.body.destroy();
    } else {
      // The status alone is the error; a body that fails to arrive only loses the details.
      text = await response.body.text().catch(() => '');
    }
    return new OtplessApiError({
      endpoint: route.endpoint,
      status: response.statusCode,
      ...parseServiceError(text, this.#secretsWith(sensitive)),
    });
  }

  /** The secret's forms plus those of this call's code or token, computed on error paths only. */
  #secretsWith(sensitive: readonly string[]): readonly string[] {
    return sensitive.length === 0 ? this.#secrets : [...this.#secrets, ...sensitive.flatMap(secretForms)];
  }

  #tooLarge(route: Route, status: number): OtplessResponseError {
    return new OtplessResponseError(
      route.endpoint,
      status,
      `body larger than maxResponseBytes (${this.#maxResponseBytes})`,
    );
  }

  #failure(route: Route, err: unknown, timedOut: boolean, sensitive: readonly string[]): Error {
    const code = (err as { code?: unknown } | null)?.code;
    if (
      timedOut ||
      code === 'UND_ERR_CONNECT_TIMEOUT' ||
      code === 'UND_ERR_HEADERS_TIMEOUT' ||
      code === 'UND_ERR_BODY_TIMEOUT'
    ) {
      return new OtplessTimeoutError(route.endpoint, this.#timeoutMs);
    }
    const secrets = this.#secretsWith(sensitive);
    const cause = sanitizedCause(err, secrets);
    const reason = typeof code === 'string' ? code : cause.message;
    const closed = this.#closed ? ' (the client was closed)' : '';
    return new OtplessNetworkError(
      route.endpoint,
      `OTPless ${route.endpoint}: network failure with ${route.origin}${closed}: ${redact(reason, secrets)}. Check authUrl/userAuthUrl and the network, then retry.`,
      cause,
    );
  }
}

function isTooLarge(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE';
}
