import { renderHostTable } from './table.js';

// Prints the host table for docs/frameworks.md (between its hosts:begin/end markers).
process.stdout.write(`${renderHostTable()}\n`);
