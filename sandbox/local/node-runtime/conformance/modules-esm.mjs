import { double, name } from './lib/math.mjs';
import data from './lib/data.json' with { type: 'json' };
import * as everything from './lib/math.mjs';
import cjs from './lib/legacy.cjs';
import { legacyName } from './lib/legacy.cjs';
console.log(double(21), name, data.items.length, Object.keys(everything).sort().join(','));
console.log(cjs.legacyName, legacyName);
const dynamic = await import('./lib/math.mjs');
console.log(dynamic.double(2));
try {
	await import('./lib/missing.mjs');
} catch (error) {
	console.log('missing module rejected:', error instanceof Error);
}
