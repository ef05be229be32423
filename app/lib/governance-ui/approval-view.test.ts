import { describe, expect, it } from 'vitest';
import type { ApprovalPrompt } from '../../../hooks/pipeline/ports.js';
import {
	askedBecause,
	commandWritesSummary,
	extraReasons,
	approvalHeading,
	approvalKind,
	commandClassificationLabel,
	fileChangeKind,
	inputPreview,
	maximumInputPreviewLength,
	pathsToAdd,
	scopeExpansionOf,
	waitingLabel
} from './approval-view.js';

function prompt(overrides: Partial<ApprovalPrompt> = {}): ApprovalPrompt {
	return {
		hook: 'approval-policy',
		reasons: [],
		intentId: 'INT-001',
		sessionId: 'builder',
		tool: 'write_to_file',
		toolCallId: 'call-1',
		input: {},
		...overrides
	};
}

describe('approvalKind', () => {
	it('tells scope expansions, commands, file changes and the rest apart', () => {
		expect(approvalKind(prompt({ tool: 'request_scope_expansion' }))).toBe('scope-expansion');
		expect(
			approvalKind(
				prompt({
					tool: 'execute_command',
					command: { command: 'rm -rf dist', cwd: '.', classification: 'destructive', reasons: [] }
				})
			)
		).toBe('command');
		expect(approvalKind(prompt({ preview: [{ path: 'a.ts', before: 'a', after: 'b' }] }))).toBe(
			'file-changes'
		);
		// A write without a preview (it could not be computed) still gets a body: its raw input.
		expect(approvalKind(prompt({ preview: [] }))).toBe('other');
		expect(approvalKind(prompt({ tool: 'complete_intent' }))).toBe('other');
	});
});

describe('scopeExpansionOf', () => {
	it('reads the paths, reason and intent of the call', () => {
		const request = scopeExpansionOf(
			prompt({
				tool: 'request_scope_expansion',
				intentId: 'INT-001',
				input: { intent_id: 'INT-002', paths: ['src/b/**', 'docs/x.md'], reason: 'needs docs' }
			})
		);
		expect(request).toEqual({
			intentId: 'INT-002',
			paths: ['src/b/**', 'docs/x.md'],
			reason: 'needs docs'
		});
	});

	it('returns null for other tools', () => {
		expect(scopeExpansionOf(prompt({ input: { paths: ['a'] } }))).toBeNull();
	});

	it('shows what is there when the input is malformed instead of throwing', () => {
		expect(
			scopeExpansionOf(
				prompt({
					tool: 'request_scope_expansion',
					input: { paths: ['ok', 3, '', null], reason: 7 }
				})
			)
		).toEqual({ intentId: 'INT-001', paths: ['ok'], reason: '' });
		expect(
			scopeExpansionOf(
				prompt({ tool: 'request_scope_expansion', intentId: undefined, input: null })
			)
		).toEqual({ intentId: null, paths: [], reason: '' });
		expect(
			scopeExpansionOf(prompt({ tool: 'request_scope_expansion', input: ['a'] }))?.paths
		).toEqual([]);
	});
});

describe('pathsToAdd', () => {
	it('keeps the new paths in order, once each', () => {
		expect(pathsToAdd(['b', 'a', 'b', 'c'], ['a'])).toEqual(['b', 'c']);
		expect(pathsToAdd(['a'], ['a'])).toEqual([]);
		expect(pathsToAdd([], [])).toEqual([]);
	});
});

describe('labels', () => {
	it('heads each kind in plain words', () => {
		expect(approvalHeading(prompt({ tool: 'request_scope_expansion' }))).toMatch(/widen its scope/);
		expect(
			approvalHeading(
				prompt({ tool: 'delete_file', preview: [{ path: 'a', before: 'x', after: null }] })
			)
		).toBe('The agent wants to delete a file');
		expect(approvalHeading(prompt({ tool: 'complete_intent' }))).toBe(
			'The agent wants to call complete_intent'
		);
	});

	it('classifies file changes', () => {
		expect(fileChangeKind({ before: null, after: 'x' })).toBe('created');
		expect(fileChangeKind({ before: 'x', after: null })).toBe('deleted');
		expect(fileChangeKind({ before: '', after: '' })).toBe('changed');
	});

	it('counts only the requests behind the current one', () => {
		expect(waitingLabel(0)).toBeNull();
		expect(waitingLabel(1)).toBeNull();
		expect(waitingLabel(2)).toBe('1 more waiting');
		expect(waitingLabel(4)).toBe('3 more waiting');
	});

	it('explains command classifications and passes unknown ones through', () => {
		expect(commandClassificationLabel('destructive')).toMatch(/^Destructive/);
		expect(commandClassificationLabel('critical')).toMatch(/^Critical/);
		expect(commandClassificationLabel('network')).toBe('network');
	});
});

describe('inputPreview', () => {
	it('indents JSON and cuts a long input with a count of what is hidden', () => {
		expect(inputPreview({ intent_id: 'INT-001' })).toBe('{\n  "intent_id": "INT-001"\n}');
		const long = inputPreview({ content: 'x'.repeat(maximumInputPreviewLength * 2) });
		expect(long.length).toBeLessThan(maximumInputPreviewLength + 60);
		expect(long).toMatch(/… \(\d+ more characters\)$/);
	});

	it('survives values JSON cannot encode', () => {
		const cyclic: Record<string, unknown> = {};
		cyclic.self = cyclic;
		expect(inputPreview(cyclic)).toBe('[object Object]');
		expect(inputPreview(undefined)).toBe('undefined');
	});
});

describe('askedBecause and extraReasons', () => {
	it('says why in plain words, never a hook name alone', () => {
		expect(askedBecause('approval-policy')).toBe(
			'this scenario asks you before any change or risky command'
		);
		expect(askedBecause('approval-policy, protected-intent')).toMatch(/; the intent is protected/);
		expect(askedBecause('approval-policy, approval-policy')).not.toMatch(/;/);
		expect(askedBecause('hooks-yaml')).toBe('a rule of this scenario (hooks-yaml)');
	});

	it('drops the classification reasons already shown', () => {
		expect(extraReasons(['deletes files', 'writes a.txt'], ['deletes files '])).toEqual([
			'writes a.txt'
		]);
	});
});

describe('commandWritesSummary', () => {
	const base = { command: 'x', cwd: '.', classification: 'destructive', reasons: [] };

	it('lists the visible writes and warns nothing when they are all it writes', () => {
		expect(
			commandWritesSummary({ ...base, writes: ['src/a.ts'], writesUnknown: false }, 'INT-001')
		).toEqual({
			writes: ['src/a.ts'],
			warning: null
		});
	});

	it('warns, naming the intent and its scope, when the command may write paths it cannot name', () => {
		const summary = commandWritesSummary(
			{ ...base, writes: [], writesUnknown: true, scope: ['src/auth/**'] },
			'INT-001'
		);
		expect(summary.warning).toContain("INT-001's scope (src/auth/**)");
		expect(summary.warning).toContain('refused and put back');
	});
});
