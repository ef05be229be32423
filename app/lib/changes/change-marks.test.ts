import { describe, expect, it } from 'vitest';
import { changeLetter, changeMarksOf, describePlan } from './change-marks.js';

describe('changeMarksOf', () => {
	it('marks files and every folder above a change', () => {
		const marks = changeMarksOf({
			baseSeq: 1,
			files: [
				{
					path: 'src/auth/jwt.ts',
					status: 'new',
					before: null,
					after: 'h',
					lastSeq: 3,
					contributors: ['ai']
				},
				{
					path: 'README.md',
					status: 'deleted',
					before: 'h',
					after: null,
					lastSeq: 4,
					contributors: ['human']
				}
			],
			folders: [{ path: 'docs/made', status: 'new', lastSeq: 5 }]
		});
		expect(Object.fromEntries(marks.files)).toEqual({
			'src/auth/jwt.ts': 'new',
			'README.md': 'deleted'
		});
		expect([...marks.folders].sort()).toEqual(['docs', 'docs/made', 'src', 'src/auth']);
		expect(changeLetter('modified')).toBe('M');
	});
});

describe('describePlan', () => {
	it('says what will change, what is kept and that unsaved edits are asked about', () => {
		const text = describePlan(
			{
				seq: 7,
				writes: [{ path: 'a', hash: 'h' }],
				deletes: ['b', 'c'],
				createFolders: [],
				removeFolders: ['d'],
				kept: ['.orchestration/active_intents.yaml']
			},
			1
		);
		expect(text).toContain('#7');
		expect(text).toContain('1 file written back, 2 files deleted, 1 folder removed (when empty).');
		expect(text).toContain('.orchestration/active_intents.yaml is kept');
		expect(text).toContain('1 open file with unsaved edits');
	});
});
