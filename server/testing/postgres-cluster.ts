import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, chownSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where Debian's PostgreSQL keeps initdb and pg_ctl (THREADLINE_PG_BIN overrides). */
export function postgresBinaries(): string | null {
	const candidates = [
		process.env.THREADLINE_PG_BIN,
		'/usr/lib/postgresql/17/bin',
		'/usr/lib/postgresql/16/bin',
		'/usr/lib/postgresql/15/bin'
	];
	for (const folder of candidates) {
		if (folder && existsSync(join(folder, 'initdb')) && existsSync(join(folder, 'pg_ctl'))) {
			return folder;
		}
	}
	return null;
}

export interface PostgresCluster {
	url: string;
	port: number;
	stop(): void;
}

async function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

/**
 * A throwaway PostgreSQL server for tests and the bench: a cluster in a temp folder, on a free
 * loopback port, stopped by its own pid. PostgreSQL refuses to run as root, so as root the
 * cluster belongs to the `postgres` user and runs through runuser.
 */
export async function startPostgresCluster(): Promise<PostgresCluster> {
	const binaries = postgresBinaries();
	if (!binaries) throw new Error('PostgreSQL binaries not found (apt-get install postgresql)');
	const folder = mkdtempSync(join(tmpdir(), 'threadline-pg-'));
	const dataFolder = join(folder, 'data');
	const asRoot = process.getuid?.() === 0;
	const run = (command: string, args: string[]) => {
		const [file, fullArgs] = asRoot
			? ['runuser', ['-u', 'postgres', '--', join(binaries, command), ...args]]
			: [join(binaries, command), args];
		const result = spawnSync(file, fullArgs, { encoding: 'utf8', timeout: 120_000 });
		if (result.status !== 0) {
			throw new Error(`${command} failed: ${result.stderr || result.stdout || result.error}`);
		}
	};
	if (asRoot) {
		const ids = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim();
		const groupId = execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim();
		chownSync(folder, Number(ids), Number(groupId));
	}
	run('initdb', ['-D', dataFolder, '-U', 'threadline', '--auth=trust', '-E', 'UTF8', '--no-sync']);
	const port = await freePort();
	run('pg_ctl', [
		'-D',
		dataFolder,
		'-l',
		join(folder, 'log'),
		'-w',
		'-o',
		`-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`,
		'start'
	]);
	const pid = Number(readFileSync(join(dataFolder, 'postmaster.pid'), 'utf8').split('\n')[0]);
	return {
		url: `postgres://threadline@127.0.0.1:${port}/postgres`,
		port,
		stop() {
			try {
				// Fast shutdown by the server's own pid; then wait until it is gone.
				process.kill(pid, 'SIGINT');
				for (let tries = 0; tries < 200; tries++) {
					try {
						process.kill(pid, 0);
					} catch {
						break;
					}
					spawnSync('sleep', ['0.05']);
				}
			} catch {
				// already stopped
			}
			rmSync(folder, { recursive: true, force: true });
		}
	};
}
