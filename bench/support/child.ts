/**
 * A tiny request/answer protocol over IPC for the benchmark's child processes (the apps under
 * test), so that the load generator, the app and the emulator each get their own process.
 */
import { fork, type ChildProcess } from 'node:child_process';

interface Request {
  id: number;
  cmd: string;
  args: unknown[];
}

type Answer = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

export interface Child<R> {
  /** What the child sent once ready (its URL, ...). */
  readonly ready: R;
  readonly pid: number;
  call<T>(cmd: string, ...args: unknown[]): Promise<T>;
  close(): Promise<void>;
}

/** Forks `file` (TypeScript, through tsx) and waits for its ready message. */
export async function forkChild<R>(
  file: string,
  args: unknown,
  options: { exposeGc?: boolean; execArgv?: string[] } = {},
): Promise<Child<R>> {
  const child: ChildProcess = fork(file, [JSON.stringify(args ?? {})], {
    execArgv: [
      '--import',
      'tsx',
      ...(options.exposeGc ? ['--expose-gc'] : []),
      ...(options.execArgv ?? []),
      ...(process.env.BENCH_CHILD_FLAGS?.split(' ').filter(Boolean) ?? []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<R>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { ready: R }).ready));
    child.once('exit', (code) => reject(new Error(`${file} exited early (${String(code)})`)));
  });
  let nextId = 0;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  child.on('message', (m: Answer) => {
    const waiter = pending.get(m.id);
    pending.delete(m.id);
    if (m.ok) waiter?.resolve(m.value);
    else waiter?.reject(new Error(m.error));
  });
  let closing: Promise<void> | undefined;
  return {
    ready,
    pid: child.pid ?? -1,
    call: <T>(cmd: string, ...callArgs: unknown[]) =>
      new Promise<T>((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ id, cmd, args: callArgs } satisfies Request);
      }),
    close: () => {
      closing ??= (async () => {
        if (child.exitCode === null && child.connected) child.send('close');
        // Bounded: a child that has not exited after 5 s is killed (its own pid only).
        const timer = setTimeout(() => child.kill(), 5_000);
        await exited;
        clearTimeout(timer);
      })();
      return closing;
    },
  };
}

/** Child side: answers commands with `handlers`, announces `ready`, and runs `stop` on 'close'. */
export function serveCommands(
  handlers: Record<string, (...args: never[]) => unknown>,
  ready: unknown,
  stop: () => Promise<void>,
): void {
  let stopping = false;
  const finish = async () => {
    if (stopping) return;
    stopping = true;
    await stop();
    process.disconnect?.();
  };
  process.on('message', async (message: Request | 'close') => {
    if (message === 'close') return void finish();
    try {
      const handler = handlers[message.cmd];
      if (!handler) throw new Error(`unknown command ${message.cmd}`);
      const value = await (handler as (...a: unknown[]) => unknown)(...message.args);
      process.send?.({ id: message.id, ok: true, value: value ?? null } satisfies Answer);
    } catch (err) {
      process.send?.({ id: message.id, ok: false, error: String(err) } satisfies Answer);
    }
  });
  // The parent went away: do not linger.
  process.on('disconnect', () => void finish());
  process.send?.({ ready });
}

/** heapUsed after full garbage collections (the process must run with --expose-gc). */
export function heapAfterGc(): number | null {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return null;
  // Twice: the first pass can leave objects with finalizers for the second.
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

export function argsOf<T>(): T {
  return JSON.parse(process.argv[2] ?? '{}') as T;
}
