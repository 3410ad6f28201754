// The pages moved to src/web/pages/ (one file per page family); this path stays for its importers.
export * from './pages/index.js';
