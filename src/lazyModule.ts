import { createRequire } from 'node:module';

// From this module's URL in the ES build; tsup's shims give the CommonJS build the same URL.
const load = createRequire(import.meta.url);

/**
 * A dependency loaded the first time it is used, not when the package is imported: phone
 * metadata, UTS #46 and the confusables table are megabytes of heap that a login by plain
 * ASCII e-mail, a guard or a session read never needs. Synchronous (CommonJS `require`), so
 * the rules that use it stay synchronous; Node caches the module, this caches the lookup.
 *
 * @example
 * const tr46 = lazyModule<typeof import('tr46')>('tr46');
 * tr46().toASCII('bücher.example');
 */
export function lazyModule<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load(specifier) as T);
}
