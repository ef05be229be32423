import { expect, test, type Locator, type Page } from '@playwright/test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { unzipSync } from 'fflate';
import { execFile } from 'node:child_process';
import { cp, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
	startFakeOpenAIServer,
	type FakeOpenAIServer,
	type RecordedRequest
} from './fixtures/fake-openai-server.js';
import { openFile, openIde, treeItem } from './ide-helpers.js';

/**
 * Issue 4 through the UI: the governed agent with a real provider client (the AI SDK's
 * OpenAI-compatible provider, in the page) talking to a fake LLM the test scripts turn by turn,
 * the scripted demo with no key, and a provider error in plain words.
 */

const projectRoot = fileURLToPath(new URL('../', import.meta.url));
const apiKey = 'sk-threadline-e2e-0123456789abcdef';
const runFile = promisify(execFile);

let server: FakeOpenAIServer;

test.beforeAll(async () => {
	server = await startFakeOpenAIServer();
});

test.afterAll(async () => {
	await server?.close();
});

/** The requests this test made: the server lives for the whole file, tests may share a worker. */
function requestsSince(first: number) {
	return {
		count: () => server.requests.length - first,
		at: (index: number): RecordedRequest | undefined => server.requests[first + index]
	};
}

/** The content of the tool result a request sends back for one tool call (the OpenAI `tool` role). */
function toolResult(request: RecordedRequest | undefined, toolCallId: string): string {
	const message = request?.body?.messages?.find(
		(candidate) => candidate.role === 'tool' && candidate.tool_call_id === toolCallId
	);
	if (!message) throw new Error(`The request carries no tool result for ${toolCallId}`);
	return typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
}

/** The ToolError code in a tool result, or null when the tool succeeded. */
function errorCode(content: string): string | null {
	try {
		const parsed = JSON.parse(content) as { status?: unknown; code?: unknown };
		return parsed.status === 'error' && typeof parsed.code === 'string' ? parsed.code : null;
	} catch {
		return null;
	}
}

function agentRegion(page: Page): Locator {
	return page.getByRole('region', { name: 'Agent', exact: true });
}

async function sendToAgent(page: Page, text: string): Promise<void> {
	const composer = page.getByRole('textbox', { name: 'Message to the agent' });
	await composer.fill(text);
	await composer.press('Enter');
	await expect(agentRegion(page).getByRole('article', { name: 'You' }).last()).toContainText(text);
}

async function chooseOpenAICompatible(page: Page, key: string): Promise<void> {
	await page.getByRole('button', { name: 'Settings', exact: true }).click();
	const settings = page.getByRole('dialog', { name: 'Settings' });
	await expect(settings).toBeVisible();
	await settings.getByLabel('Provider').selectOption({ label: 'OpenAI-compatible' });
	await settings.getByLabel('Model').fill('fake-model');
	await settings.getByLabel('API key').fill(key);
	await settings.getByLabel('Base URL').fill(server.url);
	await settings.getByRole('button', { name: 'Save' }).click();
	await expect(settings).toBeHidden();
	await expect(page.getByTestId('agent-model')).toContainText('fake-model');
}

function approvalDialog(page: Page, heading: string | RegExp): Locator {
	return page.getByRole('dialog', { name: heading });
}

/**
 * Clicks an answer once the modal has armed itself: it ignores clicks for its first 0.5 s so a
 * keystroke meant for elsewhere cannot approve, and shows that with aria-disabled.
 */
async function answer(dialog: Locator, button: 'Approve' | 'Reject'): Promise<void> {
	const target = dialog.getByRole('button', { name: button, exact: true });
	await expect(target).toHaveAttribute('aria-disabled', 'false');
	await target.click();
	await expect(dialog).toBeHidden();
}

const jwtModule = `export async function signToken(subject: string): Promise<string> {
	return \`token-for-\${subject}\`;
}

export async function verifyToken(token: string): Promise<string | null> {
	return token.startsWith('token-for-') ? token.slice('token-for-'.length) : null;
}
`;

