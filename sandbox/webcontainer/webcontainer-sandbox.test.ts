import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FileChange, FileWatchEvent } from '../../hooks/tools/sandbox-ports.js';
import type { PtyShellSession, Sandbox } from '../sandbox.js';
import {
	createFakeWebContainerApi,
	type FakeContainer,
	type FakeShellHandler,
	type FakeWebContainerApi,
	type FakeWebContainerOptions
} from './fake-webcontainer.js';
import { committingEverything } from '../contract/committing-sandbox.js';

type SandboxModule = typeof import('./webcontainer-sandbox.js');

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const bytes = (text: string) => encoder.encode(text);
const text = (value: Uint8Array | null) => (value === null ? null : decoder.decode(value));
const summarize = (changes: FileChange[]) =>
	changes.map((change) => ({
		path: change.path,
		type: change.type,
		before: text(change.before),
		after: text(change.after)
	}));
/**
 * The errno code of a SandboxFileSystemError. By name, not instanceof: each test loads a fresh
 * copy of the modules, so the class differs from one imported here.
 */
const errnoOf = (error: unknown) =>
	error instanceof Error && error.name === 'SandboxFileSystemError'
		? (error as Error & { code: string }).code
		: String(error);
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));
/** Longer than the echo window the tests use (20 ms) plus the fake's event delivery. */
const settle = () => sleep(60);

/** The module keeps page-wide state (one WebContainer per page): each test gets a fresh copy. */
async function freshModule(): Promise<SandboxModule> {
	vi.resetModules();
	return import('./webcontainer-sandbox.js');
}

const opened: Sandbox[] = [];

async function start(
	files: Record<string, string> = {},
	fakeOptions: FakeWebContainerOptions = {}
): Promise<{
	module: SandboxModule;
	api: FakeWebContainerApi;
	sandbox: Sandbox;
	container: FakeContainer;
}> {
	const module = await freshModule();
	const api = createFakeWebContainerApi(fakeOptions);
	const sandbox = await module.createWebContainerSandbox({
		files: Object.fromEntries(
			Object.entries(files).map(([path, content]) => [path, bytes(content)])
		),
		webContainerApi: api,
		echoWindowMs: 20
	});
	opened.push(sandbox);
	// Most tests are about what commands do, so every change is committed unless a test reviews.
	return {
		module,
		api,
		sandbox: committingEverything(sandbox),
		container: api.containers[0] as FakeContainer
	};
}

afterEach(async () => {
	vi.useRealTimers();
	for (const sandbox of opened.splice(0)) await sandbox.dispose();
});

