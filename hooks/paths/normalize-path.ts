/**
 * The single path normaliser of the governance core. Every path a tool, a hook or the ledger sees goes
 * through here first, so scope checks, protected-path checks and trace records all agree on one
 * spelling of a file: POSIX, relative to the workspace root, Unicode NFC.
 */
export type NormalizedPathResult = { ok: true; path: string } | { ok: false; reason: string };

export interface NormalizePathOptions {
	/** Accept the workspace root itself, returned as ''. Off by default: most tools need a file. */
	allowRoot?: boolean;
}

// C0 controls, DEL and C1 controls: none of them belong in a file name, and some (NUL, newline)
// are used to smuggle a second path or a second line into logs and shell commands.
// eslint-disable-next-line no-control-regex
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/;
// `C:`, `c:x`: a Windows drive, absolute or drive-relative; either way not inside the workspace.
const driveLetter = /^[A-Za-z]:/;
// `file:///etc/passwd`, `https://…`: a URL is never a workspace path.
const urlScheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

export function normalizeWorkspacePath(
	input: string,
	options: NormalizePathOptions = {}
): NormalizedPathResult {
	if (typeof input !== 'string') {
		return { ok: false, reason: 'The path must be a string.' };
	}
	// NFC first: a path typed on macOS (NFD) and the same path typed elsewhere must compare equal.
	const composed = input.normalize('NFC');
	const control = controlCharacter.exec(composed);
	if (control) {
		const code = control[0].charCodeAt(0).toString(16).padStart(4, '0').toUpperCase();
		return {
			ok: false,
			reason: `The path contains a control character (U+${code}). Use a plain file name without control characters.`
		};
	}
	const slashed = composed.replaceAll('\\', '/');
	if (urlScheme.test(slashed)) {
		return {
			ok: false,
			reason: `${quoted(input)} is a URL, not a file path. Give a path relative to the workspace root, e.g. src/index.ts.`
		};
	}
	if (slashed.startsWith('/') || driveLetter.test(slashed)) {
		return {
			ok: false,
			reason: `${quoted(input)} is an absolute path. Give a path relative to the workspace root, e.g. src/index.ts.`
		};
	}

	const segments: string[] = [];
	const rawSegments = slashed.split('/');
	const rooted = rootedOutsideWorkspace(input, rawSegments[0] ?? '');
	if (rooted) return { ok: false, reason: rooted };
	for (const segment of rawSegments) {
		if (segment === '' || segment === '.') continue;
		if (segment.trim() === '') {
			// Almost always a stray space from the model, and a name no human can see in a file tree.
			return {
				ok: false,
				reason: `${quoted(input)} has a folder or file name that is only whitespace. Remove the stray spaces.`
			};
		}
		if (segment === '..') {
			if (segments.length === 0) {
				return {
					ok: false,
					reason: `${quoted(input)} climbs above the workspace root with "..". Only files inside the workspace can be used.`
				};
			}
			segments.pop();
			continue;
		}
		segments.push(segment);
	}

	// Checked again on the result: `./C:/x` or `a/../~/x` would otherwise come out as a path that a
	// second pass (or a shell) reads as a drive or a home folder.
	const resolvedRooted = rootedOutsideWorkspace(input, segments[0] ?? '');
	if (resolvedRooted) return { ok: false, reason: resolvedRooted };

	const path = segments.join('/');
	if (path === '' && !options.allowRoot) {
		return {
			ok: false,
			reason:
				input === ''
					? 'The path is empty. Give a path relative to the workspace root, e.g. src/index.ts.'
					: `${quoted(input)} names the workspace root, not a file. Give a path relative to the workspace root, e.g. src/index.ts.`
		};
	}
	return { ok: true, path };
}

/** Reasons go back to the model; a huge path must not turn into a huge message. */
function quoted(input: string): string {
	return input.length > 120 ? `"${input.slice(0, 120)}…"` : `"${input}"`;
}

