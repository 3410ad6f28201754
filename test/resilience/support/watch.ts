/**
 * What every resilience file watches while it runs: each console call and each write to
 * stdout/stderr, every error the tests produce, and unhandled rejections. At the end the whole
 * haystack is searched for the client secret and for every code and token the file used.
 *
 * Console calls are recorded and not printed (set RESILIENCE_VERBOSE=1 to see them): the
 * suite logs every app error on purpose, and a reporter full of them would hide real failures.
 */
import { format, inspect } from 'node:util';
import { haystackOf } from '../../client/helpers/secrets.js';

/** Everything a logger or error reporter could print about a value. */
function haystack(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return haystackOf(value);
  } catch (err) {
    // haystackOf stringifies own properties; a null-prototype object refuses that.
    return `${inspect(value, { showHidden: true, depth: Infinity, getters: true })}\n${String(err)}`;
  }
}

type ConsoleMethod = 'log' | 'info' | 'warn' | 'error' | 'debug' | 'trace';
const METHODS: readonly ConsoleMethod[] = ['log', 'info', 'warn', 'error', 'debug', 'trace'];
/** Codes, tokens and the secret are base64url-ish: found by a window scan instead of includes(). */
const WORDISH = /^[A-Za-z0-9_-]+$/;

export interface Leak {
  needle: string;
  where: string;
}

export class SuiteWatch {
  readonly lines: string[] = [];
  readonly errors: unknown[] = [];
  readonly rejections: unknown[] = [];
  readonly #needles = new Set<string>();
  #restore: (() => void) | undefined;

  /** Starts recording; call once per file, before anything runs. */
  install(): this {
    const verbose = process.env.RESILIENCE_VERBOSE === '1';
    const originals = new Map<ConsoleMethod, (...args: unknown[]) => void>();
    for (const method of METHODS) {
      const original = console[method].bind(console) as (...args: unknown[]) => void;
      originals.set(method, original);
      console[method] = (...args: unknown[]) => {
        // console.error(err) prints util.inspect(err): stack, cause and own fields.
        this.lines.push(format(...args));
        for (const arg of args) if (arg instanceof Error) this.errors.push(arg);
        if (verbose) original(...args);
      };
    }
    const outWrite = process.stdout.write;
    const errWrite = process.stderr.write;
    const record =
      (stream: NodeJS.WriteStream, original: typeof outWrite) =>
      (chunk: unknown, ...rest: unknown[]) => {
        this.lines.push(
          typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk),
        );
        return (original as (...a: unknown[]) => boolean).call(stream, chunk, ...rest);
      };
    process.stdout.write = record(process.stdout, outWrite) as typeof outWrite;
    process.stderr.write = record(process.stderr, errWrite) as typeof errWrite;
    const onRejection = (reason: unknown) => this.rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    this.#restore = () => {
      for (const [method, original] of originals) console[method] = original;
      process.stdout.write = outWrite;
      process.stderr.write = errWrite;
      process.off('unhandledRejection', onRejection);
    };
    return this;
  }

  uninstall(): void {
    this.#restore?.();
    this.#restore = undefined;
  }

  /** Values that must never appear: the secret, codes, tokens, session tokens. */
  sensitive(...values: Array<string | undefined>): void {
    for (const value of values) {
      if (!value) continue;
      for (const form of [value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2)])
        this.#needles.add(form);
    }
  }

  /** Records an error produced by a test (a client error, an app error, a response body). */
  error(err: unknown): void {
    this.errors.push(err);
  }

  get needleCount(): number {
    return this.#needles.size;
  }

  /** Every place a needle appears in the recorded lines and errors. */
  leaks(): Leak[] {
    const found = new Map<string, Leak>();
    const words = [...this.#needles].filter((n) => WORDISH.test(n));
    const others = [...this.#needles].filter((n) => !WORDISH.test(n));
    const wordSet = new Set(words);
    const lengths = [...new Set(words.map((w) => w.length))];
    const search = (text: string, where: string) => {
      for (const needle of others) if (text.includes(needle)) found.set(`${needle} ${where}`, { needle, where });
      // A window of each needle length over every run of word characters: linear in the text.
      for (const run of text.split(/[^A-Za-z0-9_-]+/)) {
        for (const len of lengths) {
          for (let i = 0; i + len <= run.length; i++) {
            const piece = run.slice(i, i + len);
            if (wordSet.has(piece)) found.set(`${piece} ${where}`, { needle: piece, where });
          }
        }
      }
    };
    this.lines.forEach((line, i) => search(line, `log line ${i}: ${line.slice(0, 200)}`));
    this.errors.forEach((err, i) => {
      const text = haystack(err);
      search(text, `error ${i}: ${inspect(err, { depth: 1 }).slice(0, 200)}`);
    });
    return [...found.values()];
  }
}
