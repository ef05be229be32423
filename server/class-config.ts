import { resolve } from 'node:path';
import { defaultClassMaxBodyBytes, parseByteSize } from './body-size-limit.js';

export { parseByteSize };

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
	/** Failed joins and failed authentications per second from one address, and at once. */
	addressRatePerSecond: number;
	addressBurst: number;
	/** Successful joins per second for the class (per app instance), and at once. */
	joinRatePerSecond: number;
	joinBurst: number;
	/** Storage quotas (server/storage/storage-quota.ts): bytes and ledgers per learner, bytes per class. */
	learnerMaxBytes: number;
	learnerMaxLedgers: number;
	classMaxBytes: number;
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
	maxBodyBytes: defaultClassMaxBodyBytes,
	maxEventsPerBatch: 2000,
	learnerRatePerSecond: 50,
	learnerBurst: 200,
	classRatePerSecond: 5000,
	classBurst: 10_000,
	addressRatePerSecond: 1,
	addressBurst: 30,
	// A whole classroom joins in its first minute (often behind one address): 500 at once, then
	// 5 a second. Each join is a new learner with quotas of its own; the class quota bounds them all.
	joinRatePerSecond: 5,
	joinBurst: 500,
	// 64 MiB is ~100,000 events of ~600 bytes (the size of a real event's line): far beyond a
	// course's sessions, and 64 learners' worth of it fills the class quota. 50 ledgers: every
	// "Reset scenario" and "Import zip" starts one, so a course of ten scenarios reset a few times
	// each fits. 4 GiB: a class of 200 at a typical few MB each, with room, on a small server's
	// disk (PostgreSQL stores the rows and their index in about twice the line bytes).
	learnerMaxBytes: 64 * 1024 * 1024,
	learnerMaxLedgers: 50,
	classMaxBytes: 4 * 1024 * 1024 * 1024
};

/** Bytes in words for people: "4 MiB", "512 KiB", "1.5 GiB", "900 bytes". */
export function bytesInWords(bytes: number): string {
	if (!Number.isFinite(bytes)) return 'no limit';
	for (const [unit, size] of [
		['GiB', 1024 ** 3],
		['MiB', 1024 ** 2],
		['KiB', 1024]
	] as const) {
		if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
	}
	return `${bytes} bytes`;
}

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
	const bytes = (name: string, fallback: number) => {
		const text = read(name);
		if (text === null) return fallback;
		const value = parseByteSize(text);
		if (!Number.isFinite(value) || value <= 0) {
			throw new Error(
				`${name} must be a positive number of bytes (e.g. 67108864, 64M or 4G), got "${text}"`
			);
		}
		return value;
	};
	const learnerRate = number(
		'THREADLINE_CLASS_LEARNER_RATE',
		defaultClassLimits.learnerRatePerSecond
	);
	const learnerMaxBytes = bytes(
		'THREADLINE_CLASS_LEARNER_MAX_BYTES',
		defaultClassLimits.learnerMaxBytes
	);
	const classMaxBytes = bytes(
		'THREADLINE_CLASS_MAX_STORED_BYTES',
		defaultClassLimits.classMaxBytes
	);
	if (learnerMaxBytes >= classMaxBytes) {
		throw new Error(
			`THREADLINE_CLASS_LEARNER_MAX_BYTES (${bytesInWords(learnerMaxBytes)}) must be below THREADLINE_CLASS_MAX_STORED_BYTES (${bytesInWords(classMaxBytes)}): otherwise one learner could fill the class's storage and stop everyone's appends`
		);
	}
	const learnerMaxLedgers = number(
		'THREADLINE_CLASS_LEARNER_MAX_LEDGERS',
		defaultClassLimits.learnerMaxLedgers
	);
	if (!Number.isInteger(learnerMaxLedgers)) {
		throw new Error('THREADLINE_CLASS_LEARNER_MAX_LEDGERS must be a whole number');
	}
	const joinRate = number('THREADLINE_CLASS_JOIN_RATE', defaultClassLimits.joinRatePerSecond);
	const classRate = number('THREADLINE_CLASS_RATE', defaultClassLimits.classRatePerSecond);
	return {
		classCode,
		instructorToken,
		classId: read('THREADLINE_CLASS_ID'),
		databaseUrl,
		dataDirectory: resolve(read('THREADLINE_DATA_DIR') ?? './data'),
		limits: {
			...defaultClassLimits,
			maxBodyBytes: effectiveMaxBodyBytes(
				bytes('THREADLINE_CLASS_MAX_BODY_BYTES', defaultClassLimits.maxBodyBytes),
				environment.BODY_SIZE_LIMIT
			),
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
			),
			joinRatePerSecond: joinRate,
			joinBurst: Math.max(defaultClassLimits.joinBurst, joinRate * 60),
			learnerMaxBytes,
			learnerMaxLedgers,
			classMaxBytes
		}
	};
}

/**
 * The largest class request body that reaches the class API: THREADLINE_CLASS_MAX_BODY_BYTES, or
 * adapter-node's BODY_SIZE_LIMIT when that is lower (adapter-node refuses a larger body before
 * the route reads it). server.js raises an unset BODY_SIZE_LIMIT to the class limit; one set
 * lower on purpose wins, and the server advertises that (GET /api/class/key) so the IDE's
 * batches fit.
 */
function effectiveMaxBodyBytes(classLimit: number, bodySizeLimit: string | undefined): number {
	if (bodySizeLimit === undefined || bodySizeLimit.trim() === '') return classLimit;
	const adapterLimit = parseByteSize(bodySizeLimit);
	if (Number.isNaN(adapterLimit) || adapterLimit <= 0) {
		throw new Error(
			`BODY_SIZE_LIMIT must be a positive number of bytes (e.g. 4M) or Infinity, got "${bodySizeLimit}"`
		);
	}
	return Math.min(classLimit, adapterLimit);
}
