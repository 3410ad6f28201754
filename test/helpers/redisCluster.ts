import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startRedisServer, type RedisServer } from './redisServer.js';

const run = promisify(execFile);
export const REDIS_CLI = '/usr/bin/redis-cli';

export interface RedisCluster {
  /** The masters' `{ host, port }`, for a cluster client's root nodes. */
  nodes: Array<{ host: string; port: number }>;
  stop(): Promise<void>;
}

/**
 * A three-master Redis Cluster on loopback ports, each master in its own directory, created
 * with `redis-cli --cluster create`; resolves once every slot is served.
 */
export async function startRedisCluster(): Promise<RedisCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'otpless-cluster-'));
  const servers: RedisServer[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      servers.push(
        await startRedisServer({
          extra: ['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${i}.conf`, '--dir', dir],
        }),
      );
    }
    const addresses = servers.map((s) => `127.0.0.1:${s.port}`);
    await run(REDIS_CLI, ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes']);
    // The slots are served once every master agrees the cluster is ok: ask until it says so.
    for (const server of servers) {
      for (;;) {
        const { stdout } = await run(REDIS_CLI, ['-p', String(server.port), 'cluster', 'info']);
        if (stdout.includes('cluster_state:ok')) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  } catch (err) {
    await Promise.all(servers.map((s) => s.stop()));
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    nodes: servers.map((s) => ({ host: '127.0.0.1', port: s.port })),
    async stop() {
      await Promise.all(servers.map((s) => s.stop()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