function rootedOutsideWorkspace(input: string, firstSegment: string): string | null {
	if (firstSegment === '~') {
		return `${quoted(input)} points into a home folder. Give a path relative to the workspace root, e.g. src/index.ts.`;
	}
	if (driveLetter.test(firstSegment)) {
		return `${quoted(input)} starts with a Windows drive (${firstSegment.slice(0, 2)}). Give a path relative to the workspace root, e.g. src/index.ts.`;
	}
	return null;
}

/**
 * Whether a normalised `path` is `folder` itself or lies under it. Compares whole segments, so
 * `src/authx` is not within `src/auth`. The root folder ('') contains every path.
 */
export function isWithinFolder(path: string, folder: string): boolean {
	const base = folder.endsWith('/') ? folder.slice(0, -1) : folder;
	if (base === '') return true;
	return (
		path === base ||
		(path.length > base.length && path.startsWith(base) && path[base.length] === '/')
	);
}

/**
 * The strict reading for names that come from outside a session — zip entries, folder exports,
 * scenario files: a name is accepted only when it already is the one spelling the workspace uses
 * (up to Unicode composition), never after folding. `src\db\users.ts`, `./x`, `a//b`, `a/./b`,
 * `../x`, `/etc/x`, `C:\x` and control characters are refused rather than repaired, because a
 * reader that repairs them can be shown one file while another unpacker extracts a different one.
 * NFD is the exception: macOS writes it for names the shell created in NFC, so it is composed (and
 * a second entry that composes to the same name is a duplicate, see `EntryPathSet`).
 */
export function canonicalEntryPath(name: string): NormalizedPathResult {
	if (typeof name !== 'string' || name === '') {
		return { ok: false, reason: 'the entry has an empty name' };
	}
	const control = controlCharacter.exec(name);
	if (control) {
		const code = control[0].charCodeAt(0).toString(16).padStart(4, '0').toUpperCase();
		return { ok: false, reason: `${jsonQuoted(name)} contains a control character (U+${code})` };
	}
	if (name.includes('\\')) {
		return {
			ok: false,
			reason: `${jsonQuoted(name)} contains a backslash, which some tools read as a folder separator`
		};
	}
	if (name.startsWith('/') || driveLetter.test(name) || urlScheme.test(name)) {
		return { ok: false, reason: `${jsonQuoted(name)} is an absolute path` };
	}
	for (const segment of name.split('/')) {
		if (segment === '') {
			return {
				ok: false,
				reason: `${jsonQuoted(name)} has an empty segment ("//" or a trailing "/")`
			};
		}
		if (segment === '.' || segment === '..') {
			return { ok: false, reason: `${jsonQuoted(name)} has a "${segment}" segment` };
		}
	}
	const normalised = normalizeWorkspacePath(name);
	if (!normalised.ok) return normalised;
	// Anything the lenient normaliser would still have changed (beyond NFC) is not canonical.
	if (normalised.path !== name.normalize('NFC')) {
		return { ok: false, reason: `${jsonQuoted(name)} is not in canonical form` };
	}
	return normalised;
}

/**
 * Collects entry names strictly: each must be canonical (`canonicalEntryPath`) and no two may
 * name the same file once composed, so an export cannot hold a decoy and a tampered copy of
 * one path. `add` returns the refusal, naming the entry, or null.
 */
export class EntryPathSet {
	private readonly original = new Map<string, string>();

	add(name: string): { ok: true; path: string } | { ok: false; reason: string } {
		const canonical = canonicalEntryPath(name);
		if (!canonical.ok) return { ok: false, reason: `entry ${canonical.reason}` };
		const earlier = this.original.get(canonical.path);
		if (earlier !== undefined) {
			return {
				ok: false,
				reason:
					earlier === name
						? `entry ${jsonQuoted(name)} appears twice`
						: `entries ${jsonQuoted(earlier)} and ${jsonQuoted(name)} name the same file`
			};
		}
		this.original.set(canonical.path, name);
		return canonical;
	}
}

/** Entry names are untrusted: JSON quoting shows control characters and backslashes plainly. */
function jsonQuoted(name: string): string {
	return name.length > 120
		? `${JSON.stringify(name.slice(0, 120)).slice(0, -1)}…"`
		: JSON.stringify(name);
}