describe('createWebContainerSandbox: boot', () => {
	it('rejects with a clear message when boot does not settle in time', async () => {
		const module = await freshModule();
		const api = createFakeWebContainerApi({ boot: 'hang' });
		const stages: string[] = [];
		const started = Date.now();
		const failure = await module
			.createWebContainerSandbox({
				files: {},
				webContainerApi: api,
				bootTimeoutMs: 50,
				onProgress: (stage) => stages.push(stage)
			})
			.catch((error: unknown) => error);
		expect(Date.now() - started).toBeLessThan(2_000);
		expect(failure).toBeInstanceOf(module.WebContainerStartError);
		expect((failure as Error).message).toBe(
			'WebContainer did not start within 0.05 s (StackBlitz servers unreachable?)'
		);
		expect((failure as InstanceType<SandboxModule['WebContainerStartError']>).reason).toBe(
			'timeout'
		);
		expect(stages).toEqual(['booting']);
	});

	it('waits 20 s by default', async () => {
		vi.useFakeTimers();
		const module = await freshModule();
		const api = createFakeWebContainerApi({ boot: 'hang' });
		let outcome: unknown = 'pending';
		void module
			.createWebContainerSandbox({ files: {}, webContainerApi: api })
			.catch((error: unknown) => (outcome = error));
		await vi.advanceTimersByTimeAsync(19_999);
		expect(outcome).toBe('pending');
		await vi.advanceTimersByTimeAsync(1);
		expect((outcome as Error).message).toBe(
			'WebContainer did not start within 20 s (StackBlitz servers unreachable?)'
		);
	});

	it('after a timed-out boot, refuses at once instead of queueing behind the stuck boot', async () => {
		const module = await freshModule();
		const api = createFakeWebContainerApi({ boot: 'hang' });
		await expect(
			module.createWebContainerSandbox({ files: {}, webContainerApi: api, bootTimeoutMs: 20 })
		).rejects.toThrow(/did not start/);
		const second = await module
			.createWebContainerSandbox({ files: {}, webContainerApi: api, bootTimeoutMs: 20 })
			.catch((error: unknown) => error);
		expect((second as InstanceType<SandboxModule['WebContainerStartError']>).reason).toBe('stuck');
		expect((second as Error).message).toMatch(/reload the page/);
		expect(api.bootCalls).toHaveLength(1);
	});

	it('tears down a container whose boot finishes after the timeout, freeing the page', async () => {
		const module = await freshModule();
		const api = createFakeWebContainerApi({ boot: 'manual' });
		await expect(
			module.createWebContainerSandbox({ files: {}, webContainerApi: api, bootTimeoutMs: 20 })
		).rejects.toThrow(/did not start/);
		api.settleBoot();
		await sleep(0);
		expect(api.containers[0]?.tornDown).toBe(true);

		const retry = createFakeWebContainerApi();
		const sandbox = await module.createWebContainerSandbox({ files: {}, webContainerApi: retry });
		opened.push(sandbox);
		expect(sandbox.kind).toBe('webcontainer');
	});

	it('reports a failing boot with its cause and lets a later attempt run', async () => {
		const module = await freshModule();
		const failing = createFakeWebContainerApi({
			boot: new Error('SharedArrayBuffer is not defined')
		});
		const failure = await module
			.createWebContainerSandbox({ files: {}, webContainerApi: failing })
			.catch((error: unknown) => error);
		expect((failure as Error).message).toBe(
			'WebContainer could not start: SharedArrayBuffer is not defined'
		);
		expect((failure as InstanceType<SandboxModule['WebContainerStartError']>).reason).toBe(
			'boot-failed'
		);
		const sandbox = await module.createWebContainerSandbox({
			files: {},
			webContainerApi: createFakeWebContainerApi()
		});
		opened.push(sandbox);
	});

	it('allows one sandbox per page, and another after dispose', async () => {
		const { module, sandbox } = await start();
		const second = await module
			.createWebContainerSandbox({ files: {}, webContainerApi: createFakeWebContainerApi() })
			.catch((error: unknown) => error);
		expect((second as InstanceType<SandboxModule['WebContainerStartError']>).reason).toBe('busy');
		expect((second as Error).message).toMatch(/already running in this page.*dispose it/);

		await sandbox.dispose();
		const third = await module.createWebContainerSandbox({
			files: {},
			webContainerApi: createFakeWebContainerApi()
		});
		opened.push(third);
		expect(third.kind).toBe('webcontainer');
	});

	it('refuses a second start while the first is still booting', async () => {
		const module = await freshModule();
		const api = createFakeWebContainerApi({ boot: 'manual' });
		const first = module.createWebContainerSandbox({ files: {}, webContainerApi: api });
		await expect(
			module.createWebContainerSandbox({ files: {}, webContainerApi: createFakeWebContainerApi() })
		).rejects.toThrow(/already running/);
		await sleep(0);
		api.settleBoot();
		opened.push(await first);
	});

	it('configures the API key before booting with require-corp', async () => {
		const module = await freshModule();
		const api = createFakeWebContainerApi();
		opened.push(
			await module.createWebContainerSandbox({ files: {}, webContainerApi: api, apiKey: 'wc_key' })
		);
		expect(api.apiKeys).toEqual(['wc_key']);
		expect(api.bootCalls).toEqual([{ coep: 'require-corp', workdirName: 'workspace' }]);
	});

	it('mounts the workspace as a nested FileSystemTree and reports its stages', async () => {
		const module = await freshModule();
		const api = createFakeWebContainerApi();
		const progress: [string, string | undefined][] = [];
		const binary = Uint8Array.from([0, 255, 10]);
		opened.push(
			await module.createWebContainerSandbox({
				files: async () => ({
					'package.json': bytes('{}'),
					'src/index.js': bytes('run()'),
					'src/lib/data.bin': binary
				}),
				webContainerApi: api,
				onProgress: (stage, detail) => progress.push([stage, detail])
			})
		);
		const container = api.containers[0] as FakeContainer;
		expect(container.mounts).toHaveLength(1);
		expect(
			JSON.parse(
				JSON.stringify(container.mounts[0], (_key, value) =>
					value instanceof Uint8Array ? Array.from(value) : value
				)
			)
		).toEqual({
			'package.json': { file: { contents: Array.from(bytes('{}')) } },
			src: {
				directory: {
					'index.js': { file: { contents: Array.from(bytes('run()')) } },
					lib: { directory: { 'data.bin': { file: { contents: [0, 255, 10] } } } }
				}
			}
		});
		expect(progress).toEqual([
			['booting', undefined],
			['mounting', '3 files'],
			['ready', undefined]
		]);
	});

	it('rejects a workspace whose paths clash before booting, leaving the page free', async () => {
		const module = await freshModule();
		const api = createFakeWebContainerApi();
		await expect(
			module.createWebContainerSandbox({
				files: { a: bytes('file'), 'a/b': bytes('inside') },
				webContainerApi: api
			})
		).rejects.toThrow(TypeError);
		await expect(
			module.createWebContainerSandbox({ files: { '../x': bytes('') }, webContainerApi: api })
		).rejects.toThrow(/escapes the workspace root/);
		expect(api.bootCalls).toHaveLength(0);
		opened.push(await module.createWebContainerSandbox({ files: {}, webContainerApi: api }));
	});

	it('tears the container down when mounting fails', async () => {
		const module = await freshModule();
		const api = createFakeWebContainerApi({ mountError: new Error('quota exceeded') });
		const failure = await module
			.createWebContainerSandbox({ files: { 'a.txt': bytes('a') }, webContainerApi: api })
			.catch((error: unknown) => error);
		expect((failure as Error).message).toMatch(/could not be mounted: quota exceeded/);
		expect(api.containers[0]?.tornDown).toBe(true);
		opened.push(
			await module.createWebContainerSandbox({
				files: {},
				webContainerApi: createFakeWebContainerApi()
			})
		);
	});

	it('checks its options', async () => {
		const module = await freshModule();
		const api = createFakeWebContainerApi();
		await expect(
			module.createWebContainerSandbox({ files: {}, webContainerApi: api, bootTimeoutMs: 0 })
		).rejects.toThrow(/bootTimeoutMs must be a positive number/);
		await expect(
			module.createWebContainerSandbox({ files: null as never, webContainerApi: api })
		).rejects.toThrow(/`files` must map workspace paths/);
	});
});

