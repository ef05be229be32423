import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildIsCurrent, sourceFingerprint, writeFingerprint } from './build-fingerprint.js';

let folder: string;
afterEach(() => rmSync(folder, { recursive: true, force: true }));

function tree(): string {
	folder = mkdtempSync(join(tmpdir(), 'threadline-fingerprint-'));
	const write = (path: string, text: string) => {
		mkdirSync(join(folder, path, '..'), { recursive: true });
		writeFileSync(join(folder, path), text);
	};
	write('app/routes/+page.svelte', '<p>hi</p>');
	write('hooks/a.ts', 'export const a = 1;');
	write('public/scenarios/jwt-auth/scenario.yaml', 'id: jwt-auth');
	write('public/scenarios/index.json', '[]');
	write('package-lock.json', '{}');
	write('build/handler.js', 'export const handler = () => {};');
	return folder;
}

describe('npm start rebuilds only when the sources changed', () => {
	it('is current right after a build, and not after any edit, addition or removal', () => {
		const root = tree();
		expect(buildIsCurrent(root)).toBe(false);
		writeFingerprint(root);
		expect(buildIsCurrent(root)).toBe(true);
		writeFileSync(join(root, 'hooks/a.ts'), 'export const a = 2;');
		expect(buildIsCurrent(root)).toBe(false);
		writeFingerprint(root);
		writeFileSync(join(root, 'hooks/b.ts'), '');
		expect(buildIsCurrent(root)).toBe(false);
		rmSync(join(root, 'hooks/b.ts'));
		expect(buildIsCurrent(root)).toBe(true);
		writeFileSync(join(root, 'package-lock.json'), '{"x":1}');
		expect(buildIsCurrent(root)).toBe(false);
	});

	it('ignores what the build generates itself, and needs the built handler', () => {
		const root = tree();
		writeFingerprint(root);
		writeFileSync(join(root, 'public/scenarios/index.json'), '[1]');
		expect(buildIsCurrent(root)).toBe(true);
		rmSync(join(root, 'build/handler.js'));
		expect(buildIsCurrent(root)).toBe(false);
	});

	it('changes with a file moved to another name', () => {
		const root = tree();
		const before = sourceFingerprint(root);
		rmSync(join(root, 'hooks/a.ts'));
		writeFileSync(join(root, 'hooks/c.ts'), 'export const a = 1;');
		expect(sourceFingerprint(root)).not.toBe(before);
	});
});
