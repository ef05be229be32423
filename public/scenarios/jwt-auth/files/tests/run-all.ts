// Runs every *.test.ts under tests/ (plain TypeScript that throws on failure): `npm test`.
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

async function findTests(folder: string): Promise<string[]> {
	const found: string[] = [];
	for (const entry of await readdir(folder, { withFileTypes: true })) {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) found.push(...(await findTests(path)));
		else if (entry.name.endsWith('.test.ts')) found.push(path);
	}
	return found.sort();
}

const failures: string[] = [];
for (const file of await findTests(root)) {
	const name = relative(root, file);
	try {
		await import(pathToFileURL(file).href);
		console.log(`ok    ${name}`);
	} catch (error) {
		failures.push(name);
		console.log(`FAIL  ${name}: ${error instanceof Error ? error.message : String(error)}`);
	}
}
if (failures.length > 0) throw new Error(`${failures.length} test file(s) failed`);
console.log('all tests passed');
