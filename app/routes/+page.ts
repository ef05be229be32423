// The IDE lives entirely in the browser (IndexedDB, Workers, Monaco): nothing to render on the server.
export const ssr = false;
