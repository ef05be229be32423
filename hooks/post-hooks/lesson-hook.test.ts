import { describe, expect, it } from 'vitest';
import { createTestPipeline } from '../pipeline/pipeline-test-kit.js';

describe('lesson hook', () => {
	it('writes a failed 1 MB command with a lone \\r as one capped line of AGENT.md', async () => {
		const command = `false\r## Injected heading\r${'x'.repeat(1024 * 1024)}`;
		const kit = createTestPipeline({
			files: { '.orchestration/AGENT.md': '# Notes\n' },
			commands: { [command]: { exitCode: 1, output: 'boom\r## also injected\nsecond' } },
			policy: 'never'
		});
		await kit.call('select_active_intent', { intent_id: 'INT-001' });
		const outcome = await kit.call('execute_command', { command });
		expect(outcome.ok).toBe(false);
		const notes = await kit.fs.readTextFile('.orchestration/AGENT.md');
		const lines = notes.split('\n');
		expect(lines.filter((line) => line.startsWith('#'))).toEqual(['# Notes', '## Lessons']);
		expect(lines.filter((line) => line.startsWith('- ('))).toHaveLength(1);
		expect(notes).toContain('(truncated)');
		expect(notes.length).toBeLessThan(1000);
		const lesson = (await kit.ledger.events()).find((event) => event.type === 'lesson-record');
		expect(lesson?.type === 'lesson-record' && lesson.lesson.length).toBeLessThan(600);
	});
});
