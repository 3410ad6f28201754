import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

export const REDIS_SERVER = '/usr/bin/redis-server';

export function hasRedisServer(): boolean {
  return existsSync(REDIS_SERVER);
}

export interface RedisServer {
  url: string;
  port: number;
  /** The server's process id (a test may pause it with SIGSTOP, and must SIGCONT it). */
  pid: number;
  stop(): Promise<void>;
}

/** A port that was free a moment ago (redis-server cannot be given port 0). */
async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * Starts a throwaway redis-server on a loopback port: no persistence, stopped by its pid.
 * `port` restarts one on the port of a stopped one; `extra` adds arguments (cluster mode).
 */
export async function startRedisServer(options: { port?: number; extra?: string[] } = {}): Promise<RedisServer> {
  for (let attempt = 1; ; attempt += 1) {
    const port = options.port ?? (await freePort());
    const child = spawn(
      REDIS_SERVER,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...(options.extra ?? [])],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      await waitUntilReady(child);
      return {
        url: `redis://127.0.0.1:${port}`,
        port,
        pid: child.pid!,
        async stop() {
          if (child.exitCode !== null) return;
          child.kill('SIGTERM');
          await once(child, 'exit');
        },
      };
    } catch (err) {
      child.kill('SIGKILL');
      // Someone took the port between the probe and the start: try another one.
      if (attempt < 3 && options.port === undefined) continue;
      throw err;
    }
  }
}

function waitUntilReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`redis-server did not start within 10 s:\n${output}`)), 10_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) done();
    };
    const onExit = (code: number | null): void => fail(new Error(`redis-server exited with ${code}:\n${output}`));
    function cleanup(): void {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      // Keep draining the pipes so redis-server never blocks on a full one.
      child.stdout?.resume();
      child.stderr?.resume();
    }
    function done(): void {
      cleanup();
      resolve();
    }
    function fail(err: Error): void {
      cleanup();
      reject(err);
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}
