import type {
	BootOptions,
	ContainerFileSystem,
	ContainerInstance,
	DirEnt,
	ErrorListener,
	FileSystemTree,
	FSWatchCallback,
	IFSWatcher,
	ServerReadyListener,
	SpawnOptions,
	WebContainerApi,
	WebContainerProcess
} from './webcontainer-api.js';

/**
 * An in-memory stand-in for @webcontainer/api 1.6.4, for tests only: StackBlitz's servers are out
 * of reach here, so the real `boot()` never settles. It follows the documented surface and the
 * library's observable behaviour where our adapter depends on it:
 * - one instance per page ("Only a single WebContainer instance can be booted");
 * - `fs` paths resolve against the working directory; errors are plain Errors whose message
 *   starts with the errno ("ENOENT: no such file or directory, open 'x'"): a `code` property does
 *   not survive the library's postMessage bridge, so the fake does not set one either;
 * - `fs.watch` reports every change (the API's own writes included) asynchronously, as Node's
 *   'rename' (a name appeared or vanished) and 'change' (content) with names relative to the
 *   watched folder;
 * - processes write to a pseudo-terminal: output lines end in CRLF.
 *
 * `jsh -c <script>` runs a tiny interpreter (echo with > and >>, cat, ls, rm [-r], mv, mkdir [-p],
 * touch, sleep, true, false, exit N, joined by ; && ||) unless the test passes its own `shell`.
 * `jsh --osc` is an interactive echo: it repeats its input and exits on "exit\r".
 */

export interface FakeShellContext {
	/** The script given to `jsh -c`. */
	script: string;
	/** Workspace-relative working folder ('' is the root). */
	cwd: string;
	env: Record<string, string | number | boolean>;
	/** The container's fs: writes through it are seen by `fs.watch`, like a real process's. */
	fs: FakeContainerFileSystem;
	/** Text for the terminal; `\n` becomes CRLF as on a pseudo-terminal. */
	write(text: string): void;
	/** Aborts when the process is killed. */
	signal: AbortSignal;
}

export type FakeShellHandler = (context: FakeShellContext) => number | Promise<number>;

export interface FakeWebContainerOptions {
	/** 'ready' (default) boots at once; 'hang' never settles (offline); 'manual' waits for `settleBoot`. */
	boot?: 'ready' | 'hang' | 'manual' | Error;
	/** Replaces the built-in `jsh -c` interpreter. */
	shell?: FakeShellHandler;
	/** A killed process ignores the kill (never exits) when true. */
	ignoreKill?: boolean;
	/** Mount fails with this error. */
	mountError?: Error;
	workdir?: string;
}

export interface FakeWebContainerApi extends WebContainerApi {
	readonly bootCalls: (BootOptions | undefined)[];
	readonly apiKeys: string[];
	readonly containers: FakeContainer[];
	/** With boot 'manual' or 'hang': finishes the pending boot (successfully unless given an error). */
	settleBoot(error?: Error): void;
}

export function createFakeWebContainerApi(
	options: FakeWebContainerOptions = {}
): FakeWebContainerApi {
	const bootCalls: (BootOptions | undefined)[] = [];
	const apiKeys: string[] = [];
	const containers: FakeContainer[] = [];
	let settle: ((error?: Error) => void) | undefined;

	const create = () => {
		if (containers.some((container) => !container.tornDown)) {
			throw new Error('Only a single WebContainer instance can be booted');
		}
		const container = new FakeContainer(options);
		containers.push(container);
		return container;
	};

	return {
		bootCalls,
		apiKeys,
		containers,
		configureAPIKey(key: string) {
			if (bootCalls.length > 0) {
				throw new Error('`configureAPIKey` should always be called before `WebContainer.boot`');
			}
			apiKeys.push(key);
		},
		WebContainer: {
			async boot(bootOptions?: BootOptions) {
				bootCalls.push(bootOptions);
				const behaviour = options.boot ?? 'ready';
				if (behaviour instanceof Error) throw behaviour;
				if (behaviour === 'ready') return create();
				return new Promise<ContainerInstance>((resolve, reject) => {
					settle = (error) => (error ? reject(error) : resolve(create()));
				});
			}
		},
		settleBoot(error?: Error) {
			if (!settle) throw new Error('No boot is pending');
			settle(error);
			settle = undefined;
		}
	};
}

