import { expect, test, type Page } from '@playwright/test';
import { strToU8, zipSync } from 'fflate';
import {
	startFakeOpenAIServer,
	type FakeOpenAIServer,
	type RecordedRequest
} from './fixtures/fake-openai-server.js';
import { serveStaticFiles, type StaticFilesServer } from './fixtures/static-files-server.js';

/**
 * Issue 12: a scenario's `.orchestration/hooks.yaml`, loaded from a zip through `/?scenario=`,
 * governs the real agent loop: a deny rule blocks, and a `run` rule's failing check goes back to
 * the model as a ToolError (the fake LLM server sees it).
 */

const hookPolicy = `rules:
  - match: { tools: [write_to_file], paths: ["src/secrets/**"] }
    action: deny
    message: "Secrets are written by people only."
  - match: { tools: [write_to_file, apply_diff], paths: ["src/**/*.ts"], intents: [INT-001] }
    action: run
    run: "grep -q verifyToken src/auth.ts"
`;

const scenarioYaml = `id: policy-exercise
title: A scenario with a hook policy
summary: Every write under src/ is checked.
approval_policy: never
sandbox:
  needs: any
brief: |
  # Policy exercise

  Every TypeScript write is checked by the scenario's hook policy.
`;

const intentsYaml = `active_intents:
  - id: INT-001
    name: Token checks
    status: IN_PROGRESS
    owned_scope: ["src/**"]
  - id: INT-002
    name: Documentation
    status: IN_PROGRESS
    owned_scope: ["docs/**"]
`;

function scenarioZip(): Uint8Array {
	return zipSync({
		'policy-exercise/scenario.yaml': strToU8(scenarioYaml),
		'policy-exercise/files/.orchestration/active_intents.yaml': strToU8(intentsYaml),
		'policy-exercise/files/.orchestration/hooks.yaml': strToU8(hookPolicy),
		'policy-exercise/files/src/auth.ts': strToU8('export const sign = 1;\n')
	});
}

let llm: FakeOpenAIServer;
let host: StaticFilesServer;

test.beforeAll(async () => {
	llm = await startFakeOpenAIServer();
	const zip = scenarioZip();
	host = await serveStaticFiles(
		() => new Map([['/policy-exercise.zip', { type: 'application/zip', body: zip }]])
	);
});

test.afterAll(async () => {
	await llm?.close();
	await host?.close();
});

function toolResult(request: RecordedRequest | undefined, toolCallId: string): string {
	const message = request?.body?.messages?.find(
		(candidate) => candidate.role === 'tool' && candidate.tool_call_id === toolCallId
	);
	if (!message) throw new Error(`The request carries no tool result for ${toolCallId}`);
	return typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
}

async function chooseFakeModel(page: Page): Promise<void> {
	await page.getByRole('button', { name: 'Settings', exact: true }).click();
	const settings = page.getByRole('dialog', { name: 'Settings' });
	await settings.getByLabel('Provider').selectOption({ label: 'OpenAI-compatible' });
	await settings.getByLabel('Model').fill('fake-model');
	await settings.getByLabel('API key').fill('sk-threadline-e2e-policy');
	await settings.getByLabel('Base URL').fill(llm.url);
	await settings.getByRole('button', { name: 'Save' }).click();
	await expect(settings).toBeHidden();
}

const write = (id: string, path: string, content: string) => ({
	id,
	name: 'write_to_file',
	arguments: { path, content, intent_id: 'INT-001', mutation_class: 'INTENT_EVOLUTION' }
});

test('a zipped scenario’s hook policy denies, runs its check, and the failure reaches the model', async ({
	page
}) => {
	test.setTimeout(180_000);
	await page.goto(`/?scenario=${encodeURIComponent(`${host.origin}/policy-exercise.zip`)}`);
	await expect(page.getByRole('tree', { name: 'Workspace files' })).toBeVisible({
		timeout: 30_000
	});
	const brief = page.getByRole('dialog');
	await expect(brief).toBeVisible({ timeout: 30_000 });
	await expect(brief.getByRole('heading', { name: 'Policy exercise' })).toBeVisible();
	await brief.getByRole('button', { name: 'Close', exact: true }).click();

	// The intents panel shows the rules in force and the policy's hash.
	await page.getByRole('tab', { name: 'Intents' }).click();
	const policyView = page.getByTestId('hook-policy');
	await expect(policyView).toContainText('Secrets are written by people only.', {
		timeout: 30_000
	});
	await expect(policyView).toContainText('runs grep -q verifyToken src/auth.ts');
	await expect(policyView).toContainText(/sha256:[0-9a-f]{12}/);

	await page.getByRole('tab', { name: 'Agent', exact: true }).click();
	await chooseFakeModel(page);
	const first = llm.requests.length;
	llm.enqueue(
		{
			toolCalls: [
				{ id: 'call-select', name: 'select_active_intent', arguments: { intent_id: 'INT-001' } }
			]
		},
		{ toolCalls: [write('call-secret', 'src/secrets/key.ts', 'export const key = 1;\n')] },
		{ toolCalls: [{ id: 'call-read', name: 'read_file', arguments: { path: 'src/auth.ts' } }] },
		{ toolCalls: [write('call-auth', 'src/auth.ts', 'export const sign = 2;\n')] },
		{ toolCalls: [write('call-fixed', 'src/auth.ts', 'export const verifyToken = 1;\n')] },
		{ text: 'The check passes now.' }
	);
	const composer = page.getByRole('textbox', { name: 'Message to the agent' });
	await composer.fill('Add verifyToken to src/auth.ts.');
	await composer.press('Enter');
	// The scenario came from a URL: its check asks the person once before it first runs.
	const consent = page.getByRole('dialog', { name: "Run this scenario's check?" });
	await expect(consent).toBeVisible({ timeout: 60_000 });
	await expect(consent).toContainText('grep -q verifyToken src/auth.ts');
	await consent.getByRole('button', { name: 'Run the check' }).click();
	await expect(page.getByRole('region', { name: 'Agent', exact: true })).toContainText(
		'The check passes now.',
		{ timeout: 60_000 }
	);
	const secret = JSON.parse(toolResult(llm.requests[first + 2], 'call-secret'));
	expect(secret.code).toBe('protected_path');
	expect(secret.message).toContain('Secrets are written by people only.');
	const check = JSON.parse(toolResult(llm.requests[first + 4], 'call-auth'));
	expect(check.code).toBe('command_failed');
	expect(check.message).toContain('grep -q verifyToken src/auth.ts');
	expect(toolResult(llm.requests[first + 5], 'call-fixed')).not.toContain('"status":"error"');
	await expect(
		page.getByRole('tree', { name: 'Workspace files' }).getByRole('treeitem', { name: 'key.ts' })
	).toHaveCount(0);
});
