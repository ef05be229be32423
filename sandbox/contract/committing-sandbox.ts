import { commitEveryChange } from '../commit-every-change.js';
import type { Sandbox, ShellSession } from '../sandbox.js';

/**
 * Test support: the sandbox with `commitEveryChange` as the default review of `exec` and of the
 * terminal's lines, for tests about what commands do rather than about governing them (a sandbox
 * on its own commits nothing without a review). An explicit review still wins.
 */
export function committingEverything<Wrapped extends Sandbox>(sandbox: Wrapped): Wrapped {
	return new Proxy(sandbox, {
		get(target, property) {
			if (property === 'exec') {
				return (command: string, options: Parameters<Sandbox['exec']>[1] = {}) =>
					target.exec(command, { review: commitEveryChange, ...options });
			}
			if (property === 'openShell') {
				return async (size: { cols: number; rows: number }) =>
					committingSession(await target.openShell(size));
			}
			const value: unknown = Reflect.get(target, property, target);
			return typeof value === 'function' ? value.bind(target) : value;
		}
	});
}

function committingSession(session: ShellSession): ShellSession {
	if (session.mode !== 'line') return session;
	return new Proxy(session, {
		get(target, property) {
			if (property === 'run') {
				return (line: string, options: Parameters<typeof target.run>[1] = {}) =>
					target.run(line, { review: commitEveryChange, ...options });
			}
			const value: unknown = Reflect.get(target, property, target);
			return typeof value === 'function' ? value.bind(target) : value;
		}
	});
}