type FakeNode = { kind: 'file'; bytes: Uint8Array } | { kind: 'directory' };

interface Watcher {
	root: string;
	recursive: boolean;
	listener: FSWatchCallback;
	closed: boolean;
}

export class FakeContainerFileSystem implements ContainerFileSystem {
	/** Every entry by workspace-relative path; '' is the working directory. */
	readonly nodes = new Map<string, FakeNode>([['', { kind: 'directory' }]]);
	private readonly watchers = new Set<Watcher>();
	private readonly encoder = new TextEncoder();
	tornDown = false;

	constructor(private readonly workdir: string) {}

	async readFile(path: string): Promise<Uint8Array> {
		const target = this.resolve(path, 'open');
		const node = this.nodes.get(target);
		if (!node) throw errno('ENOENT', 'open', path);
		if (node.kind === 'directory') throw errno('EISDIR', 'read', path);
		return node.bytes.slice();
	}

	async writeFile(path: string, data: string | Uint8Array): Promise<void> {
		const target = this.resolve(path, 'open');
		const parent = this.nodes.get(parentOf(target));
		if (!parent) throw errno('ENOENT', 'open', path);
		if (parent.kind !== 'directory') throw errno('ENOTDIR', 'open', path);
		const existing = this.nodes.get(target);
		if (existing?.kind === 'directory' || target === '') throw errno('EISDIR', 'open', path);
		const bytes = typeof data === 'string' ? this.encoder.encode(data) : data.slice();
		this.nodes.set(target, { kind: 'file', bytes });
		this.announce(existing ? 'change' : 'rename', target);
	}

	async readdir(path: string, _options: { withFileTypes: true }): Promise<DirEnt<string>[]> {
		const target = this.resolve(path, 'scandir');
		const node = this.nodes.get(target);
		if (!node) throw errno('ENOENT', 'scandir', path);
		if (node.kind !== 'directory') throw errno('ENOTDIR', 'scandir', path);
		// Insertion order, not sorted: the adapter must sort.
		return this.childrenOf(target).map((childPath) => {
			const child = this.nodes.get(childPath) as FakeNode;
			return {
				name: childPath.slice(childPath.lastIndexOf('/') + 1),
				isFile: () => child.kind === 'file',
				isDirectory: () => child.kind === 'directory'
			};
		});
	}

	mkdir(path: string, options?: { recursive?: false }): Promise<void>;
	mkdir(path: string, options: { recursive: true }): Promise<string>;
	async mkdir(path: string, options?: { recursive?: boolean }): Promise<string | void> {
		const target = this.resolve(path, 'mkdir');
		const existing = this.nodes.get(target);
		if (options?.recursive) {
			if (existing?.kind === 'directory') return undefined;
			if (existing) throw errno('EEXIST', 'mkdir', path);
			const missing: string[] = [];
			let folder = target;
			while (!this.nodes.has(folder)) {
				missing.unshift(folder);
				folder = parentOf(folder);
			}
			if (this.nodes.get(folder)?.kind !== 'directory') throw errno('ENOTDIR', 'mkdir', path);
			for (const created of missing) {
				this.nodes.set(created, { kind: 'directory' });
				this.announce('rename', created);
			}
			return `${this.workdir}/${missing[0]}`;
		}
		if (existing) throw errno('EEXIST', 'mkdir', path);
		const parent = this.nodes.get(parentOf(target));
		if (!parent) throw errno('ENOENT', 'mkdir', path);
		if (parent.kind !== 'directory') throw errno('ENOTDIR', 'mkdir', path);
		this.nodes.set(target, { kind: 'directory' });
		this.announce('rename', target);
	}

