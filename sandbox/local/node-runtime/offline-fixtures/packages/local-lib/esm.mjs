export const kind = 'esm';
