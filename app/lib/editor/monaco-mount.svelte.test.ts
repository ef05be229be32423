import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MonacoModule } from './monaco-instance.js';
import { MonacoMount, type MonacoSessionFactory } from './monaco-mount.svelte.js';

const fakeMonaco = { fake: 'monaco' } as unknown as MonacoModule;
const loader = vi.hoisted(() => ({ loadMonaco: vi.fn() }));
vi.mock('./monaco-loader.js', () => loader);

class FakeSession {
	disposed = false;
	shown: string[] = [];
	constructor(
		readonly monaco: MonacoModule,
		readonly host: HTMLElement
	) {}
	dispose(): void {
		this.disposed = true;
	}
}

const host = { tagName: 'DIV' } as unknown as HTMLElement;
const createFake: MonacoSessionFactory<FakeSession> = (monaco, element) =>
	new FakeSession(monaco, element);

function deferred<Value>() {
	let resolve!: (value: Value) => void;
	let reject!: (error: unknown) => void;
	const promise = new Promise<Value>((settle, fail) => {
		resolve = settle;
		reject = fail;
	});
	return { promise, resolve, reject };
}

/** Lets a started load run to its end (it awaits a few promises, nothing slower). */
function settled(): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, 20));
}

beforeEach(() => {
	loader.loadMonaco.mockReset();
	loader.loadMonaco.mockResolvedValue(fakeMonaco);
});

describe('MonacoMount', () => {
	it('is loading until Monaco and the session code have loaded, then creates the session on the host', async () => {
		const monaco = deferred<MonacoModule>();
		loader.loadMonaco.mockReturnValue(monaco.promise);
		const mount = new MonacoMount(
			() => host,
			async () => createFake
		);
		const unmount = mount.mount();
		expect(mount.status).toBe('loading');
		expect(mount.session).toBeNull();
		monaco.resolve(fakeMonaco);
		await vi.waitFor(() => expect(mount.status).toBe('ready'));
		expect(mount.session?.monaco).toBe(fakeMonaco);
		expect(mount.session?.host).toBe(host);
		const session = mount.session;
		unmount();
		expect(session?.disposed).toBe(true);
		expect(mount.session).toBeNull();
	});

	it('creates no session when the component is gone before loading finishes', async () => {
		const monaco = deferred<MonacoModule>();
		loader.loadMonaco.mockReturnValue(monaco.promise);
		const factory = vi.fn(createFake);
		const mount = new MonacoMount(
			() => host,
			async () => factory
		);
		const unmount = mount.mount();
		await vi.waitFor(() => expect(loader.loadMonaco).toHaveBeenCalled());
		unmount();
		monaco.resolve(fakeMonaco);
		await settled();
		expect(factory).not.toHaveBeenCalled();
		expect(mount.session).toBeNull();
	});

	it('creates no session while there is no host element', async () => {
		const factory = vi.fn(createFake);
		const mount = new MonacoMount(
			() => undefined,
			async () => factory
		);
		mount.mount();
		await vi.waitFor(() => expect(loader.loadMonaco).toHaveBeenCalled());
		await settled();
		expect(factory).not.toHaveBeenCalled();
		expect(mount.failure).toBe('');
		expect(mount.status).toBe('loading');
	});

	it('shows why loading failed; a retry recovers and disposes the session it replaces', async () => {
		loader.loadMonaco.mockRejectedValueOnce(new Error('chunk failed to load'));
		const mount = new MonacoMount(
			() => host,
			async () => createFake
		);
		mount.mount();
		await vi.waitFor(() => expect(mount.status).toBe('failed'));
		expect(mount.failure).toBe('chunk failed to load');
		await mount.start();
		expect(mount.status).toBe('ready');
		const first = mount.session;
		await mount.start();
		expect(first?.disposed).toBe(true);
		expect(mount.session).not.toBe(first);
		expect(mount.session?.disposed).toBe(false);
	});

	it('reports a failure of the session module or the factory the same way', async () => {
		const broken = new MonacoMount<FakeSession>(
			() => host,
			async () => {
				throw 'not an Error';
			}
		);
		broken.mount();
		await vi.waitFor(() => expect(broken.status).toBe('failed'));
		expect(broken.failure).toBe('not an Error');
	});

	it('applies updates to the session, turns a throw into the failure, and skips them without one', async () => {
		const mount = new MonacoMount(
			() => host,
			async () => createFake
		);
		const change = vi.fn();
		mount.update(change);
		expect(change).not.toHaveBeenCalled();
		mount.mount();
		await vi.waitFor(() => expect(mount.status).toBe('ready'));
		mount.update((session) => session.shown.push('a.ts'));
		expect(mount.session?.shown).toEqual(['a.ts']);
		mount.update(() => {
			throw new Error('model disposed');
		});
		expect(mount.status).toBe('failed');
		expect(mount.failure).toBe('model disposed');
	});
});