	async rm(path: string, options?: { force?: boolean; recursive?: boolean }): Promise<void> {
		const target = this.resolve(path, 'rm');
		const node = this.nodes.get(target);
		if (!node) {
			if (options?.force) return;
			throw errno('ENOENT', 'rm', path);
		}
		if (node.kind === 'directory' && !options?.recursive) {
			throw errno('EISDIR', 'rm', path);
		}
		if (target === '') throw errno('EPERM', 'rm', path);
		for (const removed of [...this.descendantsOf(target).reverse(), target]) {
			this.nodes.delete(removed);
			this.announce('rename', removed);
		}
	}

	async rename(oldPath: string, newPath: string): Promise<void> {
		const source = this.resolve(oldPath, 'rename');
		const destination = this.resolve(newPath, 'rename');
		const node = this.nodes.get(source);
		if (!node) throw errno('ENOENT', 'rename', oldPath);
		if (this.nodes.get(parentOf(destination))?.kind !== 'directory') {
			throw errno('ENOENT', 'rename', newPath);
		}
		if (destination === source) return;
		if (destination.startsWith(`${source}/`)) throw errno('EINVAL', 'rename', newPath);
		const existing = this.nodes.get(destination);
		if (existing?.kind === 'directory') {
			if (node.kind === 'file') throw errno('EISDIR', 'rename', newPath);
			if (this.childrenOf(destination).length > 0) throw errno('ENOTEMPTY', 'rename', newPath);
		}
		if (existing?.kind === 'file' && node.kind === 'directory') {
			throw errno('ENOTDIR', 'rename', newPath);
		}
		const moved = [source, ...this.descendantsOf(source)];
		const entries = moved.map((path) => [path, this.nodes.get(path) as FakeNode] as const);
		for (const path of moved) this.nodes.delete(path);
		for (const [path, entry] of entries) {
			this.nodes.set(destination + path.slice(source.length), entry);
		}
		this.announce('rename', source);
		this.announce('rename', destination);
	}

	watch(path: string, options: { recursive?: boolean }, listener: FSWatchCallback): IFSWatcher {
		const watcher: Watcher = {
			root: this.resolve(path, 'watch'),
			recursive: options?.recursive === true,
			listener,
			closed: false
		};
		this.watchers.add(watcher);
		return {
			close: () => {
				watcher.closed = true;
				this.watchers.delete(watcher);
			}
		};
	}

	/** Test helper: the file's text, or null when missing. */
	text(path: string): string | null {
		const node = this.nodes.get(path);
		return node?.kind === 'file' ? new TextDecoder().decode(node.bytes) : null;
	}

	/** Number of open watchers (the adapter must close its own). */
	get openWatchers(): number {
		return this.watchers.size;
	}

	/** Populates the fs from a mounted tree (the library's `mount`). */
	load(tree: FileSystemTree, folder = ''): void {
		for (const [name, entry] of Object.entries(tree)) {
			const path = folder === '' ? name : `${folder}/${name}`;
			if ('directory' in entry) {
				this.nodes.set(path, { kind: 'directory' });
				this.load(entry.directory, path);
			} else if ('contents' in entry.file) {
				const contents = entry.file.contents;
				const bytes =
					typeof contents === 'string' ? this.encoder.encode(contents) : contents.slice();
				this.nodes.set(path, { kind: 'file', bytes });
			}
		}
	}

	close(): void {
		this.tornDown = true;
		for (const watcher of this.watchers) watcher.closed = true;
		this.watchers.clear();
	}

	private announce(event: 'rename' | 'change', path: string): void {
		for (const watcher of [...this.watchers]) {
			const relative = relativeTo(watcher.root, path);
			if (relative === null || (!watcher.recursive && relative.includes('/'))) continue;
			// The library delivers events through postMessage: after the operation has resolved.
			setTimeout(() => {
				if (!watcher.closed) watcher.listener(event, relative);
			}, 0);
		}
	}

	private childrenOf(folder: string): string[] {
		return [...this.nodes.keys()].filter(
			(path) => path !== '' && path !== folder && parentOf(path) === folder
		);
	}

