import { afterAll, beforeAll, describe, it } from 'vitest';
import { classApiSuite } from './testing/class-api-suite.js';
import { classLimitsSuite } from './testing/class-limits-suite.js';
import {
	postgresBinaries,
	startPostgresCluster,
	type PostgresCluster
} from './testing/postgres-cluster.js';

const binaries = postgresBinaries();

if (!binaries) {
	console.warn(
		'\n!!!!!!!! SKIPPED: class API on PostgreSQL — no PostgreSQL binaries here (apt-get install postgresql; .ci/run installs it) !!!!!!!!\n'
	);
	describe.skip('class API on a real PostgreSQL server', () => {
		it('needs the postgresql package', () => {});
	});
} else {
	describe('class API on a real PostgreSQL server (started by the test)', () => {
		let cluster: PostgresCluster;
		beforeAll(async () => {
			cluster = await startPostgresCluster();
		}, 120_000);
		afterAll(() => cluster?.stop());
		classApiSuite(() => cluster.url);
		classLimitsSuite(() => cluster.url);
	});
}
