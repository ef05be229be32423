const path = require('node:path');
const legacy = require('./lib/legacy.cjs');
const again = require('./lib/legacy.cjs');
legacy.count += 1;
console.log(legacy === again, again.count, path.basename(__filename), path.isAbsolute(__dirname));
console.log(typeof module.exports, require.main === module);
const data = require('./lib/data.json');
console.log(data.items.join('+'));
try {
	require('./lib/nothing');
} catch (error) {
	console.log(error.code);
}
