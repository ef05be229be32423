import { describe, expect, it, vi } from 'vitest';
import type * as Monaco from 'monaco-editor';
import { legacyCreateWebWorker, monacoWithLegacyWorkers } from './legacy-web-worker.js';

type CreateWebWorker = typeof Monaco.editor.createWebWorker;

class FakeWorker {
	readonly messages: unknown[] = [];
	constructor(readonly label: string) {}
	postMessage(message: unknown) {
		this.messages.push(message);
	}
}

function setup() {
	const created: FakeWorker[] = [];
	const createWorker = vi.fn((label: string) => {
		const worker = new FakeWorker(label);
		created.push(worker);
		return worker as unknown as Worker;
	});
	const handle = { dispose() {} };
	const createWebWorker = vi.fn(() => handle) as unknown as CreateWebWorker &
		ReturnType<typeof vi.fn>;
	return { created, createWorker, createWebWorker, handle };
}

describe('legacyCreateWebWorker', () => {
	it('creates the worker for the label and sends "ignore" then the createData, in that order', async () => {
		const { created, createWorker, createWebWorker, handle } = setup();
		const create = legacyCreateWebWorker(createWebWorker, createWorker);
		const createData = { schemas: ['x'] };

		const result = create({ moduleId: 'monaco-yaml/yaml.worker', label: 'yaml', createData });
		expect(result).toBe(handle);

		const [options] = (createWebWorker as unknown as ReturnType<typeof vi.fn>).mock.calls[0] as [
			Monaco.editor.IInternalWebWorkerOptions
		];
		const worker = (await options.worker) as unknown as FakeWorker;
		expect(createWorker).toHaveBeenCalledWith('yaml');
		expect(worker).toBe(created[0]);
		expect(worker.messages).toEqual(['ignore', createData]);
		// The old moduleId/label/createData are not passed on: 0.57 would not know them.
		expect(Object.keys(options).sort()).toEqual(['host', 'keepIdleModels', 'worker']);
	});

	it('passes the new form straight through', () => {
		const { createWorker, createWebWorker } = setup();
		const create = legacyCreateWebWorker(createWebWorker, createWorker);
		const worker = Promise.resolve(new FakeWorker('mine') as unknown as Worker);

		create({ worker, keepIdleModels: true });
		expect(createWebWorker).toHaveBeenCalledWith({ worker, keepIdleModels: true });
		expect(createWorker).not.toHaveBeenCalled();
	});

	it('uses the editor worker label when none is given', async () => {
		const { createWorker, createWebWorker } = setup();
		legacyCreateWebWorker(createWebWorker, createWorker)({ createData: {} });
		const [options] = (createWebWorker as unknown as ReturnType<typeof vi.fn>).mock.calls[0] as [
			Monaco.editor.IInternalWebWorkerOptions
		];
		await options.worker;
		expect(createWorker).toHaveBeenCalledWith('editorWorkerService');
	});

	it('lets a failing worker factory reject the worker promise instead of throwing at the caller', async () => {
		const { createWebWorker } = setup();
		const create = legacyCreateWebWorker(createWebWorker, () => {
			throw new Error('no worker');
		});
		expect(() => create({ label: 'yaml' })).not.toThrow();
		const [options] = (createWebWorker as unknown as ReturnType<typeof vi.fn>).mock.calls[0] as [
			Monaco.editor.IInternalWebWorkerOptions
		];
		await expect(options.worker).rejects.toThrow('no worker');
	});
});

describe('monacoWithLegacyWorkers', () => {
	it('replaces only editor.createWebWorker and leaves the real module alone', () => {
		const { createWorker, createWebWorker } = setup();
		const getModels = () => [];
		const languages = { register() {} };
		const monaco = {
			languages,
			editor: { createWebWorker, getModels }
		} as unknown as typeof Monaco;

		const view = monacoWithLegacyWorkers(monaco, createWorker);
		expect(view.languages).toBe(languages);
		expect(view.editor.getModels).toBe(getModels);
		expect(view.editor.createWebWorker).not.toBe(createWebWorker);
		expect(monaco.editor.createWebWorker).toBe(createWebWorker);
	});
});