describe('WebContainer sandbox: fs', () => {
	it('answers stat from the parent listing (WebContainer has no stat)', async () => {
		const { sandbox } = await start({ 'src/app.ts': 'héllo', 'README.md': '#' });
		expect(await sandbox.fs.stat('')).toEqual({ kind: 'directory', size: 0 });
		expect(await sandbox.fs.stat('src')).toEqual({ kind: 'directory', size: 0 });
		expect(await sandbox.fs.stat('src/app.ts')).toEqual({ kind: 'file', size: 6 });
		expect(await sandbox.fs.stat('missing.ts')).toBeNull();
		expect(await sandbox.fs.stat('README.md/inside')).toBeNull();
		expect(await sandbox.fs.stat('no/such/folder/file')).toBeNull();
	});

	it('lists folders sorted with kinds, and refuses missing or file paths with errno codes', async () => {
		const { sandbox, container } = await start({ 'b.txt': 'b', 'c/x.txt': 'x' });
		await container.fs.writeFile('a.txt', 'a');
		expect(await sandbox.fs.readdir('.')).toEqual([
			{ name: 'a.txt', kind: 'file' },
			{ name: 'b.txt', kind: 'file' },
			{ name: 'c', kind: 'directory' }
		]);
		expect(await sandbox.fs.readdir('nope').catch(errnoOf)).toBe('ENOENT');
		expect(await sandbox.fs.readdir('b.txt').catch(errnoOf)).toBe('ENOTDIR');
	});

	it('reads, writes (creating parents) and round-trips bytes through the container', async () => {
		const { sandbox, container } = await start();
		await sandbox.fs.writeFile('src/deep/note.txt', 'héllo ✓\n');
		expect(container.fs.text('src/deep/note.txt')).toBe('héllo ✓\n');
		expect(await sandbox.fs.readTextFile('./src//deep/../deep/note.txt')).toBe('héllo ✓\n');
		const binary = Uint8Array.from([0, 255, 10, 13, 128]);
		await sandbox.fs.writeFile('data.bin', binary);
		expect(Array.from(await sandbox.fs.readFile('data.bin'))).toEqual([0, 255, 10, 13, 128]);
		await sandbox.fs.writeFile('data.bin', 'short');
		expect(await sandbox.fs.readTextFile('data.bin')).toBe('short');
	});

	it('maps refusals to SandboxFileSystemError codes', async () => {
		const { sandbox } = await start({ 'dir/a.txt': 'a', 'file.txt': 'f' });
		const codeOf = (promise: Promise<unknown>) => promise.then(() => 'resolved', errnoOf);
		expect(await codeOf(sandbox.fs.readFile('missing.txt'))).toBe('ENOENT');
		expect(await codeOf(sandbox.fs.readFile('dir'))).toBe('EISDIR');
		expect(await codeOf(sandbox.fs.writeFile('dir', 'x'))).toBe('EISDIR');
		expect(await codeOf(sandbox.fs.writeFile('', 'x'))).toBe('EISDIR');
		expect(await codeOf(sandbox.fs.writeFile('file.txt/inner.txt', 'x'))).toBe('ENOTDIR');
		expect(await codeOf(sandbox.fs.mkdir('x/y'))).toBe('ENOENT');
		expect(await codeOf(sandbox.fs.mkdir('dir'))).toBe('EEXIST');
		expect(await codeOf(sandbox.fs.mkdir('file.txt', { recursive: true }))).toBe('EEXIST');
		expect(await codeOf(sandbox.fs.mkdir('file.txt/sub', { recursive: true }))).toBe('ENOTDIR');
		expect(await codeOf(sandbox.fs.rm('dir'))).toBe('ENOTEMPTY');
		expect(await codeOf(sandbox.fs.rm('missing'))).toBe('ENOENT');
		expect(await codeOf(sandbox.fs.rm('', { recursive: true }))).toBe('EPERM');
		expect(await codeOf(sandbox.fs.rename('missing', 'x'))).toBe('ENOENT');
		expect(await codeOf(sandbox.fs.rename('dir', 'dir/inside'))).toBe('EINVAL');
		expect(await codeOf(sandbox.fs.rename('file.txt', 'dir'))).toBe('EEXIST');
		expect(await codeOf(sandbox.fs.rename('dir', 'file.txt'))).toBe('ENOTDIR');
	});

	it('makes folders, removes recursively and renames into new folders', async () => {
		const { sandbox, container } = await start({ 'dir/sub/b.txt': 'b', 'old.txt': 'content' });
		await sandbox.fs.mkdir('x/y', { recursive: true });
		await sandbox.fs.mkdir('x/y', { recursive: true });
		expect(await sandbox.fs.stat('x/y')).toEqual({ kind: 'directory', size: 0 });
		await sandbox.fs.mkdir('x/z');
		expect(await sandbox.fs.rm('x/z').catch(errnoOf)).toBe('EISDIR');
		await sandbox.fs.rm('x/z', { recursive: true });
		expect(await sandbox.fs.stat('x/z')).toBeNull();
		await sandbox.fs.rm('dir', { recursive: true });
		expect(container.fs.nodes.has('dir/sub/b.txt')).toBe(false);
		await sandbox.fs.rename('old.txt', 'moved/deeper/new.txt');
		expect(container.fs.text('moved/deeper/new.txt')).toBe('content');
		expect(await sandbox.fs.stat('old.txt')).toBeNull();
		await sandbox.fs.rename('moved', 'renamed');
		expect(await sandbox.fs.readTextFile('renamed/deeper/new.txt')).toBe('content');
	});

	it.each(['../outside.txt', '/etc/passwd', 'src/../../x'])(
		'rejects the escaping path %s without touching the container',
		async (path) => {
			const { sandbox } = await start({ 'inside.txt': 'i' });
			const escape = /escapes the workspace root|absolute/;
			await expect(sandbox.fs.readFile(path)).rejects.toThrow(escape);
			await expect(sandbox.fs.writeFile(path, 'x')).rejects.toThrow(escape);
			await expect(sandbox.fs.stat(path)).rejects.toThrow(escape);
			await expect(sandbox.fs.rm(path, { recursive: true })).rejects.toThrow(escape);
			await expect(sandbox.fs.rename('inside.txt', path)).rejects.toThrow(escape);
			await expect(sandbox.exec('ls', { cwd: path })).rejects.toThrow(escape);
		}
	);
});

