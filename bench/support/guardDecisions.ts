/**
 * A child of the guard benchmark: times `requireLowRisk()` decisions on a real logged-in
 * request and prints one JSON line `{ wallNs, cpuNs }` per round. It imports the tree it sits
 * in (`../../src`), so the same file copied into the previous release's checkout measures that
 * release: the guard row runs both, alternated (see bench/guard.ts).
 *
 * Usage: tsx bench/support/guardDecisions.ts <decisions> <rounds>
 */
import type { Request, Response } from 'express';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { requireLowRisk } from '../../src/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import { CLIENT, loginVia, startHarness } from '../../test/helpers/harness.js';

type Middleware = (req: Request, res: Response, next: (err?: unknown) => void) => void;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const decisions = Number(process.argv[2] ?? 100_000);
const rounds = Number(process.argv[3] ?? 3);

const emulator = await startEmulator({ clients: [CLIENT], quiet: true });
let captured: { req: Request; res: Response } | undefined;
const h = await startHarness({
  emulator,
  strategy: { enrich: ['secureInfo'] },
  routes: (app) => {
    app.get('/capture', (req, res) => {
      captured = { req, res };
      res.json({ ok: true });
    });
  },
});
const browser = h.browser();
const login = await loginVia(h, browser, { email: 'guard-bench@example.com' });
if (login.status !== 302) throw new Error(`login answered ${login.status}`);
await browser.get('/capture').set('accept', 'application/json');
await h.close();
await emulator.close();
if (!captured) throw new Error('no request captured');
const { req, res } = captured;
const guard = requireLowRisk() as unknown as Middleware;

const once = () => new Promise<void>((resolve, reject) => guard(req, res, (err) => (err ? reject(err) : resolve())));
await once();
const verdict = (req as Request & { risk?: { action: string; signalsAt: number | null } }).risk;
if (verdict?.action !== 'allow' || verdict.signalsAt === null)
  throw new Error(`unexpected verdict ${JSON.stringify(verdict)}`);

for (let i = 0; i < decisions / 2; i++) await once();
for (let round = 0; round < rounds; round++) {
  gc();
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < decisions; i++) await once();
  const wallNs = Number(process.hrtime.bigint() - t0) / decisions;
  const cpu = process.cpuUsage(cpu0);
  console.log(JSON.stringify({ wallNs, cpuNs: ((cpu.user + cpu.system) * 1000) / decisions }));
}
