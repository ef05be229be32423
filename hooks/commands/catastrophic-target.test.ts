import { describe, expect, it } from 'vitest';
import { describeCatastrophicTarget } from './catastrophic-target.js';

describe('describeCatastrophicTarget', () => {
	it.each([
		['/', 'root'],
		['//', 'root'],
		['/*', 'root'],
		['/.', 'root'],
		['/..', 'root'],
		['/usr/..', 'root'],
		['/usr', 'system'],
		['/etc/', 'system'],
		['~', 'home'],
		['~/', 'home'],
		['~/*', 'home'],
		['$HOME', 'home'],
		['${HOME}/', 'home'],
		['.', 'working'],
		['./', 'working'],
		['*', 'working'],
		['.*', 'working'],
		['./*', 'working'],
		['..', 'parent'],
		['../', 'parent'],
		['../..', 'parent'],
		['../*', 'parent'],
		['$DIR/', 'variable'],
		['${DIR}/*', 'variable']
	])('%j is %s', (target, kind) => {
		expect(describeCatastrophicTarget(target)?.kind).toBe(kind);
	});

	it.each([
		'',
		'build',
		'./build',
		'src/*',
		'/tmp/x',
		'~/project',
		'$DIR',
		'${DIR:?}/',
		'../sibling',
		'*.log'
	])('%j is an ordinary target', (target) => {
		expect(describeCatastrophicTarget(target)).toBeNull();
	});

	it('names the variable that would have to be empty', () => {
		expect(describeCatastrophicTarget('$OUT/')?.description).toBe(
			'everything under / if $OUT is empty'
		);
	});
});
