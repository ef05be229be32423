import type { Command } from 'just-bash';

/**
 * `tsc`: the TypeScript compiler (~3 MB of JavaScript) is not loaded into the offline sandbox.
 * Said plainly, with what to use instead; node and tsx run TypeScript without it.
 */
export const tscUnavailableMessage =
	'tsc is not available in the offline sandbox (the TypeScript compiler is not loaded here). Type errors show in the editor as you type; node file.ts and tsx run TypeScript without type-checking; for tsc --noEmit use the WebContainer sandbox.';

export function createTscCommand(): Command {
	return {
		name: 'tsc',
		trusted: true,
		execute: async (args) => {
			if (args[0] === '--version' || args[0] === '-v') {
				return { stdout: '', stderr: `${tscUnavailableMessage}\n`, exitCode: 1 };
			}
			return { stdout: '', stderr: `${tscUnavailableMessage}\n`, exitCode: 1 };
		}
	};
}