	private descendantsOf(folder: string): string[] {
		const prefix = folder === '' ? '' : `${folder}/`;
		return [...this.nodes.keys()].filter((path) => path !== folder && path.startsWith(prefix));
	}

	/** Container path (relative, '/'-rooted or under workdir) → workspace-relative path. */
	private resolve(path: string, operation: string): string {
		if (this.tornDown) throw new Error('Proxy has been released and is not useable');
		let name = path;
		if (name === this.workdir || name.startsWith(`${this.workdir}/`))
			name = name.slice(this.workdir.length);
		const segments: string[] = [];
		for (const segment of name.split('/')) {
			if (segment === '' || segment === '.') continue;
			if (segment === '..') {
				if (segments.length === 0) throw errno('EACCES', operation, path);
				segments.pop();
			} else segments.push(segment);
		}
		return segments.join('/');
	}
}

export interface SpawnRecord {
	command: string;
	args: string[];
	options: SpawnOptions | undefined;
	process: FakeProcess;
}

export class FakeContainer implements ContainerInstance {
	readonly fs: FakeContainerFileSystem;
	readonly workdir: string;
	readonly mounts: FileSystemTree[] = [];
	readonly spawned: SpawnRecord[] = [];
	tornDown = false;
	private readonly serverReady = new Set<ServerReadyListener>();
	private readonly errors = new Set<ErrorListener>();

	constructor(private readonly options: FakeWebContainerOptions) {
		this.workdir = options.workdir ?? '/home/workspace';
		this.fs = new FakeContainerFileSystem(this.workdir);
	}

	async spawn(
		command: string,
		args: string[],
		options?: SpawnOptions
	): Promise<WebContainerProcess> {
		if (this.tornDown) throw new Error('Proxy has been released and is not useable');
		const process = new FakeProcess(this.options.ignoreKill === true);
		this.spawned.push({ command, args, options, process });
		const cwd = options?.cwd ?? '';
		if (command === 'jsh' && args[0] === '-c' && typeof args[1] === 'string') {
			const context: FakeShellContext = {
				script: args[1],
				cwd,
				env: options?.env ?? {},
				fs: this.fs,
				write: (text) => process.print(text),
				signal: process.killSignal
			};
			const shell = this.options.shell ?? runFakeScript;
			void Promise.resolve()
				.then(() => shell(context))
				.then(
					(code) => process.finish(code),
					(error: unknown) => {
						process.print(`jsh: ${error instanceof Error ? error.message : String(error)}\n`);
						process.finish(1);
					}
				);
		} else if (command === 'jsh' && args.includes('--osc')) {
			process.print('\u001b]654;interactive\u0007❯ ');
			process.onInput = (data) => {
				process.print(data);
				if (data.includes('exit\r')) process.finish(0);
			};
		} else {
			process.print(`jsh: command not found: ${command}\n`);
			process.finish(127);
		}
		return process;
	}

	async mount(tree: FileSystemTree, _options?: { mountPoint?: string }): Promise<void> {
		if (this.tornDown) throw new Error('Proxy has been released and is not useable');
		if (this.options.mountError) throw this.options.mountError;
		this.mounts.push(tree);
		this.fs.load(tree);
	}

	on(event: 'error', listener: ErrorListener): () => void;
	on(event: 'server-ready', listener: ServerReadyListener): () => void;
	on(event: 'error' | 'server-ready', listener: ErrorListener | ServerReadyListener): () => void {
		const set = (event === 'error' ? this.errors : this.serverReady) as Set<typeof listener>;
		set.add(listener);
		return () => set.delete(listener);
	}

	/** Test helper: a dev server became ready. */
	emitServerReady(port: number, url: string): void {
		for (const listener of this.serverReady) listener(port, url);
	}

	/** Test helper: the container reported an internal error. */
	emitError(message: string): void {
		for (const listener of this.errors) listener({ message });
	}