describe('WebContainer sandbox: watch', () => {
	it('does not echo its own writes to watchers', async () => {
		const { sandbox } = await start({ 'keep.txt': 'k' });
		const events: FileWatchEvent[] = [];
		sandbox.fs.watch((event) => events.push(event));
		await sandbox.fs.writeFile('a/b/c.txt', 'a');
		await sandbox.fs.writeFile('keep.txt', 'changed');
		await sandbox.fs.mkdir('made/here', { recursive: true });
		await sandbox.fs.rename('a', 'z');
		await sandbox.fs.rm('z', { recursive: true });
		await settle();
		expect(events).toEqual([]);
	});

	it('announces changes made by others (the terminal, a dev server)', async () => {
		const { sandbox, container } = await start({ 'old.txt': 'old', 'edit.txt': 'v1' });
		const events: FileWatchEvent[] = [];
		sandbox.fs.watch((event) => events.push(event));
		await container.fs.writeFile('new.txt', 'new');
		await container.fs.writeFile('edit.txt', 'v2');
		await container.fs.rm('old.txt');
		await container.fs.mkdir('folder');
		await settle();
		expect(events).toEqual([
			{ type: 'created', path: 'new.txt' },
			{ type: 'modified', path: 'edit.txt' },
			{ type: 'deleted', path: 'old.txt' },
			{ type: 'created', path: 'folder' }
		]);
	});

	it('announces a change by others to a path it wrote itself once the echo window has passed', async () => {
		const { sandbox, container } = await start();
		const events: FileWatchEvent[] = [];
		sandbox.fs.watch((event) => events.push(event));
		await sandbox.fs.writeFile('shared.txt', 'ours');
		await settle();
		await container.fs.writeFile('shared.txt', 'theirs');
		await settle();
		expect(events).toEqual([{ type: 'modified', path: 'shared.txt' }]);
	});

	it('keeps quiet about the insides of node_modules but announces the folder', async () => {
		const { sandbox, container } = await start();
		const events: FileWatchEvent[] = [];
		sandbox.fs.watch((event) => events.push(event));
		await container.fs.mkdir('node_modules/left-pad', { recursive: true });
		await container.fs.writeFile('node_modules/left-pad/index.js', 'module.exports = 1');
		await settle();
		expect(events).toEqual([{ type: 'created', path: 'node_modules' }]);
	});

	it('stops after unsubscribe and survives a throwing listener', async () => {
		const { sandbox, container } = await start();
		const events: FileWatchEvent[] = [];
		sandbox.fs.watch(() => {
			throw new Error('broken view');
		});
		const unsubscribe = sandbox.fs.watch((event) => events.push(event));
		await container.fs.writeFile('one.txt', '1');
		await settle();
		unsubscribe();
		await container.fs.writeFile('two.txt', '2');
		await settle();
		expect(events).toEqual([{ type: 'created', path: 'one.txt' }]);
	});
});

