import { ensureBuilt } from '../examples/helpers/ensureBuild.js';

/**
 * Vitest global setup: brings dist/ up to date with src/ once, before any test starts, so no
 * test's own time limit includes a build (the examples, the CLIs and a few security tests
 * import the built package). A no-op costing milliseconds when dist/ is fresh.
 */
export async function setup(): Promise<void> {
  await ensureBuilt();
}
