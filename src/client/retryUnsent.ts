import type { Duplex } from 'node:stream';
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';

/** Failures of a connection itself (not of a connect attempt, a timeout or an abort). */
const CONNECTION_LOST: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/**
 * An undici interceptor that retries a request ONCE when its pooled connection turned out to
 * be dead before any byte of the request reached it, which is safe for every call (verify
 * included): the service never saw it.
 *
 * The case: a keep-alive socket the server (or a proxy) closed while it sat in the pool. undici
 * 7 reports it two ways, depending on when it notices:
 * - it checks an idle socket before reusing it; finding a clean close (FIN) it moves the request
 *   to a new connection itself, but finding a reset (RST) it fails every request waiting for that
 *   socket with `ECONNRESET` (syscall `read`), before starting any of them. undici starts writing
 *   a request right after calling the handler's `onRequestStart`, so these were never sent;
 * - a request that follows the previous one on the socket without a pause is written at once,
 *   unchecked; if the server had already reset the connection, the kernel refuses that write:
 *   `ECONNRESET` or `EPIPE` with syscall `write`. undici writes our requests (string bodies) in
 *   one write, so a refused write means the server got none of it, or never a whole request.
 *
 * Rule: retry once when the error is ECONNRESET, EPIPE or UND_ERR_SOCKET and either
 * `onRequestStart` was not called yet or the failed syscall is `write`. Nothing else is retried:
 * not a connection lost after the request was written (the server may have read it: a reset
 * while reading, or "other side closed"), not timeouts or aborts, not failed connects, not any
 * answer, and never a second time.
 *
 * @example
 * const agent = new Agent({ connections: 64 }).compose(retryUnsent);
 */
export const retryUnsent: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (options, handler) =>
  dispatch(options, new RetryUnsentHandler(dispatch, options, handler));

/**
 * The rule of `retryUnsent`, for both handler interfaces: the connection was lost
 * (ECONNRESET, EPIPE, UND_ERR_SOCKET) before the request started, or while it was being written.
 */
function lostUnsent(error: Error, started: boolean): boolean {
  const { code, syscall } = error as { code?: unknown; syscall?: unknown };
  return (!started || syscall === 'write') && typeof code === 'string' && CONNECTION_LOST.has(code);
}

class RetryUnsentHandler implements Dispatcher.DispatchHandler {
  readonly #dispatch: Dispatcher.Dispatch;
  readonly #options: Dispatcher.DispatchOptions;
  readonly #handler: Dispatcher.DispatchHandler;
  #started = false;
  #retried = false;

  constructor(dispatch: Dispatcher.Dispatch, options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) {
    this.#dispatch = dispatch;
    this.#options = options;
    this.#handler = handler;
  }

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.#started = true;
    this.#handler.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
    socket: Duplex,
  ): void {
    this.#handler.onRequestUpgrade?.(controller, statusCode, headers, socket);
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
    statusMessage?: string,
  ): void {
    this.#handler.onResponseStart?.(controller, statusCode, headers, statusMessage);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#handler.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Dispatcher.DispatchController, trailers: IncomingHttpHeaders): void {
    this.#handler.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Dispatcher.DispatchController, error: Error): void {
    if (this.#retried || !lostUnsent(error, this.#started)) {
      this.#handler.onResponseError?.(controller, error);
      return;
    }
    this.#retried = true;
    // Not from inside undici's error handling of the dead socket (it is still failing the
    // requests that waited for it): the next turn sees the socket gone and takes or opens another.
    setImmediate(() => {
      try {
        this.#dispatch(this.#options, this);
      } catch (err) {
        this.#handler.onResponseError?.(controller, err instanceof Error ? err : error);
      }
    });
  }
}

type LegacyHandler = Dispatcher.DispatchHandler & {
  onRequestSent?: () => void;
};

/**
 * The same rule as `retryUnsent`, on the dispatcher itself and on the handler interface undici's
 * own `request()` speaks (`onConnect`, `onHeaders`, ...). An interceptor given to `compose` sees
 * every handler through undici's adapters, which turn the answer's headers into an object and
 * back on each call: three handler layers and two header conversions per request, a sizeable
 * share of a keep-alive call. Here the request's handler and undici's core meet with this one
 * layer between them. A handler of the newer interface (`onRequestStart`) goes through
 * `retryUnsent` as before.
 *
 * @example
 * const agent = withRetryUnsent(new Agent({ connections: 64 }));
 */
export function withRetryUnsent<D extends Dispatcher>(dispatcher: D): D {
  const dispatch = dispatcher.dispatch.bind(dispatcher) as Dispatcher.Dispatch;
  const newer = retryUnsent(dispatch);
  // An own property over the class's method: undici's `request()` calls `this.dispatch`.
  dispatcher.dispatch = (options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) =>
    typeof handler.onRequestStart === 'function'
      ? newer(options, handler)
      : dispatch(options, new LegacyRetryUnsentHandler(dispatch, options, handler));
  return dispatcher;
}

/** `RetryUnsentHandler` on the older handler interface: `onConnect` is the request's start. */
class LegacyRetryUnsentHandler {
  readonly #dispatch: Dispatcher.Dispatch;
  readonly #options: Dispatcher.DispatchOptions;
  readonly #handler: LegacyHandler;
  #started = false;
  #retried = false;

  constructor(dispatch: Dispatcher.Dispatch, options: Dispatcher.DispatchOptions, handler: LegacyHandler) {
    this.#dispatch = dispatch;
    this.#options = options;
    this.#handler = handler;
  }

  onConnect(abort: (err?: Error) => void, context?: unknown): void {
    this.#started = true;
    (this.#handler.onConnect as ((abort: (err?: Error) => void, context?: unknown) => void) | undefined)?.call(
      this.#handler,
      abort,
      context,
    );
  }

  onResponseStarted(): void {
    this.#handler.onResponseStarted?.();
  }

  onHeaders(statusCode: number, headers: Buffer[], resume: () => void, statusText: string): boolean {
    return this.#handler.onHeaders?.(statusCode, headers, resume, statusText) ?? true;
  }

  onData(chunk: Buffer): boolean {
    return this.#handler.onData?.(chunk) ?? true;
  }

  onComplete(trailers: string[] | null): void {
    this.#handler.onComplete?.(trailers);
  }

  onUpgrade(statusCode: number, headers: Buffer[] | string[] | null, socket: Duplex): void {
    this.#handler.onUpgrade?.(statusCode, headers, socket);
  }

  onBodySent(chunkSize: number, totalBytesSent: number): void {
    this.#handler.onBodySent?.(chunkSize, totalBytesSent);
  }

  onRequestSent(): void {
    this.#handler.onRequestSent?.();
  }

  onError(error: Error): void {
    if (this.#retried || !lostUnsent(error, this.#started)) {
      this.#handler.onError?.(error);
      return;
    }
    this.#retried = true;
    // As in RetryUnsentHandler: not from inside undici's handling of the dead socket.
    setImmediate(() => {
      try {
        this.#dispatch(this.#options, this as Dispatcher.DispatchHandler);
      } catch (err) {
        this.#handler.onError?.(err instanceof Error ? err : error);
      }
    });
  }
}