test.describe('the governed agent with an OpenAI-compatible provider (fake LLM)', () => {
	test('plays the TRP1 demo: every block reaches the model, approvals work, the export verifies', async ({
		page
	}, testInfo) => {
		test.setTimeout(180_000);
		const requests = requestsSince(server.requests.length);
		await openIde(page, 'jwt-auth');
		await chooseOpenAICompatible(page, apiKey);
		const agent = agentRegion(page);

		// Turn 1 (a)–(d): a write before any intent, the check-out, an approved write, a write out of scope.
		server.enqueue(
			{
				text: 'Writing the JWT module right away.',
				toolCalls: [
					{
						id: 'call-early-write',
						name: 'write_to_file',
						arguments: {
							path: 'src/auth/jwt.ts',
							content: 'export {};\n',
							intent_id: 'INT-001',
							mutation_class: 'INTENT_EVOLUTION'
						}
					}
				]
			},
			{
				toolCalls: [
					{ id: 'call-select', name: 'select_active_intent', arguments: { intent_id: 'INT-001' } }
				]
			},
			{
				toolCalls: [
					{
						id: 'call-jwt',
						name: 'write_to_file',
						arguments: {
							path: 'src/auth/jwt.ts',
							content: jwtModule,
							intent_id: 'INT-001',
							mutation_class: 'INTENT_EVOLUTION'
						}
					}
				]
			}
		);
		await sendToAgent(page, 'Check out INT-001 and add signToken/verifyToken to src/auth/jwt.ts.');

		const changeFiles = approvalDialog(page, 'The agent wants to change files');
		await expect(changeFiles).toBeVisible({ timeout: 30_000 });
		expect(requests.count()).toBe(3);
		// The real provider client sent the key, and only in the Authorization header.
		expect(requests.at(0)?.headers.authorization).toBe(`Bearer ${apiKey}`);
		expect(requests.at(0)?.body?.model).toBe('fake-model');
		expect(requests.at(0)?.body?.tools?.map((tool) => tool.function.name)).toEqual(
			expect.arrayContaining(['select_active_intent', 'write_to_file', 'execute_command'])
		);
		// (a) No intent checked out: the write is blocked and the model is told why.
		expect(errorCode(toolResult(requests.at(1), 'call-early-write'))).toBe('intent_required');
		// (b) The check-out hands the model its intent context.
		expect(toolResult(requests.at(2), 'call-select')).toContain('<intent_context>');
		// (c) The in-scope write waits for the human, with a diff of the new file.
		await expect(changeFiles).toContainText('src/auth/jwt.ts');
		const diff = changeFiles.getByRole('group', { name: /src\/auth\/jwt\.ts, before and after/ });
		// A new file: Monaco shows the proposed content (its empty "before" side is collapsed).
		await expect(diff.locator('.monaco-diff-editor')).toBeVisible({ timeout: 30_000 });
		await expect(diff).toContainText('verifyToken', { timeout: 30_000 });

		server.enqueue(
			{
				text: 'A token version column in the user table would help revoke tokens.',
				toolCalls: [
					{
						id: 'call-db',
						name: 'write_to_file',
						arguments: {
							path: 'src/db/x.ts',
							content: 'export const tokenVersion = 1;\n',
							intent_id: 'INT-001',
							mutation_class: 'INTENT_EVOLUTION'
						}
					}
				]
			},
			{ text: 'The database layer is outside INT-001, so I left it alone.' }
		);
		await answer(changeFiles, 'Approve');
		await openFile(page, 'src/auth/jwt.ts');
		await expect(page.locator('.monaco-editor .view-lines').first()).toContainText('signToken');

		// (d) Out of scope: blocked before anyone is asked, so no modal and nothing written.
		await expect(agent).toContainText('The database layer is outside INT-001', {
			timeout: 30_000
		});
		expect(requests.count()).toBe(5);
		expect(errorCode(toolResult(requests.at(3), 'call-jwt'))).toBeNull();
		expect(errorCode(toolResult(requests.at(4), 'call-db'))).toBe('scope_violation');
		await expect(page.getByRole('dialog')).toHaveCount(0);
		await expect(treeItem(page, 'x.ts')).toHaveCount(0);

		// Turn 2 (e): a destructive command, rejected with a reason the model receives.
		const reason = 'Keep login.ts: the cookie flow still needs it.';
		server.enqueue(
			{
				toolCalls: [
					{
						id: 'call-rm',
						name: 'execute_command',
						arguments: { command: 'rm src/auth/login.ts' }
					}
				]
			},
			{ text: 'Understood, login.ts stays.' }
		);
		await sendToAgent(page, 'Remove the old session login.');
		const command = approvalDialog(page, 'The agent wants to run a command');
		await expect(command).toBeVisible({ timeout: 30_000 });
		await expect(command.getByLabel('Command to run')).toHaveText('rm src/auth/login.ts');
		await command.getByLabel('Reason (sent to the agent)').fill(reason);
		await answer(command, 'Reject');
		await expect(agent).toContainText('Understood, login.ts stays.', { timeout: 30_000 });
		expect(requests.count()).toBe(7);
		const rejected = toolResult(requests.at(6), 'call-rm');
		expect(errorCode(rejected)).toBe('user_rejected');
		expect(rejected).toContain(reason);
		await expect(treeItem(page, 'login.ts')).toBeVisible();

		// Turn 3 (f): the agent reads a file, a person edits and saves it, the agent's change is stale.
		server.enqueue(
			{
				toolCalls: [
					{ id: 'call-read', name: 'read_file', arguments: { path: 'src/auth/password.ts' } }
				]
			},
			{ text: 'I have read src/auth/password.ts.' }
		);
		await sendToAgent(page, 'Read src/auth/password.ts.');
		await expect(agent).toContainText('I have read src/auth/password.ts.', { timeout: 30_000 });
		expect(requests.count()).toBe(9);
		expect(toolResult(requests.at(8), 'call-read')).toContain('hashPassword');

		await openFile(page, 'src/auth/password.ts');
		await page.locator('.monaco-editor .view-lines').first().click();
		await page.keyboard.press('Control+End');
		await page.keyboard.type('\n// Reviewed by a person: keep the salt format.');
		await page.keyboard.press('Control+S');
		await expect(page.getByRole('tab', { name: /password\.ts/ })).not.toContainText('●');

		server.enqueue(
			{
				toolCalls: [
					{
						id: 'call-stale',
						name: 'apply_diff',
						arguments: {
							path: 'src/auth/password.ts',
							search: 'const encoder = new TextEncoder();',
							replace: 'const encoder = new TextEncoder(); // UTF-8',
							intent_id: 'INT-001',
							mutation_class: 'INTENT_EVOLUTION'
						}
					}
				]
			},
			{ text: 'Someone changed password.ts after I read it; I will read it again first.' }
		);
		await sendToAgent(page, 'Note the encoding of the encoder in password.ts.');
		await expect(agent).toContainText('I will read it again first.', { timeout: 30_000 });
		expect(requests.count()).toBe(11);
		expect(errorCode(toolResult(requests.at(10), 'call-stale'))).toBe('stale_file');
		expect(server.pending()).toBe(0);
		await expect(page.getByRole('dialog')).toHaveCount(0);

		// The trace shows the blocked calls.
		await page.getByRole('tab', { name: 'Trace', exact: true }).click();
		const timeline = page.getByRole('list', { name: 'Ledger events, newest first' });
		for (const code of ['intent_required', 'scope_violation', 'user_rejected', 'stale_file']) {
			await expect(timeline).toContainText(code);
		}

		// The export: valid Agent Trace, linked to the intent, verified by the CLI, and no key.
		const downloadPromise = page.waitForEvent('download');
		await page.getByRole('button', { name: 'Export .orchestration' }).click();
		const download = await downloadPromise;
		expect(download.suggestedFilename()).toBe('jwt-auth-orchestration.zip');
		const zipPath = testInfo.outputPath('jwt-auth-orchestration.zip');
		await download.saveAs(zipPath);
		const entries = unzipSync(new Uint8Array(await readFile(zipPath)));
		const decoder = new TextDecoder();
		for (const [name, bytes] of Object.entries(entries)) {
			expect(decoder.decode(bytes), `${name} must not contain the API key`).not.toContain(apiKey);
		}
		expect(Object.keys(entries)).toEqual(
			expect.arrayContaining([
				'jwt-auth/src/auth/jwt.ts',
				'jwt-auth/src/auth/login.ts',
				'jwt-auth/.orchestration/audit.jsonl'
			])
		);
		expect(Object.keys(entries)).not.toContain('jwt-auth/src/db/x.ts');

		const traceBytes = entries['jwt-auth/.orchestration/agent_trace.jsonl'];
		expect(traceBytes).toBeDefined();
		const lines = decoder
			.decode(traceBytes)
			.split('\n')
			.filter((line) => line !== '');
		const ajv = new Ajv2020({ strict: true, allErrors: true });
		addFormats.default(ajv);
		const schemaText = await readFile(
			new URL('../hooks/ledger/agent-trace-0.1.0.schema.json', import.meta.url),
			'utf8'
		);
		const validate = ajv.compile(JSON.parse(schemaText) as object);
		const records = lines.map((line, index) => {
			const record = JSON.parse(line) as TraceRecord;
			expect(validate(record), `line ${index + 1}: ${ajv.errorsText(validate.errors)}`).toBe(true);
			return record;
		});
		const agentRecords = records.filter((record) =>
			record.files.some((file) =>
				file.conversations.some((conversation) => conversation.contributor?.type === 'ai')
			)
		);
		expect(agentRecords.map((record) => record.files[0]?.path)).toEqual(['src/auth/jwt.ts']);
		for (const record of agentRecords) {
			const related = record.files.flatMap((file) =>
				file.conversations.flatMap((conversation) => conversation.related ?? [])
			);
			expect(related.map((link) => link.url)).toContain('urn:threadline:intent:INT-001');
		}
		// The person's save is in the trace too, as a human contribution.
		expect(
			records.some((record) =>
				record.files.some(
					(file) =>
						file.path === 'src/auth/password.ts' &&
						file.conversations.some((conversation) => conversation.contributor?.type === 'human')
				)
			)
		).toBe(true);

		const verified = await runFile('node', ['bin/threadline.js', 'verify', zipPath], {
			cwd: projectRoot
		});
		expect(verified.stdout).toContain('OK: chain, schema and content hashes hold');
	});

	test('a refused key is explained in plain words and the message stays in the conversation', async ({
		page
	}) => {
		const requests = requestsSince(server.requests.length);
		await openIde(page, 'jwt-auth');
		await chooseOpenAICompatible(page, 'sk-wrong-key-e2e-0123456789');
		server.enqueue({ status: 401 });
		await sendToAgent(page, 'Check out INT-001, please.');
		const agent = agentRegion(page);
		const alert = agent.getByRole('alert');
		await expect(alert).toContainText('The API key was refused (401)', { timeout: 30_000 });
		await expect(alert).toContainText('Settings');
		await expect(alert).not.toContainText('sk-wrong-key');
		await expect(agent.getByRole('article', { name: 'You' })).toContainText(
			'Check out INT-001, please.'
		);
		// A refused key is not retried.
		expect(requests.count()).toBe(1);
		expect(server.pending()).toBe(0);
	});

	test('Test connection in Settings tries the form’s settings before they are saved', async ({
		page
	}) => {
		const requests = requestsSince(server.requests.length);
		await openIde(page, 'jwt-auth');
		await page.getByRole('button', { name: 'Settings', exact: true }).click();
		const settings = page.getByRole('dialog', { name: 'Settings' });
		await settings.getByLabel('Provider').selectOption({ label: 'OpenAI-compatible' });
		await settings.getByLabel('Model').fill('fake-model');
		await settings.getByLabel('Base URL').fill(server.url);
		const outcome = settings.getByTestId('connection-test-outcome');

		await settings.getByLabel('API key').fill('sk-wrong-key-e2e-0123456789');
		server.enqueue({ status: 401 });
		await settings.getByRole('button', { name: 'Test connection' }).click();
		await expect(outcome).toContainText('The API key was refused (401)', { timeout: 30_000 });
		await expect(outcome).not.toContainText('sk-wrong-key');

		await settings.getByLabel('API key').fill(apiKey);
		server.enqueue({ text: 'OK' });
		await settings.getByRole('button', { name: 'Test connection' }).click();
		await expect(outcome).toContainText('Connected: OpenAI-compatible', { timeout: 30_000 });
		await expect(outcome).toContainText('"fake-model"');
		expect(requests.count()).toBe(2);
		expect(requests.at(1)?.headers.authorization).toBe(`Bearer ${apiKey}`);

		// Testing saved nothing: Cancel leaves the demo in place.
		await settings.getByRole('button', { name: 'Cancel' }).click();
		await expect(page.getByTestId('agent-model')).toContainText('Demo (scripted)');
	});
});

