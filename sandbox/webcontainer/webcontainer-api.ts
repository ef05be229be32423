import type {
	BootOptions,
	DirEnt,
	ErrorListener,
	FileSystemTree,
	FSWatchCallback,
	IFSWatcher,
	ServerReadyListener,
	SpawnOptions,
	Unsubscribe,
	WebContainerProcess
} from '@webcontainer/api';

export type {
	BootOptions,
	DirEnt,
	ErrorListener,
	FileSystemTree,
	FSWatchCallback,
	IFSWatcher,
	ServerReadyListener,
	SpawnOptions,
	Unsubscribe,
	WebContainerProcess
} from '@webcontainer/api';

/**
 * The part of @webcontainer/api 1.6.4 this backend uses, as structural types: the real
 * `WebContainer` class has private members, so a test fake could never satisfy the class type
 * itself. `loadWebContainerApi` below proves the real module fits these shapes at compile time.
 */
export interface ContainerFileSystem {
	readFile(path: string): Promise<Uint8Array>;
	writeFile(path: string, data: string | Uint8Array): Promise<void>;
	readdir(path: string, options: { withFileTypes: true }): Promise<DirEnt<string>[]>;
	mkdir(path: string, options?: { recursive?: false }): Promise<void>;
	mkdir(path: string, options: { recursive: true }): Promise<string>;
	rm(path: string, options?: { force?: boolean; recursive?: boolean }): Promise<void>;
	rename(oldPath: string, newPath: string): Promise<void>;
	watch(path: string, options: { recursive?: boolean }, listener: FSWatchCallback): IFSWatcher;
}

export interface ContainerInstance {
	readonly fs: ContainerFileSystem;
	/** Absolute path of the working directory every `fs` path and spawn `cwd` is relative to. */
	readonly workdir: string;
	spawn(command: string, args: string[], options?: SpawnOptions): Promise<WebContainerProcess>;
	mount(tree: FileSystemTree, options?: { mountPoint?: string }): Promise<void>;
	on(event: 'error', listener: ErrorListener): Unsubscribe;
	on(event: 'server-ready', listener: ServerReadyListener): Unsubscribe;
	teardown(): void;
}

/** What `createWebContainerSandbox` needs from the module; tests inject a fake. */
export interface WebContainerApi {
	WebContainer: { boot(options?: BootOptions): Promise<ContainerInstance> };
	configureAPIKey(key: string): void;
}

/**
 * Loads @webcontainer/api on first use: importing it at module top level would put its client
 * in the initial route bundle, and it touches `window` as soon as it boots.
 */
export async function loadWebContainerApi(): Promise<WebContainerApi> {
	const api = await import('@webcontainer/api');
	const fitting: WebContainerApi = api;
	return fitting;
}
