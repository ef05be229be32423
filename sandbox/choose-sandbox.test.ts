import { afterEach, describe, expect, it, vi } from 'vitest';
import {
	chooseSandbox,
	startSandbox,
	type SandboxChoice,
	type SandboxEnvironment
} from './choose-sandbox.js';
import type { Sandbox, SandboxKind } from './sandbox.js';

const capable: Omit<SandboxEnvironment, 'requested'> = {
	crossOriginIsolated: true,
	online: true,
	browserSupported: true
};

describe('chooseSandbox', () => {
	it('picks WebContainer for auto when the page can run it', () => {
		expect(chooseSandbox({ ...capable, requested: 'auto' })).toEqual({
			kind: 'webcontainer',
			reason: 'WebContainer: real Node.js and npm in this page',
			requested: 'auto'
		});
	});

	it.each([
		[{ crossOriginIsolated: false }, 'Offline sandbox: this page is not cross-origin isolated'],
		[{ browserSupported: false }, 'Offline sandbox: this browser cannot run WebContainer'],
		[{ online: false }, 'Offline sandbox: the browser is offline']
	])('falls back to local for auto when %o', (missing, reason) => {
		expect(chooseSandbox({ ...capable, ...missing, requested: 'auto' })).toEqual({
			kind: 'local',
			reason,
			requested: 'auto'
		});
	});

	it('names the first obstacle when several apply', () => {
		const choice = chooseSandbox({
			requested: 'auto',
			crossOriginIsolated: false,
			online: false,
			browserSupported: false
		});
		expect(choice.reason).toBe('Offline sandbox: this page is not cross-origin isolated');
	});

	it('honours a request for local even when WebContainer could run', () => {
		expect(chooseSandbox({ ...capable, requested: 'local' })).toEqual({
			kind: 'local',
			reason: 'Offline sandbox: requested',
			requested: 'local'
		});
	});

	it('starts a requested WebContainer when possible', () => {
		expect(chooseSandbox({ ...capable, requested: 'webcontainer' })).toEqual({
			kind: 'webcontainer',
			reason: 'WebContainer requested',
			requested: 'webcontainer'
		});
	});

	it('explains why a requested WebContainer cannot run', () => {
		expect(chooseSandbox({ ...capable, online: false, requested: 'webcontainer' })).toEqual({
			kind: 'local',
			reason: 'Offline sandbox: WebContainer was requested, but the browser is offline',
			requested: 'webcontainer'
		});
		expect(
			chooseSandbox({ ...capable, crossOriginIsolated: false, requested: 'webcontainer' }).reason
		).toBe(
			'Offline sandbox: WebContainer was requested, but this page is not cross-origin isolated'
		);
	});

	it('reads the request case- and space-insensitively; empty or missing is auto', () => {
		expect(chooseSandbox({ ...capable, requested: ' WebContainer ' }).requested).toBe(
			'webcontainer'
		);
		expect(chooseSandbox({ ...capable, requested: 'LOCAL' }).kind).toBe('local');
		for (const requested of ['', null, undefined]) {
			const choice = chooseSandbox({ ...capable, requested });
			expect(choice.requested).toBe('auto');
			expect(choice.note).toBeUndefined();
		}
	});

	it('reads an unknown request as auto, with a note', () => {
		const choice = chooseSandbox({ ...capable, requested: 'docker' });
		expect(choice).toEqual({
			kind: 'webcontainer',
			reason: 'WebContainer: real Node.js and npm in this page',
			requested: 'auto',
			note: 'Unknown sandbox "docker" requested; using auto (choose auto, local or webcontainer)'
		});
		const offline = chooseSandbox({ ...capable, online: false, requested: 'nope' });
		expect(offline.kind).toBe('local');
		expect(offline.note).toMatch(/Unknown sandbox "nope"/);
		expect(chooseSandbox({ ...capable, requested: 42 as never }).note).toMatch(
			/Unknown sandbox 42/
		);
	});
});

function fakeSandbox(kind: SandboxKind): Sandbox & { disposed: boolean } {
	const sandbox = {
		kind,
		disposed: false,
		fs: {} as Sandbox['fs'],
		capabilities: { kind, description: kind, commands: [] },
		exec: async () => ({ exitCode: 0, output: '', changes: [], interrupted: false }),
		openShell: async () => {
			throw new Error('not in this test');
		},
		dispose: async () => {
			sandbox.disposed = true;
		}
	};
	return sandbox;
}

const webContainerChoice: SandboxChoice = {
	kind: 'webcontainer',
	reason: 'WebContainer requested',
	requested: 'webcontainer'
};
const localChoice: SandboxChoice = {
	kind: 'local',
	reason: 'Offline sandbox: this page is not cross-origin isolated',
	requested: 'auto'
};

afterEach(() => {
	vi.useRealTimers();
});

