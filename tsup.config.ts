import { defineConfig } from 'tsup';

// One config, two formats: ESM (.js) and CommonJS (.cjs), each with its own declarations,
// so `import` and `require` users both get correct types (checked by attw in .ci/run).
export default defineConfig([
  {
    entry: { index: 'src/index.ts', emulator: 'src/emulator/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    splitting: false,
  },
  {
    // The two commands: each one self-contained file (no chunk shared between them).
    entry: { cli: 'src/emulator/cli.ts', check: 'src/check/cli.ts' },
    format: ['esm'],
    splitting: false,
    sourcemap: false,
    clean: false,
    target: 'node20',
  },
]);
