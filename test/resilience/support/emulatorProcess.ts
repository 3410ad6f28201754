/**
 * Starts the real emulator in a child process (emulatorChild.ts) and drives it over IPC.
 * Used by the load test and the benchmarks, where one process for everything would leave
 * the second core idle and let the emulator's work distort what is measured.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { EmulatorOptions, FaultSpec, IssueTokenOptions, OutboxEntry } from '../../../src/emulator/index.js';

export interface EmulatorProcess {
  readonly authUrl: string;
  readonly userAuthUrl: string;
  readonly pid: number;
  /** The newest not yet returned outbox entry for each recipient (null when none). */
  entries(recipients: string[]): Promise<Array<OutboxEntry | null>>;
  entriesByRequestId(requestIds: string[]): Promise<Array<OutboxEntry | null>>;
  outboxSize(): Promise<number>;
  issueToken(options?: IssueTokenOptions): Promise<string>;
  fault(spec: FaultSpec): Promise<void>;
  advanceTime(ms: number): Promise<void>;
  /** heapUsed after a full GC (null unless started with exposeGc). */
  heapUsed(): Promise<number | null>;
  close(): Promise<void>;
}

export interface EmulatorProcessOptions {
  emulator?: Omit<EmulatorOptions, 'log'>;
  /** Start the child with --expose-gc, for heap measurements. */
  exposeGc?: boolean;
  /** Receives each line the child prints (the emulator's log); default: dropped. */
  onLine?: (line: string) => void;
}

const CHILD = fileURLToPath(new URL('./emulatorChild.ts', import.meta.url));

export async function startEmulatorProcess(options: EmulatorProcessOptions = {}): Promise<EmulatorProcess> {
  const child: ChildProcess = fork(CHILD, [JSON.stringify(options.emulator ?? {})], {
    execArgv: ['--import', 'tsx', ...(options.exposeGc ? ['--expose-gc'] : [])],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  let buffered = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) options.onLine?.(line);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const ready = await new Promise<{ authUrl: string; userAuthUrl: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { authUrl: string; userAuthUrl: string }));
    child.once('exit', (code) => reject(new Error(`emulator process exited early (${String(code)})`)));
  });

  let nextId = 0;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  child.on('message', (m: { id?: number; ok?: boolean; value?: unknown; error?: string }) => {
    if (m.id === undefined) return;
    const waiter = pending.get(m.id);
    pending.delete(m.id);
    if (m.ok) waiter?.resolve(m.value);
    else waiter?.reject(new Error(m.error));
  });
  const call = <T>(cmd: string, ...args: unknown[]): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      child.send({ id, cmd, args });
    });

  let closing: Promise<void> | undefined;
  return {
    authUrl: ready.authUrl,
    userAuthUrl: ready.userAuthUrl,
    pid: child.pid ?? -1,
    entries: (recipients) => call('entries', recipients),
    entriesByRequestId: (ids) => call('entriesByRequestId', ids),
    outboxSize: () => call('outboxSize'),
    issueToken: (opts) => call('issueToken', opts),
    fault: (spec) => call('fault', spec),
    advanceTime: (ms) => call('advanceTime', ms),
    heapUsed: () => call('heapUsed'),
    close: () => {
      closing ??= (async () => {
        if (child.exitCode === null && child.connected) child.send('close');
        // Bounded: a child that does not exit in 5 s is killed (by its own pid).
        const timer = setTimeout(() => child.kill(), 5_000);
        await exited;
        clearTimeout(timer);
        if (buffered) options.onLine?.(buffered);
      })();
      return closing;
    },
  };
}
