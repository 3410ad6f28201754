import { defineConfig } from 'tsup';

// One config, two formats: ESM (.js) and CommonJS (.cjs), each with its own declarations,
// so `import` and `require` users both get correct types (checked by attw in
// scripts/check-package.mjs).
export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      client: 'src/client/index.ts',
      // Every error class, for an app that imports no strategy to match errors.
      errors: 'src/errors/index.ts',
      emulator: 'src/emulator/index.ts',
      // NestJS: the only entry that imports @nestjs/* (optional peers, left external).
      nest: 'src/nest/index.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    // No source maps: they would point at src/*.ts, which the package does not ship.
    sourcemap: false,
    // Class names survive bundling, so `console.error(err)` prints `OtplessSetupError`.
    keepNames: true,
    clean: true,
    target: 'node20',
    // Shared chunks: the root, /client and /errors hold the same classes (one copy per format).
    splitting: true,
    // `import.meta.url` in the CommonJS build too: src/lazyModule.ts loads dependencies from it.
    shims: true,
  },
  {
    // The two commands: each one self-contained file (no chunk shared between them).
    entry: { cli: 'src/emulator/cli.ts', check: 'src/check/cli.ts' },
    format: ['esm'],
    splitting: false,
    sourcemap: false,
    keepNames: true,
    clean: false,
    target: 'node20',
  },
]);
