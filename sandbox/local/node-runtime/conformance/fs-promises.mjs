import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { promises } from 'node:fs';
const folder = 'out-promises';
await rm(folder, { recursive: true, force: true });
await mkdir(`${folder}/x`, { recursive: true });
await writeFile(`${folder}/x/one.json`, JSON.stringify({ ok: true }));
const parsed = JSON.parse(await readFile(`${folder}/x/one.json`, 'utf8'));
console.log(
	parsed.ok,
	(await readdir(folder)).join(','),
	(await stat(`${folder}/x`)).isDirectory()
);
await readFile(`${folder}/none`).catch((error) => console.log('rejected', error.code));
console.log(typeof promises.readFile);
await rm(folder, { recursive: true });
