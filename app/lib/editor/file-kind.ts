/**
 * How a workspace file opens in the editor, decided from its bytes alone: as editable text, as
 * read-only text (too large to edit comfortably), or not as text at all. Binary files never reach
 * Monaco: decoding them would show garbage and, once saved, corrupt them.
 */

import { isUint8Array } from '../../../hooks/hashing/is-uint8-array.js';
import { decodeText } from '../../../hooks/hashing/text-encoding.js';

export type FileKind =
	/** `readOnlyReason` is null when the file can be edited, else a sentence to show as a notice. */
	| { kind: 'text'; text: string; size: number; readOnlyReason: string | null }
	| { kind: 'binary'; size: number; reason: string }
	/** Too large to show at all: the page would freeze decoding and laying it out. */
	| { kind: 'too-large'; size: number; reason: string };

export interface FileKindLimits {
	/** Above this many bytes a text file opens read-only. */
	maximumEditableBytes: number;
	/** Above this many bytes a text file does not open; it can still be downloaded. */
	maximumViewableBytes: number;
}

const megabyte = 1024 * 1024;

export const defaultFileKindLimits: FileKindLimits = {
	maximumEditableBytes: 2 * megabyte,
	maximumViewableBytes: 20 * megabyte
};

// The same probe length as decodeText: Git's heuristic looks for a NUL byte near the start.
const binaryProbeLength = 8 * 1024;

export function fileKind(
	bytes: Uint8Array,
	limits: FileKindLimits = defaultFileKindLimits
): FileKind {
	if (!isUint8Array(bytes)) {
		throw new TypeError('fileKind expects the file as a Uint8Array');
	}
	const { maximumEditableBytes, maximumViewableBytes } = limits;
	if (!(maximumEditableBytes >= 0 && maximumViewableBytes >= maximumEditableBytes)) {
		throw new RangeError(
			`fileKind limits must satisfy 0 ≤ maximumEditableBytes ≤ maximumViewableBytes (got ${maximumEditableBytes} and ${maximumViewableBytes})`
		);
	}
	const size = bytes.byteLength;

	if (size > maximumViewableBytes) {
		// Only the cheap probe: decoding tens of megabytes just to refuse them would stall the page.
		if (bytes.subarray(0, binaryProbeLength).includes(0)) return binary(size);
		return {
			kind: 'too-large',
			size,
			reason: `This file is ${formatSize(size)}, larger than ${formatSize(maximumViewableBytes)}: it is not opened in the editor. Download it to read it.`
		};
	}

	const decoded = decodeText(bytes);
	if (!decoded.ok) return binary(size);
	return {
		kind: 'text',
		text: decoded.text,
		size,
		readOnlyReason:
			size > maximumEditableBytes
				? `This file is larger than ${formatSize(maximumEditableBytes)}: it is shown read-only.`
				: null
	};
}

function binary(size: number): FileKind {
	return {
		kind: 'binary',
		size,
		reason: 'This is a binary file: it cannot be edited as text. Download it to open it elsewhere.'
	};
}

/** Whole megabytes and kilobytes stay whole ("2 MB"), others get one decimal ("2.5 MB"). */
export function formatSize(bytes: number): string {
	if (bytes < 1024) return `${bytes} bytes`;
	const [amount, unit] = bytes < megabyte ? [bytes / 1024, 'KB'] : [bytes / megabyte, 'MB'];
	const rounded = Math.round(amount * 10) / 10;
	return `${Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1)} ${unit}`;
}
