/**
 * This checkout's login callback against another checkout's, alternated:
 * `npx tsx bench/ab.ts --together --base-mode floor [--app fastify]` pairs ours with the same-work
 * floor (bench/support/floorLogin.ts: a hand-written Passport login doing the strategy's checks);
 * `--quick` runs one small round, for CI (it only has to finish: no figure is judged).
 * Before the rounds, each side is shown a link used once already: both must refuse it.
 *
 * `npx tsx bench/ab.ts --base DIR [--app express|fastify] [--rounds 9] [--logins 1500] [--warmup-rounds 2]`, or two
 * apps of this checkout: `npx tsx bench/ab.ts --base-mode bare-bound --mode strategy`.
 *
 * DIR is a copy of another commit with this checkout's node_modules (`git archive <commit> | tar
 * -x -C DIR`, then a node_modules symlink). Both apps run the strategy app of their own checkout
 * (bench/support/appChild.ts or fastifyAppChild.ts), each in its own process, against one
 * emulator in a third; rounds alternate the order (A B, B A, ...), or load both at once
 * (`--together`). After a first load of each app alone, `--warmup-rounds` whole rounds run like
 * the measured ones and are discarded. Prints each round's app CPU per callback, each side's
 * median with its per-round range, and the median of the per-round ratios (this / base) with
 * theirs: a figure a busy neighbour skews far less than callbacks/s. A diagnosis tool: it writes nothing to results.json.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { CLIENT } from '../test/helpers/harness.js';
import { startEmulatorProcess } from '../test/resilience/support/emulatorProcess.js';
import { forkChild, type Child } from './support/child.js';
import { prepareLogins } from './support/flows.js';
import { fmtSpread, runPairs, sampleSide, summarize, type LoginRequest } from './support/pair.js';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    /** The app mode of each side (appChild.ts / fastifyAppChild.ts): 'strategy' by default. */
    'base-mode': { type: 'string', default: 'strategy' },
    mode: { type: 'string', default: 'strategy' },
    /** The strategy app's send limits on this side ('counting', the default, or 'off'). */
    limits: { type: 'string' },
    /**
     * The strategy app's `crossDevice` on this side ('handoff' by default; 'refuse' keeps no flow
     * record, so a login discards none): with `--limits off`, the floor's own feature set.
     */
    'cross-device': { type: 'string' },
    app: { type: 'string', default: 'express' },
    rounds: { type: 'string', default: '9' },
    logins: { type: 'string', default: '1500' },
    warmup: { type: 'string', default: '1000' },
    /** Whole rounds run like the measured ones before them and discarded. */
    'warmup-rounds': { type: 'string', default: '2' },
    connections: { type: 'string', default: '32' },
    /**
     * Logins per second offered to each app in the rounds (both at once with `--together`):
     * both then get the same arrivals, so neither one's CPU per login rises only because its
     * requests came sparser (see `PairOptions.rate`). Unset: each connection asks again once
     * answered (a closed loop).
     */
    rate: { type: 'string' },
    /**
     * Load both apps at the same time (each with --connections) instead of one after the other:
     * on a shared machine, both then see the same neighbours.
     */
    together: { type: 'boolean', default: false },
    /**
     * Which app sends the links: 'separate' (a third strategy app, the default), 'measured', or
     * 'own' (a strategy app of each side's checkout for that side: for checkouts whose sessions
     * keep the pending sends in different shapes).
     */
    sender: { type: 'string', default: 'separate' },
    /** One small round after a small warm-up: a smoke run (CI), not a measurement. */
    quick: { type: 'boolean', default: false },
    /**
     * A directory: each app's V8 CPU profile of the measured rounds (after the warm-up rounds) is
     * written there (base.cpuprofile, this.cpuprofile); summarize them with
     * `npx tsx bench/profile.ts --summarize FILE --logins N`. The profiler costs both sides CPU.
     */
    profile: { type: 'string' },
  },
});
if (values.quick) Object.assign(values, { rounds: '1', logins: '200', warmup: '100', 'warmup-rounds': '1' });
const here = fileURLToPath(new URL('..', import.meta.url));
const baseDir = values.base ?? here;
const fastify = values.app === 'fastify';
const childFile = (dir: string, mode: string) =>
  join(
    dir,
    'bench/support',
    mode === 'floor'
      ? fastify
        ? 'floorFastifyChild.ts'
        : 'floorExpressChild.ts'
      : fastify
        ? 'fastifyAppChild.ts'
        : 'appChild.ts',
  );
const logins = Number(values.logins);
const connections = Number(values.connections);

