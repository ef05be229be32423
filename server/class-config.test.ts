import { describe, expect, it } from 'vitest';
import { classConfigFromEnvironment } from './class-config.js';

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
});