test.describe('the scripted demo agent (no key)', () => {
	test('runs the demo: intent_required first, then an approval for src/auth/jwt.ts', async ({
		page
	}) => {
		test.setTimeout(120_000);
		await openIde(page, 'jwt-auth');
		await expect(page.getByTestId('agent-model')).toContainText('Demo (scripted)');
		await sendToAgent(page, 'Run the demo.');
		const agent = agentRegion(page);
		const firstBlocked = agent.locator('.tool-card.blocked').first();
		await expect(firstBlocked).toBeVisible({ timeout: 30_000 });
		await expect(firstBlocked.getByTestId('tool-status')).toHaveText('intent_required');
		await expect(firstBlocked).toContainText('write_to_file');

		const changeFiles = approvalDialog(page, 'The agent wants to change files');
		await expect(changeFiles).toBeVisible({ timeout: 30_000 });
		await expect(changeFiles).toContainText('src/auth/jwt.ts');
		await answer(changeFiles, 'Approve');
		await openFile(page, 'src/auth/jwt.ts');
		await expect(treeItem(page, 'jwt.ts')).toBeVisible();
		await expect(page.locator('.monaco-editor .view-lines').first()).toContainText('signToken');
	});

	test('keeps the conversation and the ledger across a reload', async ({ page }) => {
		test.setTimeout(120_000);
		await openIde(page, 'jwt-auth');
		await sendToAgent(page, 'Run the demo.');
		const changeFiles = approvalDialog(page, 'The agent wants to change files');
		await expect(changeFiles).toBeVisible({ timeout: 30_000 });
		await answer(changeFiles, 'Approve');
		const agent = agentRegion(page);
		await expect(agent.locator('.tool-card.blocked', { hasText: 'scope_violation' })).toBeVisible({
			timeout: 30_000
		});

		await page.reload();
		await expect(page.getByRole('textbox', { name: 'Message to the agent' })).toBeVisible({
			timeout: 30_000
		});
		await expect(agent.getByRole('article', { name: 'You' }).first()).toContainText(
			'Run the demo.'
		);
		await expect(agent.locator('.tool-card.blocked', { hasText: 'scope_violation' })).toBeVisible();
		await page.getByRole('tab', { name: 'Trace' }).click();
		await page.getByRole('button', { name: 'Verify' }).click();
		await expect(page.getByText('Verified: the ledger is intact')).toBeVisible({ timeout: 30_000 });
	});
});

