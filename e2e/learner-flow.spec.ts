import { expect, test, type Locator, type Page } from '@playwright/test';
import {
	startFakeOpenAIServer,
	type FakeOpenAIServer,
	type RecordedRequest
} from './fixtures/fake-openai-server.js';
import { openIde } from './ide-helpers.js';

/**
 * Issue 8: the learner's flow survives what ordinarily happens — a reload while the agent waits
 * for an approval, a reload after it checked out an intent, a provider error before a reload.
 */

const apiKey = 'sk-threadline-e2e-learner-0123456789';
let server: FakeOpenAIServer;

test.beforeAll(async () => {
	server = await startFakeOpenAIServer();
});

test.afterAll(async () => {
	await server?.close();
});

function agentRegion(page: Page): Locator {
	return page.getByRole('region', { name: 'Agent', exact: true });
}

async function sendToAgent(page: Page, text: string): Promise<void> {
	const composer = page.getByRole('textbox', { name: 'Message to the agent' });
	await composer.fill(text);
	await composer.press('Enter');
	await expect(agentRegion(page).getByRole('article', { name: 'You' }).last()).toContainText(text);
}

async function chooseFakeModel(page: Page): Promise<void> {
	await page.getByRole('button', { name: 'Settings', exact: true }).click();
	const settings = page.getByRole('dialog', { name: 'Settings' });
	await settings.getByLabel('Provider').selectOption({ label: 'OpenAI-compatible' });
	await settings.getByLabel('Model').fill('fake-model');
	await settings.getByLabel('API key').fill(apiKey);
	await settings.getByLabel('Base URL').fill(server.url);
	await settings.getByRole('button', { name: 'Save' }).click();
	await expect(settings).toBeHidden();
}

async function answer(
	dialog: Locator,
	button: 'Approve' | 'Reject',
	options: { next?: boolean } = {}
): Promise<void> {
	const target = dialog.getByRole('button', { name: button, exact: true });
	await expect(target).toHaveAttribute('aria-disabled', 'false');
	await target.click();
	// With `next`, the agent's next request may fill the same modal at once.
	if (!options.next) await expect(dialog).toBeHidden();
}

/** After a reload the brief is not shown again; wait for the IDE and the agent column. */
async function waitForIdeAfterReload(page: Page): Promise<void> {
	await expect(page.getByRole('tree', { name: 'Workspace files' })).toBeVisible({
		timeout: 30_000
	});
	await expect(page.getByRole('textbox', { name: 'Message to the agent' })).toBeVisible({
		timeout: 30_000
	});
}

function toolResult(request: RecordedRequest | undefined, toolCallId: string): string {
	const message = request?.body?.messages?.find(
		(candidate) => candidate.role === 'tool' && candidate.tool_call_id === toolCallId
	);
	if (!message) throw new Error(`The request carries no tool result for ${toolCallId}`);
	return typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
}

const write = (id: string, path: string, content: string) => ({
	id,
	name: 'write_to_file',
	arguments: { path, content, intent_id: 'INT-001', mutation_class: 'INTENT_EVOLUTION' }
});

test('a reload during an approval asks again, and the checked-out intent is kept', async ({
	page
}) => {
	test.setTimeout(180_000);
	const first = server.requests.length;
	await openIde(page, 'jwt-auth');
	await chooseFakeModel(page);
	server.enqueue(
		{
			toolCalls: [
				{ id: 'r-select', name: 'select_active_intent', arguments: { intent_id: 'INT-001' } }
			]
		},
		{ toolCalls: [write('r-write', 'src/auth/jwt.ts', 'export const a = 1;\n')] }
	);
	await sendToAgent(page, 'Check out INT-001 and write src/auth/jwt.ts.');
	const changeFiles = page.getByRole('dialog', { name: 'The agent wants to change files' });
	await expect(changeFiles).toBeVisible({ timeout: 30_000 });

	await page.reload();
	await waitForIdeAfterReload(page);
	// The approval is asked again, never silently lost, and the card is not "running…" forever.
	await expect(changeFiles).toBeVisible({ timeout: 30_000 });
	await expect(changeFiles).toContainText('src/auth/jwt.ts');
	server.enqueue({ toolCalls: [write('r-second', 'src/auth/extra.ts', 'export const b = 2;\n')] });
	await answer(changeFiles, 'Approve', { next: true });
	// The next write still holds INT-001: asked again, not blocked with intent_required.
	await expect(changeFiles).toBeVisible({ timeout: 30_000 });
	await expect(changeFiles).toContainText('src/auth/extra.ts');
	const afterApproval = server.requests[server.requests.length - 1];
	expect(toolResult(afterApproval, 'r-write')).not.toContain('"status":"error"');

	// A second reload, after the intent was checked out: the lock still holds.
	await page.reload();
	await waitForIdeAfterReload(page);
	await expect(changeFiles).toBeVisible({ timeout: 30_000 });
	server.enqueue({ text: 'Both files are written.' });
	await answer(changeFiles, 'Approve');
	const agent = agentRegion(page);
	await expect(agent).toContainText('Both files are written.', { timeout: 30_000 });
	expect(toolResult(server.requests[server.requests.length - 1], 'r-second')).not.toContain(
		'intent_required'
	);
	await expect(agent.getByTestId('tool-status').filter({ hasText: 'running…' })).toHaveCount(0);
	expect(server.requests.length - first).toBe(4);

	await page.getByRole('tab', { name: 'Trace', exact: true }).click();
	await page.getByRole('button', { name: 'Verify' }).click();
	await expect(page.getByText('Verified: the ledger is intact')).toBeVisible({ timeout: 30_000 });
});

