import { describe, expect, it } from 'vitest';
import {
	isInsideDependencyFolder,
	toContainerPath,
	workspacePathFromWatch
} from './container-path.js';

describe('toContainerPath', () => {
	it('names the root "." and leaves other workspace paths as they are', () => {
		expect(toContainerPath('')).toBe('.');
		expect(toContainerPath('src/a.ts')).toBe('src/a.ts');
	});
});

describe('workspacePathFromWatch', () => {
	const workdir = '/home/workspace';

	it('accepts names relative to the working directory', () => {
		expect(workspacePathFromWatch('src/a.ts', workdir)).toBe('src/a.ts');
		expect(workspacePathFromWatch('./src//a.ts', workdir)).toBe('src/a.ts');
	});

	it('makes names under the working directory relative', () => {
		expect(workspacePathFromWatch('/home/workspace/src/a.ts', workdir)).toBe('src/a.ts');
		expect(workspacePathFromWatch('/home/workspace', workdir)).toBe('');
		expect(workspacePathFromWatch('/home/workspace/src', `${workdir}/`)).toBe('src');
	});

	it('reads other absolute names against the working directory, as the fs API does', () => {
		expect(workspacePathFromWatch('/src/a.ts', workdir)).toBe('src/a.ts');
		expect(workspacePathFromWatch('/home/workspaces/x', workdir)).toBe('home/workspaces/x');
	});

	it('decodes byte names and refuses what leaves the workspace', () => {
		expect(workspacePathFromWatch(new TextEncoder().encode('é.txt'), workdir)).toBe('é.txt');
		expect(workspacePathFromWatch('../outside', workdir)).toBeNull();
		expect(workspacePathFromWatch('a\\b', workdir)).toBeNull();
		expect(workspacePathFromWatch(null, workdir)).toBeNull();
	});
});

describe('isInsideDependencyFolder', () => {
	it('is true strictly inside any node_modules folder', () => {
		expect(isInsideDependencyFolder('node_modules')).toBe(false);
		expect(isInsideDependencyFolder('node_modules/x/index.js')).toBe(true);
		expect(isInsideDependencyFolder('packages/app/node_modules/y')).toBe(true);
		expect(isInsideDependencyFolder('src/node_modules.ts')).toBe(false);
	});
});