describe('WebContainer sandbox: exec', () => {
	it('spawns jsh -c with npm_config_yes, in the cwd given', async () => {
		const { sandbox, container } = await start({ 'src/a.ts': 'x' });
		await sandbox.exec('ls');
		await sandbox.exec('ls', { cwd: 'src/' });
		expect(
			container.spawned.map(({ command, args, options }) => ({ command, args, options }))
		).toEqual([
			{ command: 'jsh', args: ['-c', 'ls'], options: { env: { npm_config_yes: 'true' } } },
			{
				command: 'jsh',
				args: ['-c', 'ls'],
				options: { cwd: 'src', env: { npm_config_yes: 'true' } }
			}
		]);
	});

	it('returns plain output: CRLF as LF, colours removed, with the exit code', async () => {
		const shell: FakeShellHandler = ({ write }) => {
			write('\u001b[32madded 3 packages\u001b[0m\n');
			write('\u001b[1G\u001b[0K⠙\u001b[1G\u001b[0Kdone\n');
			return 3;
		};
		const { sandbox } = await start({}, { shell });
		const result = await sandbox.exec('npm install');
		expect(result).toEqual({
			exitCode: 3,
			output: 'added 3 packages\ndone\n',
			changes: [],
			entries: [],
			refused: [],
			interrupted: false
		});
	});

	it('runs a reviewed command as a transaction: every path not committed is put back', async () => {
		const { sandbox, container } = await start({ '.git/config': 'core\n', 'src/a.ts': 'a\n' });
		let proposed: string[] = [];
		const result = await sandbox.exec(
			'echo evil > .git/config; mkdir -p .orchestration/x; echo b > src/b.ts; rm src/a.ts',
			{
				review: async (proposal) => {
					proposed = proposal.entries.map((entry) => entry.path);
					await proposal.commit(['src/b.ts']);
				}
			}
		);
		expect(proposed).toEqual([
			'.git/config',
			'.orchestration',
			'.orchestration/x',
			'src/a.ts',
			'src/b.ts'
		]);
		expect(result.changes.map((change) => change.path)).toEqual(['src/b.ts']);
		expect(result.refused?.map((entry) => entry.path)).toEqual([
			'.git/config',
			'.orchestration',
			'.orchestration/x',
			'src/a.ts'
		]);
		expect(text(await container.fs.readFile('.git/config'))).toBe('core\n');
		expect(text(await container.fs.readFile('src/a.ts'))).toBe('a\n');
		expect(container.fs.nodes.has('.orchestration')).toBe(false);
	});

	it('without a review nothing is committed: everything is put back (fail closed)', async () => {
		const { container } = await start({ 'src/a.ts': 'a\n' });
		// The sandbox as created, without the tests' committing wrapper.
		const ungoverned = opened.at(-1) as Sandbox;
		const result = await ungoverned.exec('echo b > src/a.ts; mkdir src/new');
		expect(result.changes).toEqual([]);
		expect(text(await container.fs.readFile('src/a.ts'))).toBe('a\n');
		expect(container.fs.nodes.has('src/new')).toBe(false);
	});

	it('a review that commits nothing discards everything', async () => {
		const { sandbox, container } = await start({ 'src/a.ts': 'a\n' });
		const result = await sandbox.exec('echo b > src/a.ts; mkdir src/new', {
			review: async () => undefined
		});
		expect(result.changes).toEqual([]);
		expect(text(await container.fs.readFile('src/a.ts'))).toBe('a\n');
		expect(container.fs.nodes.has('src/new')).toBe(false);
	});

	it('when restoring fails, says so and refuses every later governed command', async () => {
		const { sandbox, container } = await start({ '.git/config': 'core\n' });
		const failing = sandbox.exec('echo evil > .git/config', {
			review: async (proposal) => {
				container.fs.writeFile = async () => {
					throw new Error('disk gone');
				};
				await proposal.commit([]);
			}
		});
		await expect(failing).rejects.toThrow(/could not be undone.*\.git\/config.*disk gone/s);
		await expect(sandbox.exec('true', { review: async () => undefined })).rejects.toThrow(
			/can no longer run governed commands/
		);
	});

	it('streams output to onOutput while the command runs', async () => {
		let release: () => void = () => {};
		const gate = new Promise<void>((resolve) => (release = resolve));
		const shell: FakeShellHandler = async ({ write }) => {
			write('first\n');
			await gate;
			write('second\n');
			return 0;
		};
		const { sandbox } = await start({}, { shell });
		const chunks: string[] = [];
		const running = sandbox.exec('build', { onOutput: (chunk) => chunks.push(chunk) });
		await sleep(20);
		expect(chunks).toEqual(['first\n']);
		release();
		const result = await running;
		expect(chunks.join('')).toBe(result.output);
		expect(result.output).toBe('first\nsecond\n');
	});

	it('reports created, modified and deleted files with their bytes before and after', async () => {
		const { sandbox } = await start({
			'doomed.txt': 'last words\n',
			'src/config.txt': 'mode=dev\n',
			'same.txt': 'same\n'
		});
		const result = await sandbox.exec(
			'echo hello > note.txt && rm doomed.txt && echo mode=prod > src/config.txt && echo same > same.txt'
		);
		expect(result.exitCode).toBe(0);
		expect(summarize(result.changes)).toEqual([
			{ path: 'doomed.txt', type: 'deleted', before: 'last words\n', after: null },
			{ path: 'note.txt', type: 'created', before: null, after: 'hello\n' },
			{ path: 'src/config.txt', type: 'modified', before: 'mode=dev\n', after: 'mode=prod\n' }
		]);
	});

	it('reports a rename as delete plus create, and files removed with a folder', async () => {
		const { sandbox } = await start({
			'from.txt': 'moving\n',
			'build/a.js': 'a',
			'build/lib/b.js': 'b'
		});
		const result = await sandbox.exec('mv from.txt to.txt; rm -r build');
		expect(summarize(result.changes)).toEqual([
			{ path: 'build/a.js', type: 'deleted', before: 'a', after: null },
			{ path: 'build/lib/b.js', type: 'deleted', before: 'b', after: null },
			{ path: 'from.txt', type: 'deleted', before: 'moving\n', after: null },
			{ path: 'to.txt', type: 'created', before: null, after: 'moving\n' }
		]);
	});

	it('leaves node_modules out of the changes', async () => {
		const shell: FakeShellHandler = async ({ fs }) => {
			await fs.mkdir('node_modules/pkg', { recursive: true });
			await fs.writeFile('node_modules/pkg/index.js', 'x');
			await fs.writeFile('package-lock.json', '{}');
			return 0;
		};
		const { sandbox } = await start({}, { shell });
		const result = await sandbox.exec('npm install');
		expect(summarize(result.changes)).toEqual([
			{ path: 'package-lock.json', type: 'created', before: null, after: '{}' }
		]);
	});

	it('tells watchers what a command changed', async () => {
		const { sandbox } = await start({ 'old.txt': 'old' });
		const events: FileWatchEvent[] = [];
		sandbox.fs.watch((event) => events.push(event));
		await sandbox.exec('echo new > new.txt && rm old.txt');
		expect(events).toEqual(
			expect.arrayContaining([
				{ type: 'created', path: 'new.txt' },
				{ type: 'deleted', path: 'old.txt' }
			])
		);
	});

	it('passes exit codes through, 127 for unknown commands', async () => {
		const { sandbox } = await start();
		expect((await sandbox.exec('exit 3')).exitCode).toBe(3);
		expect((await sandbox.exec('false')).exitCode).toBe(1);
		const unknown = await sandbox.exec('grep x file');
		expect(unknown.exitCode).toBe(127);
		expect(unknown.output).toBe('jsh: command not found: grep\n');
	});

	it('kills a command at its timeout: exit 124, interrupted, earlier changes kept', async () => {
		const { sandbox, container } = await start();
		const started = Date.now();
		const result = await sandbox.exec('echo early > early.txt; sleep 10; echo late > late.txt', {
			timeoutMs: 100
		});
		expect(Date.now() - started).toBeLessThan(3_000);
		expect(result.exitCode).toBe(124);
		expect(result.interrupted).toBe(true);
		expect(result.output).toMatch(/timed out after 100 ms/);
		expect(summarize(result.changes)).toEqual([
			{ path: 'early.txt', type: 'created', before: null, after: 'early\n' }
		]);
		expect(container.spawned[0]?.process.killed).toBe(true);
		expect(container.fs.text('late.txt')).toBeNull();
	});

	it('kills a command when the signal aborts', async () => {
		const { sandbox, container } = await start();
		const controller = new AbortController();
		setTimeout(() => controller.abort(), 50);
		const chunks: string[] = [];
		const result = await sandbox.exec('sleep 10', {
			signal: controller.signal,
			onOutput: (chunk) => chunks.push(chunk)
		});
		expect(result).toMatchObject({ exitCode: 124, interrupted: true });
		expect(result.output).toBe('Command was cancelled (exit code 124).\n');
		expect(chunks.join('')).toBe(result.output);
		expect(container.spawned[0]?.process.killed).toBe(true);
	});

	it('does not start a command whose signal is already aborted', async () => {
		const { sandbox, container } = await start();
		const controller = new AbortController();
		controller.abort();
		const result = await sandbox.exec('echo x > never.txt', { signal: controller.signal });
		expect(result).toMatchObject({ exitCode: 124, interrupted: true, changes: [] });
		expect(container.spawned).toHaveLength(0);
	});

	it('gives up on a process that ignores the kill', async () => {
		const { sandbox } = await start({}, { ignoreKill: true });
		const started = Date.now();
		const result = await sandbox.exec('sleep 10', { timeoutMs: 20 });
		expect(result.exitCode).toBe(124);
		expect(Date.now() - started).toBeLessThan(4_000);
	});

	it('runs commands one at a time', async () => {
		const order: string[] = [];
		const shell: FakeShellHandler = async ({ script }) => {
			order.push(`start ${script}`);
			await sleep(20);
			order.push(`end ${script}`);
			return 0;
		};
		const { sandbox } = await start({}, { shell });
		await Promise.all([sandbox.exec('one'), sandbox.exec('two')]);
		expect(order).toEqual(['start one', 'end one', 'start two', 'end two']);
	});

	it('rejects a missing cwd, a file as cwd and a non-string command', async () => {
		const { sandbox } = await start({ 'file.txt': 'f' });
		await expect(sandbox.exec('ls', { cwd: 'no/such' })).rejects.toThrow(/no such folder/);
		await expect(sandbox.exec('ls', { cwd: 'file.txt' })).rejects.toThrow(/it is a file/);
		await expect(sandbox.exec(42 as never)).rejects.toThrow(/as a string/);
		await expect(sandbox.exec('ls', { timeoutMs: -1 })).rejects.toThrow(/timeoutMs/);
	});
});

