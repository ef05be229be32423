import { resolve } from 'node:path';

export interface ClassLimits {
	/** Largest request body, in bytes. */
	maxBodyBytes: number;
	/** Most events in one append. */
	maxEventsPerBatch: number;
	/** Requests per second one learner may make (sustained), and at once. */
	learnerRatePerSecond: number;
	learnerBurst: number;
	/** Requests per second the whole class may make (per app instance), and at once. */
	classRatePerSecond: number;
	classBurst: number;
	/** Joins and failed authentications per second from one address, and at once. */
	addressRatePerSecond: number;
	addressBurst: number;
}

export interface ClassConfig {
	/** What learners type to join. */
	classCode: string;
	instructorToken: string;
	/** Shown to learners and signed into nothing: a label. Stored at first start when not set. */
	classId: string | null;
	/** postgres://… selects PostgreSQL; null keeps the embedded database in `dataDirectory`. */
	databaseUrl: string | null;
	/** The embedded database and the signing key. */
	dataDirectory: string;
	limits: ClassLimits;
}

export const defaultClassLimits: ClassLimits = {
	maxBodyBytes: 4 * 1024 * 1024,
	maxEventsPerBatch: 2000,
	learnerRatePerSecond: 50,
	learnerBurst: 200,
	classRatePerSecond: 5000,
	classBurst: 10_000,
	addressRatePerSecond: 1,
	addressBurst: 30
};

type Environment = Record<string, string | undefined>;

/**
 * Class mode's settings from the environment, or null when class mode is off (it is on only when
 * both THREADLINE_CLASS_CODE and THREADLINE_INSTRUCTOR_TOKEN are set). Throws a sentence for a
 * setting that is present but unusable, so the server refuses to start half-configured.
 */
export function classConfigFromEnvironment(environment: Environment): ClassConfig | null {
	const read = (name: string) => environment[name]?.trim() || null;
	const classCode = read('THREADLINE_CLASS_CODE');
	const instructorToken = read('THREADLINE_INSTRUCTOR_TOKEN');
	if (!classCode && !instructorToken) return null;
	if (!classCode || !instructorToken) {
		throw new Error(
			`class mode needs both THREADLINE_CLASS_CODE and THREADLINE_INSTRUCTOR_TOKEN; only ${classCode ? 'THREADLINE_CLASS_CODE' : 'THREADLINE_INSTRUCTOR_TOKEN'} is set (run \`node bin/threadline.js class init\` to make both)`
		);
	}
	if (classCode.length < 8) {
		throw new Error('THREADLINE_CLASS_CODE must be at least 8 characters');
	}
	if (instructorToken.length < 24) {
		throw new Error('THREADLINE_INSTRUCTOR_TOKEN must be at least 24 characters');
	}
	if (classCode === instructorToken) {
		throw new Error('THREADLINE_CLASS_CODE and THREADLINE_INSTRUCTOR_TOKEN must differ');
	}
	const databaseUrl = read('DATABASE_URL');
	if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
		throw new Error('DATABASE_URL must be a postgres:// or postgresql:// URL');
	}
	const number = (name: string, fallback: number) => {
		const text = read(name);
		if (text === null) return fallback;
		const value = Number(text);
		if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
		return value;
	};
	const learnerRate = number(
		'THREADLINE_CLASS_LEARNER_RATE',
		defaultClassLimits.learnerRatePerSecond
	);
	const classRate = number('THREADLINE_CLASS_RATE', defaultClassLimits.classRatePerSecond);
	return {
		classCode,
		instructorToken,
		classId: read('THREADLINE_CLASS_ID'),
		databaseUrl,
		dataDirectory: resolve(read('THREADLINE_DATA_DIR') ?? './data'),
		limits: {
			...defaultClassLimits,
			maxBodyBytes: number('THREADLINE_CLASS_MAX_BODY_BYTES', defaultClassLimits.maxBodyBytes),
			learnerRatePerSecond: learnerRate,
			learnerBurst: Math.max(defaultClassLimits.learnerBurst, learnerRate * 4),
			classRatePerSecond: classRate,
			classBurst: Math.max(defaultClassLimits.classBurst, classRate * 2),
			addressRatePerSecond: number(
				'THREADLINE_CLASS_ADDRESS_RATE',
				defaultClassLimits.addressRatePerSecond
			),
			addressBurst: Math.max(
				defaultClassLimits.addressBurst,
				number('THREADLINE_CLASS_ADDRESS_RATE', defaultClassLimits.addressRatePerSecond) * 30
			)
		}
	};
}
