import { decodeText } from '../../hashing/text-encoding.js';
import type { SandboxFileSystem } from '../sandbox-ports.js';

/** Larger files are not read whole into the model's context. */
export const maximumReadableBytes = 1_000_000;

export type TextFileRead =
	| { kind: 'text'; text: string; bytes: Uint8Array }
	| { kind: 'missing' }
	| { kind: 'directory' }
	| { kind: 'binary'; bytes: Uint8Array }
	| { kind: 'too-large'; size: number };

export async function readTextFile(fs: SandboxFileSystem, path: string): Promise<TextFileRead> {
	const stat = await fs.stat(path);
	if (!stat) return { kind: 'missing' };
	if (stat.kind === 'directory') return { kind: 'directory' };
	if (stat.size > maximumReadableBytes) return { kind: 'too-large', size: stat.size };
	const bytes = await fs.readFile(path);
	const decoded = decodeText(bytes);
	return decoded.ok ? { kind: 'text', text: decoded.text, bytes } : { kind: 'binary', bytes };
}

export async function readBytesOrNull(
	fs: SandboxFileSystem,
	path: string
): Promise<Uint8Array | null> {
	const stat = await fs.stat(path);
	if (!stat || stat.kind !== 'file') return null;
	return fs.readFile(path);
}
