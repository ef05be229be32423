import { describe } from 'vitest';
import { classApiSuite } from './testing/class-api-suite.js';
import { classLimitsSuite } from './testing/class-limits-suite.js';

describe('class API on the embedded database (PGlite in a data folder)', () => {
	classApiSuite(() => null);
	classLimitsSuite(() => null);
});
