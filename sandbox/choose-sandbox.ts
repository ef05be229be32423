import type { Sandbox, SandboxKind } from './sandbox.js';

/** What the person asked for (`?sandbox=` or a setting); `auto` picks WebContainer when it can. */
export type SandboxRequest = 'auto' | 'local' | 'webcontainer';

export interface SandboxEnvironment {
	/** The raw request; anything but auto, local or webcontainer counts as auto, with a note. */
	requested: SandboxRequest | string | null | undefined;
	/** `globalThis.crossOriginIsolated`: WebContainer needs SharedArrayBuffer. */
	crossOriginIsolated: boolean;
	/** `navigator.onLine`: WebContainer loads its runtime from StackBlitz's servers. */
	online: boolean;
	/** Whether this browser can run WebContainer at all. */
	browserSupported: boolean;
}

export interface SandboxChoice {
	kind: SandboxKind;
	/** A plain sentence for the UI notice, e.g. "Offline sandbox: this page is not cross-origin isolated". */
	reason: string;
	/** The request as understood. */
	requested: SandboxRequest;
	/** Set when the request was not understood (it was read as auto). */
	note?: string;
}

const requests: readonly SandboxRequest[] = ['auto', 'local', 'webcontainer'];

/**
 * Decides which sandbox to start, without starting anything: WebContainer (real Node and npm)
 * when it was asked for or `auto` and the page can run it, else the offline local sandbox, with
 * the reason in words a person can act on.
 */
export function chooseSandbox(environment: SandboxEnvironment): SandboxChoice {
	const { requested, note } = readRequest(environment.requested);
	const withNote = (choice: Omit<SandboxChoice, 'requested' | 'note'>): SandboxChoice =>
		note ? { ...choice, requested, note } : { ...choice, requested };

	if (requested === 'local') {
		return withNote({ kind: 'local', reason: 'Offline sandbox: requested' });
	}
	const obstacle = webContainerObstacle(environment);
	if (requested === 'webcontainer') {
		return obstacle
			? withNote({
					kind: 'local',
					reason: `Offline sandbox: WebContainer was requested, but ${obstacle}`
				})
			: withNote({ kind: 'webcontainer', reason: 'WebContainer requested' });
	}
	return obstacle
		? withNote({ kind: 'local', reason: `Offline sandbox: ${obstacle}` })
		: withNote({ kind: 'webcontainer', reason: 'WebContainer: real Node.js and npm in this page' });
}

function readRequest(raw: unknown): { requested: SandboxRequest; note?: string } {
	if (raw === null || raw === undefined) return { requested: 'auto' };
	if (typeof raw === 'string') {
		const value = raw.trim().toLowerCase();
		if (value === '') return { requested: 'auto' };
		if ((requests as readonly string[]).includes(value))
			return { requested: value as SandboxRequest };
	}
	const shown = typeof raw === 'string' ? JSON.stringify(raw) : String(raw);
	return {
		requested: 'auto',
		note: `Unknown sandbox ${shown} requested; using auto (choose auto, local or webcontainer)`
	};
}

/** Why WebContainer cannot run here, as the end of a sentence; undefined when it can. */
function webContainerObstacle(environment: SandboxEnvironment): string | undefined {
	if (environment.crossOriginIsolated !== true) return 'this page is not cross-origin isolated';
	if (environment.browserSupported !== true) return 'this browser cannot run WebContainer';
	if (environment.online !== true) return 'the browser is offline';
	return undefined;
}

export interface SandboxStarters {
	startWebContainer: () => Promise<Sandbox>;
	startLocal: () => Promise<Sandbox>;
	/** The sentence for the UI notice: why this sandbox runs (and why not WebContainer, if so). */
	onNotice?: (message: string) => void;
	/**
	 * Overall limit for starting WebContainer (boot and mount), beyond its own boot timeout;
	 * 60 s by default. A WebContainer that starts after it is disposed.
	 */
	timeoutMs?: number;
}

export interface StartedSandbox {
	sandbox: Sandbox;
	kind: SandboxKind;
	/** The notice message given to `onNotice`. */
	reason: string;
	/** True when WebContainer was chosen but failed, and the local sandbox runs instead. */
	fellBack: boolean;
}

export const defaultWebContainerStartTimeoutMs = 60_000;

/**
 * Starts the chosen sandbox. A WebContainer that fails or takes too long is replaced by the local
 * sandbox, and the notice says why; only a local sandbox that cannot start either rejects.
 */
export async function startSandbox(
	choice: SandboxChoice,
	starters: SandboxStarters
): Promise<StartedSandbox> {
	const timeoutMs = starters.timeoutMs ?? defaultWebContainerStartTimeoutMs;
	if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
		throw new RangeError(`timeoutMs must be a positive number of milliseconds, got ${timeoutMs}`);
	}
	const announce = (reason: string): string => {
		const message = choice.note ? `${reason}. ${choice.note}` : reason;
		try {
			starters.onNotice?.(message);
		} catch {
			// A broken notice display must not stop the sandbox.
		}
		return message;
	};

	if (choice.kind === 'local') {
		const sandbox = await starters.startLocal();
		return { sandbox, kind: sandbox.kind, reason: announce(choice.reason), fellBack: false };
	}

	let failure: unknown;
	try {
		const sandbox = await startWithin(starters.startWebContainer, timeoutMs);
		return { sandbox, kind: sandbox.kind, reason: announce(choice.reason), fellBack: false };
	} catch (error) {
		failure = error;
	}
	const why = describeError(failure);
	let sandbox: Sandbox;
	try {
		sandbox = await starters.startLocal();
	} catch (localError) {
		throw new Error(
			`The offline sandbox could not start either: ${describeError(localError)} (WebContainer: ${why})`,
			{ cause: localError }
		);
	}
	// WebContainer's own errors already start with its name ("WebContainer did not start within…").
	const reason = announce(
		why.startsWith('WebContainer ')
			? `Offline sandbox: ${why}`
			: `Offline sandbox: WebContainer did not start (${why})`
	);
	return { sandbox, kind: sandbox.kind, reason, fellBack: true };
}

/** Starts a sandbox within the limit; one arriving later is disposed, since nobody will use it. */
async function startWithin(start: () => Promise<Sandbox>, timeoutMs: number): Promise<Sandbox> {
	const starting = Promise.resolve().then(start);
	let timer: ReturnType<typeof setTimeout> | undefined;
	const timedOut = new Promise<'timeout'>((resolve) => {
		timer = setTimeout(() => resolve('timeout'), timeoutMs);
	});
	try {
		const outcome = await Promise.race([starting, timedOut]);
		if (outcome !== 'timeout') return outcome;
	} finally {
		clearTimeout(timer);
	}
	starting.then(
		(late) => late.dispose().catch(() => undefined),
		() => undefined
	);
	throw new Error(
		`WebContainer took longer than ${Number((timeoutMs / 1000).toFixed(2))} s to start`
	);
}

function describeError(error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	return message.trim() === '' ? 'unknown error' : message;
}