describe('WebContainer sandbox: terminal', () => {
	it('opens jsh --osc on a pseudo-terminal of the given size and plumbs it', async () => {
		const { sandbox, container } = await start();
		const shell = (await sandbox.openShell({ cols: 100, rows: 30 })) as PtyShellSession;
		expect(shell.mode).toBe('pty');
		const record = container.spawned[0];
		expect(record?.command).toBe('jsh');
		expect(record?.args).toEqual(['--osc']);
		expect(record?.options).toEqual({ terminal: { cols: 100, rows: 30 } });

		await sleep(0);
		const received: string[] = [];
		shell.onData((data) => received.push(data));
		// The prompt printed before anyone listened is not lost.
		expect(received.join('')).toContain('❯ ');

		shell.write('ls');
		await sleep(0);
		expect(record?.process.inputs).toEqual(['ls']);
		expect(received.join('')).toContain('ls');

		shell.resize({ cols: 120, rows: 40 });
		expect(record?.process.resizes).toEqual([{ cols: 120, rows: 40 }]);
		expect(() => shell.resize({ cols: 0, rows: 10 })).toThrow(RangeError);

		shell.write('exit\r');
		expect(await shell.exit).toBe(0);
	});

	it('kills the shell on dispose, and the sandbox disposes its shells', async () => {
		const { sandbox, container } = await start();
		const first = await sandbox.openShell({ cols: 80, rows: 24 });
		first.dispose();
		expect(container.spawned[0]?.process.killed).toBe(true);
		await sandbox.openShell({ cols: 80, rows: 24 });
		await sandbox.dispose();
		expect(container.spawned[1]?.process.killed).toBe(true);
	});

	it('refuses a bad terminal size', async () => {
		const { sandbox } = await start();
		await expect(sandbox.openShell({ cols: 80.5, rows: 24 })).rejects.toThrow(RangeError);
	});
});

