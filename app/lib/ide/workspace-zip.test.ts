import { describe, expect, it } from 'vitest';
import { zipEntries } from '../../../hooks/ledger/read-export.js';
import { readWorkspaceZip, zipWorkspace } from './workspace-zip.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('workspace zips', () => {
	it('round-trips an exported workspace, dropping the top folder', () => {
		const zip = zipWorkspace(
			[
				['src/a.ts', bytes('a')],
				['README.md', bytes('r')]
			],
			'jwt-auth'
		);
		const { files, skipped } = readWorkspaceZip(zip);
		expect(Object.keys(files).sort()).toEqual(['README.md', 'src/a.ts']);
		expect(skipped).toEqual([]);
	});

	it('keeps paths as they are when there is no single top folder', () => {
		const zip = zipEntries(
			new Map([
				['a.ts', bytes('a')],
				['src/b.ts', bytes('b')]
			])
		);
		expect(Object.keys(readWorkspaceZip(zip).files).sort()).toEqual(['a.ts', 'src/b.ts']);
	});
});