test('a call cut off by a reload is resolved as interrupted and the model is told', async ({
	page
}) => {
	test.setTimeout(180_000);
	await openIde(page, 'jwt-auth');
	await chooseFakeModel(page);
	// The command waits for its approval; the stream never gets a second reply before the reload.
	server.enqueue({
		toolCalls: [
			{ id: 'i-select', name: 'select_active_intent', arguments: { intent_id: 'INT-001' } }
		]
	});
	server.enqueue({ text: 'Selected.', delayMs: 60_000 });
	await sendToAgent(page, 'Check out INT-001.');
	const agent = agentRegion(page);
	await expect(agent.getByTestId('tool-status').first()).toHaveText('ok', { timeout: 30_000 });
	await page.reload();
	await waitForIdeAfterReload(page);
	// No empty headings: every article has content.
	for (const article of await agent.getByRole('article').all()) {
		await expect(article).not.toHaveText(/^\s*\w+\s*$/);
	}
	// A new message: the intent is still checked out for this session.
	server.enqueue(
		{ toolCalls: [write('i-write', 'src/auth/jwt.ts', 'export const c = 3;\n')] },
		{ text: 'Done.' }
	);
	await sendToAgent(page, 'Write src/auth/jwt.ts.');
	const changeFiles = page.getByRole('dialog', { name: 'The agent wants to change files' });
	await expect(changeFiles).toBeVisible({ timeout: 30_000 });
	await answer(changeFiles, 'Approve');
	await expect(agent).toContainText('Done.', { timeout: 30_000 });
});

test('a provider error survives a reload, is scrolled into view, and Retry sends again', async ({
	page
}) => {
	test.setTimeout(120_000);
	await openIde(page, 'jwt-auth');
	await chooseFakeModel(page);
	server.enqueue({ status: 500 });
	await sendToAgent(page, 'Hello there.');
	const alert = agentRegion(page).getByRole('alert');
	await expect(alert).toBeVisible({ timeout: 30_000 });
	await expect(alert).toBeInViewport();
	const text = (await alert.innerText()).split('\n')[0] ?? '';
	await page.reload();
	await waitForIdeAfterReload(page);
	await expect(alert).toContainText(text.slice(0, 30));
	await expect(alert).toBeInViewport();
	server.enqueue({ text: 'Hello, learner.' });
	await alert.getByRole('button', { name: 'Retry' }).click();
	await expect(agentRegion(page)).toContainText('Hello, learner.', { timeout: 30_000 });
	await expect(alert).toHaveCount(0);
});

test.describe('the scripted demo tells the truth', () => {
	test('a rejected write: the demo says so and stops, never claims the next step', async ({
		page
	}) => {
		test.setTimeout(120_000);
		await openIde(page, 'jwt-auth');
		const agent = agentRegion(page);
		// A message outside the script gets one clear sentence, and nothing runs.
		await sendToAgent(page, 'What is a JWT?');
		await expect(agent.getByRole('article').last()).toContainText(
			'I am the scripted demo agent, so I cannot act on',
			{ timeout: 30_000 }
		);
		await expect(agent.locator('.tool-card')).toHaveCount(0);

		await sendToAgent(page, 'Run the demo.');
		const changeFiles = page.getByRole('dialog', { name: 'The agent wants to change files' });
		await expect(changeFiles).toBeVisible({ timeout: 60_000 });
		await expect(changeFiles).toContainText('src/auth/jwt.ts');
		await answer(changeFiles, 'Reject');
		await expect(agent).toContainText('You rejected src/auth/jwt.ts', { timeout: 30_000 });
		await expect(agent).toContainText('stops here');
		// It did not go on to the next scripted call (the write to src/db/users.ts).
		const subjects = await agent.locator('.tool-card .subject').allInnerTexts();
		expect(subjects).not.toContain('src/db/users.ts');
		expect(subjects.at(-1)).toBe('src/auth/jwt.ts');
		await expect(agent.getByRole('button', { name: 'Stop' })).toHaveCount(0);

		// A new "+" session gets a clear message, not an internal id.
		await page.getByRole('button', { name: 'New agent session' }).click();
		await sendToAgent(page, 'Hello?');
		await expect(agent.getByRole('article').last()).toContainText(
			'This session is not part of the scripted demo',
			{ timeout: 30_000 }
		);
		await expect(agent).not.toContainText('session-');
	});
});

