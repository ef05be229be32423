import type { IFileSystem } from 'just-bash';
import type { JustBashModule } from './load-just-bash.js';

/** Bytes the shell may keep outside the workspace (/tmp), so a runaway command cannot eat memory. */
const shellBaseMaxBytes = 64 * 1024 * 1024;

const discardingDevices = new Set(['/dev/null']);

/**
 * The in-memory root the workspace is mounted into: /bin and /usr/bin stubs (for `which`, `ls /bin`),
 * /tmp, and /dev. just-bash only builds this layout itself for its default filesystem; without it
 * `> /dev/null` would create a file, or fail.
 */
export function createShellBaseLayout(
	justBash: JustBashModule,
	commandNames: readonly string[]
): IFileSystem {
	// Writes to /dev/null must vanish rather than accumulate in memory.
	class ShellBaseFileSystem extends justBash.InMemoryFs {
		override async writeFile(...parameters: Parameters<IFileSystem['writeFile']>): Promise<void> {
			if (discardingDevices.has(parameters[0])) return;
			return super.writeFile(...parameters);
		}

		override async appendFile(...parameters: Parameters<IFileSystem['appendFile']>): Promise<void> {
			if (discardingDevices.has(parameters[0])) return;
			return super.appendFile(...parameters);
		}
	}

	const base = new ShellBaseFileSystem(undefined, { maxTotalBytes: shellBaseMaxBytes });
	for (const folder of ['/bin', '/usr/bin', '/tmp', '/dev', '/dev/fd']) {
		base.mkdirSync(folder, { recursive: true });
	}
	for (const device of ['/dev/null', '/dev/zero', '/dev/stdin', '/dev/stdout', '/dev/stderr']) {
		base.writeFileSync(device, '');
	}
	for (const name of commandNames) {
		const stub = `#!/bin/bash\n# Built-in command: ${name}\n`;
		base.writeFileSync(`/bin/${name}`, stub);
		base.writeFileSync(`/usr/bin/${name}`, stub);
	}
	return base;
}
