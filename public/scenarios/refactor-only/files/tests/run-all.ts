// Runs every *.test.ts under tests/ (plain TypeScript that throws on failure): `npm test`.
// `npm test -- tests/auth` (or a file) runs only the tests under the paths given.
import { readdir } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2).map((path) => resolve(path));

async function findTests(folder: string): Promise<string[]> {
	const found: string[] = [];
	for (const entry of await readdir(folder, { withFileTypes: true })) {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) found.push(...(await findTests(path)));
		else if (entry.name.endsWith('.test.ts')) found.push(path);
	}
	return found.sort();
}

function selected(file: string): boolean {
	return only.length === 0 || only.some((path) => file === path || file.startsWith(`${path}/`));
}

const failures: string[] = [];
const files = (await findTests(root)).filter(selected);
if (files.length === 0) throw new Error(`no tests under ${process.argv.slice(2).join(', ')}`);
for (const file of files) {
	const name = relative(root, file);
	try {
		await import(pathToFileURL(file).href);
		console.log(`ok    ${name}`);
	} catch (error) {
		failures.push(name);
		console.log(`FAIL  ${name}: ${error instanceof Error ? error.message : String(error)}`);
	}
}
if (failures.length > 0) {
	console.log(`${failures.length} of ${files.length} test file(s) failed`);
	process.exit(1);
}
console.log(`all ${files.length} test file(s) passed`);