test.describe('Save as demo', () => {
	test('turns the session into a demo.yaml that threadline replay runs green', async ({
		page
	}, testInfo) => {
		test.setTimeout(180_000);
		await openIde(page, 'jwt-auth');
		await sendToAgent(page, 'Run the demo.');
		const changeFiles = approvalDialog(page, 'The agent wants to change files');
		await expect(changeFiles).toBeVisible({ timeout: 30_000 });
		await answer(changeFiles, 'Approve');
		await expect(
			agentRegion(page).locator('.tool-card.blocked', { hasText: 'scope_violation' })
		).toBeVisible({ timeout: 30_000 });

		const download = page.waitForEvent('download');
		await page.getByRole('button', { name: 'Save as demo' }).click();
		const saved = testInfo.outputPath('demo.yaml');
		await (await download).saveAs(saved);
		expect(await readFile(saved, 'utf8')).toMatch(/expect:/);

		// The scenario's starting files, replayed through the real pipeline by the CLI.
		const workspace = testInfo.outputPath('workspace');
		await cp('public/scenarios/jwt-auth/files', workspace, { recursive: true });
		const replayed = await promisify(execFile)(
			process.execPath,
			['bin/threadline.js', 'replay', saved, '--workspace', workspace],
			{ encoding: 'utf8' }
		);
		expect(replayed.stdout).not.toMatch(/mismatch|expected .* got/i);
	});
});

interface TraceRecord {
	files: {
		path: string;
		conversations: {
			contributor?: { type: string };
			related?: { type: string; url: string }[];
		}[];
	}[];
}
