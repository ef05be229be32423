// The IDE lives entirely in the browser (IndexedDB, Workers, Monaco): nothing to render on the
// server. Set on the root layout so error pages (404) are client-rendered the same way.
export const ssr = false;
