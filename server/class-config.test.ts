import { describe, expect, it } from 'vitest';
import { bytesInWords, classConfigFromEnvironment, defaultClassLimits } from './class-config.js';

const code = 'K7QM-RX4P-9HTW-CN2E';
const token = 'tl_instructor_0123456789abcdefghijklmnop';

describe('classConfigFromEnvironment', () => {
	it('is off unless both the class code and the instructor token are set', () => {
		expect(classConfigFromEnvironment({})).toBeNull();
		expect(() => classConfigFromEnvironment({ THREADLINE_CLASS_CODE: code })).toThrow(/both/);
		expect(() => classConfigFromEnvironment({ THREADLINE_INSTRUCTOR_TOKEN: token })).toThrow(
			/both/
		);
	});

	it('selects PostgreSQL with DATABASE_URL, else the embedded database in THREADLINE_DATA_DIR', () => {
		const embedded = classConfigFromEnvironment({
			THREADLINE_CLASS_CODE: code,
			THREADLINE_INSTRUCTOR_TOKEN: token
		});
		expect(embedded?.databaseUrl).toBeNull();
		expect(embedded?.dataDirectory).toMatch(/\/data$/);
		const postgres = classConfigFromEnvironment({
			THREADLINE_CLASS_CODE: code,
			THREADLINE_INSTRUCTOR_TOKEN: token,
			DATABASE_URL: 'postgres://u@127.0.0.1:5432/db',
			THREADLINE_DATA_DIR: '/srv/class'
		});
		expect(postgres?.databaseUrl).toBe('postgres://u@127.0.0.1:5432/db');
		expect(postgres?.dataDirectory).toBe('/srv/class');
	});

	it('refuses weak or confusing settings', () => {
		const base = { THREADLINE_CLASS_CODE: code, THREADLINE_INSTRUCTOR_TOKEN: token };
		expect(() => classConfigFromEnvironment({ ...base, THREADLINE_CLASS_CODE: 'short' })).toThrow(
			/8 characters/
		);
		expect(() =>
			classConfigFromEnvironment({ ...base, THREADLINE_INSTRUCTOR_TOKEN: 'short-token' })
		).toThrow(/24/);
		expect(() => classConfigFromEnvironment({ ...base, THREADLINE_CLASS_CODE: token })).toThrow(
			/differ/
		);
		expect(() => classConfigFromEnvironment({ ...base, DATABASE_URL: 'mysql://x' })).toThrow(
			/postgres/
		);
		expect(() => classConfigFromEnvironment({ ...base, THREADLINE_CLASS_RATE: '-1' })).toThrow(
			/positive/
		);
	});

	it('reads storage quotas and the join rate, in bytes or with K/M/G, with documented defaults', () => {
		const base = { THREADLINE_CLASS_CODE: code, THREADLINE_INSTRUCTOR_TOKEN: token };
		expect(classConfigFromEnvironment(base)?.limits).toMatchObject({
			learnerMaxBytes: 64 * 1024 * 1024,
			learnerMaxLedgers: 50,
			classMaxBytes: 4 * 1024 ** 3,
			joinRatePerSecond: 5,
			joinBurst: 500
		});
		const limits = classConfigFromEnvironment({
			...base,
			THREADLINE_CLASS_LEARNER_MAX_BYTES: '128M',
			THREADLINE_CLASS_LEARNER_MAX_LEDGERS: '200',
			THREADLINE_CLASS_MAX_STORED_BYTES: '20G',
			THREADLINE_CLASS_JOIN_RATE: '20'
		})?.limits;
		expect(limits).toMatchObject({
			learnerMaxBytes: 128 * 1024 * 1024,
			learnerMaxLedgers: 200,
			classMaxBytes: 20 * 1024 ** 3,
			joinRatePerSecond: 20,
			joinBurst: 1200
		});
		expect(defaultClassLimits.learnerMaxBytes).toBeLessThan(defaultClassLimits.classMaxBytes);
		expect(bytesInWords(64 * 1024 * 1024)).toBe('64 MiB');
		expect(bytesInWords(1536)).toBe('1.5 KiB');
	});

	it('refuses quotas it cannot use, naming the setting', () => {
		const base = { THREADLINE_CLASS_CODE: code, THREADLINE_INSTRUCTOR_TOKEN: token };
		for (const [name, value] of [
			['THREADLINE_CLASS_LEARNER_MAX_BYTES', 'lots'],
			['THREADLINE_CLASS_LEARNER_MAX_BYTES', '-5M'],
			['THREADLINE_CLASS_MAX_STORED_BYTES', '0'],
			['THREADLINE_CLASS_LEARNER_MAX_LEDGERS', '2.5'],
			['THREADLINE_CLASS_JOIN_RATE', 'fast'],
			['BODY_SIZE_LIMIT', 'big']
		] as const) {
			expect(() => classConfigFromEnvironment({ ...base, [name]: value }), name).toThrow(name);
		}
		expect(() =>
			classConfigFromEnvironment({ ...base, THREADLINE_CLASS_LEARNER_MAX_BYTES: '8G' })
		).toThrow(/must be below THREADLINE_CLASS_MAX_STORED_BYTES.*one learner could fill/);
	});

	it('advertises the lower of THREADLINE_CLASS_MAX_BODY_BYTES and adapter-node’s BODY_SIZE_LIMIT', () => {
		const base = { THREADLINE_CLASS_CODE: code, THREADLINE_INSTRUCTOR_TOKEN: token };
		const limit = (extra: Record<string, string>) =>
			classConfigFromEnvironment({ ...base, ...extra })?.limits.maxBodyBytes;
		expect(limit({})).toBe(4 * 1024 * 1024);
		expect(limit({ BODY_SIZE_LIMIT: '512K' })).toBe(512 * 1024);
		expect(limit({ BODY_SIZE_LIMIT: 'Infinity' })).toBe(4 * 1024 * 1024);
		expect(limit({ BODY_SIZE_LIMIT: '8M', THREADLINE_CLASS_MAX_BODY_BYTES: '6M' })).toBe(
			6 * 1024 * 1024
		);
	});
});