	teardown(): void {
		if (this.tornDown) throw new Error('WebContainer already torn down');
		this.tornDown = true;
		this.fs.close();
		for (const { process } of this.spawned) process.kill();
	}
}

export class FakeProcess implements WebContainerProcess {
	readonly output: ReadableStream<string>;
	readonly input: WritableStream<string>;
	readonly exit: Promise<number>;
	readonly inputs: string[] = [];
	readonly resizes: { cols: number; rows: number }[] = [];
	killed = false;
	onInput: ((data: string) => void) | undefined;
	private readonly killController = new AbortController();
	private outputController: ReadableStreamDefaultController<string> | undefined;
	private resolveExit: (code: number) => void = () => {};
	private exited = false;

	constructor(private readonly ignoreKill: boolean) {
		this.output = new ReadableStream<string>({
			start: (controller) => {
				this.outputController = controller;
			}
		});
		this.input = new WritableStream<string>({
			write: (data) => {
				this.inputs.push(data);
				this.onInput?.(data);
			}
		});
		this.exit = new Promise((resolve) => (this.resolveExit = resolve));
	}

	get killSignal(): AbortSignal {
		return this.killController.signal;
	}

	/** Writes to the terminal as a pseudo-terminal would: LF becomes CRLF. */
	print(text: string): void {
		if (this.exited || text === '') return;
		this.outputController?.enqueue(text.replace(/\r?\n/g, '\r\n'));
	}

	finish(code: number): void {
		if (this.exited) return;
		this.exited = true;
		try {
			this.outputController?.close();
		} catch {
			// Already cancelled by the reader.
		}
		this.resolveExit(code);
	}

	kill(): void {
		this.killed = true;
		this.killController.abort();
		if (!this.ignoreKill) this.finish(143);
	}

	resize(dimensions: { cols: number; rows: number }): void {
		this.resizes.push(dimensions);
	}
}

// --- the tiny `jsh -c` interpreter ---

async function runFakeScript(context: FakeShellContext): Promise<number> {
	let status = 0;
	for (const { operator, command } of splitScript(context.script)) {
		if (operator === '&&' && status !== 0) continue;
		if (operator === '||' && status === 0) continue;
		if (context.signal.aborted) return 130;
		const outcome = await runFakeCommand(command, context);
		if (typeof outcome === 'object') return outcome.exit;
		status = outcome;
	}
	return status;
}

function splitScript(script: string): { operator: ';' | '&&' | '||'; command: string }[] {
	const parts: { operator: ';' | '&&' | '||'; command: string }[] = [];
	let operator: ';' | '&&' | '||' = ';';
	let current = '';
	let quote: string | null = null;
	for (let index = 0; index < script.length; index += 1) {
		const character = script[index] as string;
		if (quote) {
			if (character === quote) quote = null;
			current += character;
			continue;
		}
		if (character === '"' || character === "'") {
			quote = character;
			current += character;
			continue;
		}
		const pair = script.slice(index, index + 2);
		if (character === ';' || pair === '&&' || pair === '||') {
			parts.push({ operator, command: current.trim() });
			operator = character === ';' ? ';' : (pair as '&&' | '||');
			current = '';
			if (character !== ';') index += 1;
			continue;
		}
		current += character;
	}
	parts.push({ operator, command: current.trim() });
	return parts.filter((part) => part.command !== '');
}

function words(command: string): string[] {
	const found: string[] = [];
	const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g;
	for (const match of command.matchAll(pattern)) found.push(match[1] ?? match[2] ?? match[3] ?? '');
	return found;
}

