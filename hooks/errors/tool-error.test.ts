import { describe, expect, it } from 'vitest';
import { isToolError, toolError } from './tool-error.js';

describe('toolError', () => {
	it('builds the contract shape', () => {
		expect(toolError('scope_violation', 'm', 's')).toEqual({
			status: 'error',
			code: 'scope_violation',
			message: 'm',
			suggestion: 's'
		});
	});
	it('recognises only known codes', () => {
		expect(isToolError(toolError('stale_file', 'm', 's'))).toBe(true);
		expect(isToolError({ status: 'error', code: 'nope', message: '', suggestion: '' })).toBe(false);
		expect(isToolError(null)).toBe(false);
	});
});