describe('WebContainer sandbox: lifecycle', () => {
	it('describes itself as real Node and npm', async () => {
		const { sandbox } = await start();
		expect(sandbox.kind).toBe('webcontainer');
		expect(sandbox.capabilities.kind).toBe('webcontainer');
		expect(sandbox.capabilities.description).toMatch(/Node\.js and npm/);
		expect(sandbox.capabilities.commands).toEqual(
			expect.arrayContaining(['node', 'npm', 'npx', 'ls', 'cat', 'mkdir', 'rm', 'mv'])
		);
		expect(sandbox.capabilities.commands).not.toContain('grep');
	});

	it('forwards server-ready and container errors', async () => {
		const module = await freshModule();
		const api = createFakeWebContainerApi();
		const ready: [number, string][] = [];
		const errors: string[] = [];
		const sandbox = await module.createWebContainerSandbox({
			files: {},
			webContainerApi: api,
			onServerReady: (port, url) => ready.push([port, url]),
			onContainerError: (message) => errors.push(message)
		});
		opened.push(sandbox);
		const container = api.containers[0] as FakeContainer;
		container.emitServerReady(5173, 'https://preview.local');
		container.emitError('out of memory');
		expect(ready).toEqual([[5173, 'https://preview.local']]);
		expect(errors).toEqual(['out of memory']);
	});

	it('stops a running command, tears down and refuses work after dispose', async () => {
		const { sandbox, container } = await start();
		const running = sandbox.exec('sleep 10');
		await sleep(20);
		await sandbox.dispose();
		await sandbox.dispose();
		const result = await running;
		expect(result).toMatchObject({ exitCode: 124, interrupted: true });
		expect(result.output).toMatch(/sandbox was closed/);
		expect(container.tornDown).toBe(true);
		expect(container.fs.openWatchers).toBe(0);
		await expect(sandbox.exec('ls')).rejects.toThrow(/disposed/);
		await expect(sandbox.fs.readdir('')).rejects.toThrow(/disposed/);
		await expect(sandbox.openShell({ cols: 80, rows: 24 })).rejects.toThrow(/disposed/);
	});
});