async function runFakeCommand(
	command: string,
	context: FakeShellContext
): Promise<number | { exit: number }> {
	const at = (path: string) => joinPath(context.cwd, path);
	let redirect: { path: string; append: boolean } | undefined;
	let toError = false;
	let parts = words(command);
	const redirectIndex = parts.findIndex((part) => part === '>' || part === '>>');
	if (redirectIndex !== -1) {
		redirect = { path: parts[redirectIndex + 1] ?? '', append: parts[redirectIndex] === '>>' };
		parts = parts.slice(0, redirectIndex);
	}
	if (parts.at(-1) === '>&2') {
		toError = true;
		parts = parts.slice(0, -1);
	}
	const [name, ...args] = parts;
	const fail = (message: string, code = 1) => {
		context.write(`${name}: ${message}\n`);
		return code;
	};
	try {
		switch (name) {
			case 'echo': {
				const text = `${args.join(' ')}\n`;
				if (!redirect || toError) {
					context.write(text);
					return 0;
				}
				const target = at(redirect.path);
				const previous = redirect.append
					? await context.fs.readFile(target).catch(() => null)
					: null;
				const bytes = new TextEncoder().encode(text);
				await context.fs.writeFile(target, previous ? concat(previous, bytes) : bytes);
				return 0;
			}
			case 'cat':
				for (const path of args)
					context.write(new TextDecoder().decode(await context.fs.readFile(at(path))));
				return 0;
			case 'ls': {
				const entries = await context.fs.readdir(at(args[0] ?? '.'), { withFileTypes: true });
				const names = entries.map((entry) => entry.name).sort();
				if (names.length > 0) context.write(`${names.join('\n')}\n`);
				return 0;
			}
			case 'touch':
				for (const path of args) {
					const existing = await context.fs.readFile(at(path)).catch(() => null);
					await context.fs.writeFile(at(path), existing ?? new Uint8Array());
				}
				return 0;
			case 'rm': {
				const recursive = args.some((arg) => /^-[a-z]*r/.test(arg));
				for (const path of args.filter((arg) => !arg.startsWith('-'))) {
					await context.fs.rm(at(path), { recursive });
				}
				return 0;
			}
			case 'mv':
				await context.fs.rename(at(args[0] ?? ''), at(args[1] ?? ''));
				return 0;
			case 'mkdir': {
				const recursive = args.includes('-p');
				for (const path of args.filter((arg) => arg !== '-p')) {
					if (recursive) await context.fs.mkdir(at(path), { recursive: true });
					else await context.fs.mkdir(at(path));
				}
				return 0;
			}
			case 'sleep':
				await new Promise<void>((resolve) => {
					const timer = setTimeout(resolve, Number(args[0] ?? 0) * 1000);
					context.signal.addEventListener('abort', () => {
						clearTimeout(timer);
						resolve();
					});
				});
				return context.signal.aborted ? { exit: 130 } : 0;
			case 'true':
				return 0;
			case 'false':
				return 1;
			case 'exit':
				return { exit: Number(args[0] ?? 0) };
			default:
				context.write(`jsh: command not found: ${name}\n`);
				return 127;
		}
	} catch (error) {
		return fail(error instanceof Error ? error.message : String(error));
	}
}

function joinPath(cwd: string, path: string): string {
	if (path.startsWith('/')) return path;
	return cwd === '' || cwd === '.' ? path : `${cwd}/${path}`;
}

function concat(left: Uint8Array, right: Uint8Array): Uint8Array {
	const joined = new Uint8Array(left.byteLength + right.byteLength);
	joined.set(left, 0);
	joined.set(right, left.byteLength);
	return joined;
}

function parentOf(path: string): string {
	const slash = path.lastIndexOf('/');
	return slash === -1 ? '' : path.slice(0, slash);
}

function relativeTo(root: string, path: string): string | null {
	if (root === '') return path;
	if (path === root) return '';
	return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : null;
}

const errnoText: Record<string, string> = {
	ENOENT: 'no such file or directory',
	EEXIST: 'file already exists',
	ENOTDIR: 'not a directory',
	EISDIR: 'illegal operation on a directory',
	ENOTEMPTY: 'directory not empty',
	EINVAL: 'invalid argument',
	EPERM: 'operation not permitted',
	EACCES: 'permission denied'
};

function errno(code: string, operation: string, path: string): Error {
	return new Error(`${code}: ${errnoText[code] ?? 'error'}, ${operation} '${path}'`);
}