describe('startSandbox', () => {
	it('starts WebContainer when chosen, without touching the local sandbox', async () => {
		const notices: string[] = [];
		const startLocal = vi.fn(async () => fakeSandbox('local'));
		const started = await startSandbox(webContainerChoice, {
			startWebContainer: async () => fakeSandbox('webcontainer'),
			startLocal,
			onNotice: (message) => notices.push(message)
		});
		expect(started.kind).toBe('webcontainer');
		expect(started.fellBack).toBe(false);
		expect(started.reason).toBe('WebContainer requested');
		expect(notices).toEqual(['WebContainer requested']);
		expect(startLocal).not.toHaveBeenCalled();
	});

	it('starts local when chosen, without touching WebContainer', async () => {
		const startWebContainer = vi.fn(async () => fakeSandbox('webcontainer'));
		const notices: string[] = [];
		const started = await startSandbox(localChoice, {
			startWebContainer,
			startLocal: async () => fakeSandbox('local'),
			onNotice: (message) => notices.push(message)
		});
		expect(started).toMatchObject({ kind: 'local', fellBack: false });
		expect(notices).toEqual(['Offline sandbox: this page is not cross-origin isolated']);
		expect(startWebContainer).not.toHaveBeenCalled();
	});

	it('falls back to local when WebContainer fails, saying why', async () => {
		const notices: string[] = [];
		const started = await startSandbox(webContainerChoice, {
			startWebContainer: async () => {
				throw new Error('WebContainer did not start within 20 s (StackBlitz servers unreachable?)');
			},
			startLocal: async () => fakeSandbox('local'),
			onNotice: (message) => notices.push(message)
		});
		expect(started).toMatchObject({ kind: 'local', fellBack: true });
		expect(notices).toEqual([
			'Offline sandbox: WebContainer did not start within 20 s (StackBlitz servers unreachable?)'
		]);
	});

	it('wraps other failures, including ones thrown before any promise', async () => {
		const started = await startSandbox(webContainerChoice, {
			startWebContainer: () => {
				throw new TypeError('import failed');
			},
			startLocal: async () => fakeSandbox('local')
		});
		expect(started.reason).toBe('Offline sandbox: WebContainer did not start (import failed)');
		const blank = await startSandbox(webContainerChoice, {
			startWebContainer: () => Promise.reject(''),
			startLocal: async () => fakeSandbox('local')
		});
		expect(blank.reason).toBe('Offline sandbox: WebContainer did not start (unknown error)');
	});

	it('falls back when WebContainer takes too long, and disposes it if it arrives later', async () => {
		vi.useFakeTimers();
		let arrive: (sandbox: Sandbox) => void = () => {};
		const late = fakeSandbox('webcontainer');
		const notices: string[] = [];
		const starting = startSandbox(webContainerChoice, {
			startWebContainer: () => new Promise((resolve) => (arrive = resolve)),
			startLocal: async () => fakeSandbox('local'),
			onNotice: (message) => notices.push(message),
			timeoutMs: 5_000
		});
		await vi.advanceTimersByTimeAsync(5_000);
		const started = await starting;
		expect(started).toMatchObject({ kind: 'local', fellBack: true });
		expect(notices).toEqual(['Offline sandbox: WebContainer took longer than 5 s to start']);
		arrive(late);
		await vi.advanceTimersByTimeAsync(0);
		expect(late.disposed).toBe(true);
	});

	it('rejects when the local sandbox cannot start either, naming both failures', async () => {
		await expect(
			startSandbox(webContainerChoice, {
				startWebContainer: async () => {
					throw new Error('boom');
				},
				startLocal: async () => {
					throw new Error('IndexedDB blocked');
				}
			})
		).rejects.toThrow(
			'The offline sandbox could not start either: IndexedDB blocked (WebContainer: boom)'
		);
		await expect(
			startSandbox(localChoice, {
				startWebContainer: async () => fakeSandbox('webcontainer'),
				startLocal: async () => {
					throw new Error('IndexedDB blocked');
				}
			})
		).rejects.toThrow('IndexedDB blocked');
	});

	it('adds the note about an unknown request to the notice', async () => {
		const choice = chooseSandbox({ ...capable, online: false, requested: 'docker' });
		const notices: string[] = [];
		await startSandbox(choice, {
			startWebContainer: async () => fakeSandbox('webcontainer'),
			startLocal: async () => fakeSandbox('local'),
			onNotice: (message) => notices.push(message)
		});
		expect(notices).toEqual([
			'Offline sandbox: the browser is offline. Unknown sandbox "docker" requested; using auto (choose auto, local or webcontainer)'
		]);
	});

	it('survives a throwing notice display and works without one', async () => {
		const started = await startSandbox(localChoice, {
			startWebContainer: async () => fakeSandbox('webcontainer'),
			startLocal: async () => fakeSandbox('local'),
			onNotice: () => {
				throw new Error('UI gone');
			}
		});
		expect(started.kind).toBe('local');
		const quiet = await startSandbox(webContainerChoice, {
			startWebContainer: async () => fakeSandbox('webcontainer'),
			startLocal: async () => fakeSandbox('local')
		});
		expect(quiet.kind).toBe('webcontainer');
	});

	it('refuses a bad timeout', async () => {
		await expect(
			startSandbox(webContainerChoice, {
				startWebContainer: async () => fakeSandbox('webcontainer'),
				startLocal: async () => fakeSandbox('local'),
				timeoutMs: 0
			})
		).rejects.toThrow(RangeError);
	});
});