test.describe('the brief never steals focus', () => {
	test('it opens beside the IDE without taking focus, and closing it puts focus back', async ({
		page
	}) => {
		test.setTimeout(90_000);
		await page.goto('/?scenario=jwt-auth');
		await expect(page.locator('.xterm-rows')).toContainText('workspace $', { timeout: 30_000 });
		const terminal = page.getByRole('textbox', { name: 'Terminal input' });
		await terminal.focus();
		const brief = page.getByRole('dialog', { name: /JWT migration/ });
		await expect(brief).toBeVisible({ timeout: 30_000 });
		// Not modal: focus stayed in the terminal, and typing goes there.
		await expect(terminal).toBeFocused();
		await page.keyboard.type('echo typed-while-the-brief-opened');
		await page.keyboard.press('Enter');
		await expect(page.locator('.xterm-rows')).toContainText('typed-while-the-brief-opened', {
			timeout: 30_000
		});
		await expect(brief).not.toHaveAttribute('aria-modal', 'true');

		// Closing it returns focus to where it was before the person went into the brief.
		await brief.getByRole('button', { name: 'Close', exact: true }).click();
		await expect(brief).toBeHidden();
		await expect(terminal).toBeFocused();

		// Opened with the Brief button it takes focus; Escape closes it and focus goes back.
		const button = page.getByRole('button', { name: 'Brief', exact: true });
		await button.click();
		await expect(brief).toBeVisible();
		await expect(brief).toBeFocused();
		await page.keyboard.press('Escape');
		await expect(brief).toBeHidden();
		await expect(button).toBeFocused();
	});
});

test.describe('human steps are doable', () => {
	test('open the file, see the change as a diff, copy the new text, save it yourself', async ({
		page,
		context
	}) => {
		test.setTimeout(180_000);
		await context.grantPermissions(['clipboard-read', 'clipboard-write']);
		await openIde(page, 'jwt-auth');
		const agent = agentRegion(page);
		await sendToAgent(page, 'Run the demo.');
		const changeFiles = page.getByRole('dialog', { name: 'The agent wants to change files' });
		await expect(changeFiles).toBeVisible({ timeout: 60_000 });
		await answer(changeFiles, 'Approve');
		const step = agent.getByRole('region', { name: /Your turn: demo step/ });
		await expect(step).toBeVisible({ timeout: 60_000 });

		await step.getByRole('button', { name: 'Open src/middleware/require-session.ts' }).click();
		await expect(page.getByRole('tab', { name: /require-session\.ts/ })).toHaveAttribute(
			'aria-selected',
			'true'
		);
		await step.getByRole('button', { name: 'Show the change' }).click();
		const diff = step.getByLabel(/The change to make in/);
		await expect(diff).toContainText('+ // Reviewed by the instructor');
		// Only the change and its context, not the whole file.
		expect((await diff.innerText()).split('\n').length).toBeLessThan(12);

		await step.getByRole('button', { name: 'Copy the new text' }).click();
		await expect(step.getByRole('button', { name: 'Copied' })).toBeVisible();
		const copied = await page.evaluate(() => navigator.clipboard.readText());
		expect(copied).toContain('// Reviewed by the instructor');

		// The person makes and saves the edit.
		await page.locator('.monaco-editor .view-lines').first().click();
		await page.keyboard.press('Control+A');
		await page.keyboard.press('Control+V');
		// The paste reads the clipboard asynchronously: save once the pasted text is in the editor,
		// as a person would (a Ctrl+S that lands first saves the old text, then the paste dirties it).
		await expect(page.locator('.monaco-editor .view-lines').first()).toContainText(
			'Reviewed by the instructor'
		);
		await page.keyboard.press('Control+S');
		await expect(page.getByRole('tab', { name: /require-session\.ts/ })).not.toContainText('●', {
			timeout: 15_000
		});
		await sendToAgent(page, 'Done.');
		await expect(agent).toContainText('A human changed the file since I read it.', {
			timeout: 60_000
		});
	});
});
