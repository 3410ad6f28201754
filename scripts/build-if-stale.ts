// `npm run demo` runs this first (`predemo`): the demo imports the package by its own name, which
// resolves to dist/, and `npm install` does not build. It builds only when dist/ is missing or
// older than src/, with the same check the tests use before they import dist/.
import { ensureBuilt } from '../test/examples/helpers/ensureBuild.js';

await ensureBuilt();