const agent = new Agent({ connections: 64 });
const emulator = await startEmulatorProcess({ emulator: { clients: [CLIENT], quiet: true, maxLogins: 100_000 } });
const urls = { authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl };
const apps: Record<'base' | 'this', Child<{ url: string }>> = {
  base: await forkChild<{ url: string }>(childFile(baseDir, values['base-mode']), {
    mode: values['base-mode'],
    ...urls,
    ...CLIENT,
  }),
  this: await forkChild<{ url: string }>(childFile(here, values.mode), {
    mode: values.mode,
    ...urls,
    ...CLIENT,
    ...(values.limits ? { limits: values.limits } : {}),
    ...(values['cross-device'] ? { crossDevice: values['cross-device'] } : {}),
  }),
};
// Logins are prepared through a strategy app's send route, in a third app: a measured app that
// also served the sends would carry their garbage into its timed rounds, and only one side would.
// (--sender measured: the old way, the base app when it is a strategy app, else this one.)
const sender =
  values.sender === 'measured' && values['base-mode'] === 'strategy'
    ? apps.base
    : values.sender === 'measured' && values.mode === 'strategy'
      ? apps.this
      : await forkChild<{ url: string }>(childFile(here, 'strategy'), { mode: 'strategy', ...urls });
const baseSender =
  values.sender === 'own'
    ? await forkChild<{ url: string }>(childFile(baseDir, 'strategy'), { mode: 'strategy', ...urls })
    : sender;
console.log(
  values.sender === 'own'
    ? "logins sent through a strategy app of each side's checkout"
    : `logins sent through ${sender === apps.base ? 'the base app' : sender === apps.this ? 'this app' : 'a third app'}`,
);
const prepareBy =
  (from: Child<{ url: string }>) =>
  async (count: number): Promise<LoginRequest[]> =>
    // Both checkouts write the same pending record (unless --sender own): a cookie from either send route fits both.
    (await prepareLogins(from.ready.url, emulator, count, agent)).map(({ path, cookie }) => ({ path, cookie }));
const prepare = { base: prepareBy(baseSender), this: prepareBy(sender) };
/**
 * A link used once is refused the second time (its session cookie replayed as the browser had
 * it): the first use must log in (a redirect to /me), the second must not (a 4xx).
 */
async function assertSecondUseRefused(side: 'base' | 'this'): Promise<void> {
  const [login] = await prepare[side](1);
  if (!login) throw new Error(`${side}: no login prepared`);
  const use = async () => {
    const res = await request(`${apps[side].ready.url}${login.path}`, {
      dispatcher: agent,
      // As a browser asks: the mount answers a client without Accept as a JSON client.
      headers: login.cookie ? { cookie: login.cookie, accept: 'text/html' } : { accept: 'text/html' },
    });
    const text = await res.body.text();
    if (process.env.BENCH_DEBUG) console.log(res.statusCode, text.slice(0, 2000));
    return { status: res.statusCode, location: res.headers.location };
  };
  const first = await use();
  if ((first.status !== 302 && first.status !== 303) || first.location !== '/me')
    throw new Error(`${side}: a fresh link did not log in (${first.status} ${String(first.location)})`);
  const second = await use();
  if (second.status < 400 || second.status >= 500)
    throw new Error(`${side}: a link used once was not refused the second time (${second.status})`);
  console.log(`${side}: a second use of a link is refused (${second.status})`);
}

try {
  await assertSecondUseRefused('base');
  await assertSecondUseRefused('this');
  // A first load of each app alone, then whole warm-up rounds run like the measured ones.
  for (const side of ['base', 'this'] as const) {
    const warm = Number(values.warmup);
    await sampleSide(
      { label: side, app: apps[side], prepare: prepare[side] },
      warm,
      await prepare[side](warm + connections),
      connections,
    );
  }
  const sides = [
    { label: 'base', app: apps.base, prepare: prepare.base },
    { label: 'this', app: apps.this, prepare: prepare.this },
  ] as const;
  const pairOptions = {
    logins,
    connections,
    together: values.together,
    ...(values.rate !== undefined ? { rate: Number(values.rate) } : {}),
  };
  // The warm-up rounds first, so that a profile covers the measured rounds only.
  await runPairs(...sides, { ...pairOptions, rounds: 0, warmupRounds: Number(values['warmup-rounds']) });
  if (values.profile) await Promise.all(sides.map((side) => side.app.call('profileStart')));
  const rounds = await runPairs(...sides, { ...pairOptions, rounds: Number(values.rounds), warmupRounds: 0 });
  if (values.profile) {
    mkdirSync(values.profile, { recursive: true });
    for (const side of sides) {
      const file = join(values.profile, `${side.label}.cpuprofile`);
      await side.app.call('profileStop', file);
      console.log(`${side.label}: profile of ${rounds.length * logins} callbacks in ${file}`);
    }
  }
  const s = summarize(rounds);
  console.log(
    `app CPU µs per callback: base ${fmtSpread(s.a.cpuMicrosPerLogin, 0)}, this ${fmtSpread(s.b.cpuMicrosPerLogin, 0)}`,
  );
  console.log(
    `median of per-round ratios (this / base): app CPU ${fmtSpread(s.cpuRatio)}, callbacks/s ${fmtSpread(s.rpsRatio)}`,
  );
} finally {
  await apps.base.close();
  await apps.this.close();
  if (sender !== apps.base && sender !== apps.this) await sender.close();
  if (baseSender !== sender) await baseSender.close();
  await emulator.close();
  await agent.close();
}
