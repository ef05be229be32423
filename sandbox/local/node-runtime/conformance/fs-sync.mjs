import fs from 'node:fs';
import { join } from 'node:path';
const folder = join(process.cwd(), 'out-sync');
fs.rmSync(folder, { recursive: true, force: true });
fs.mkdirSync(join(folder, 'nested', 'deeper'), { recursive: true });
fs.writeFileSync(join(folder, 'a.txt'), 'alpha\n');
fs.appendFileSync(join(folder, 'a.txt'), 'beta\n');
fs.writeFileSync(join(folder, 'nested', 'b.bin'), new Uint8Array([0, 1, 2, 255]));
console.log(fs.readFileSync(join(folder, 'a.txt'), 'utf8').split('\n').length);
console.log([...fs.readFileSync(join(folder, 'nested', 'b.bin'))].join(','));
console.log(fs.readdirSync(folder).join(','), fs.existsSync(join(folder, 'nope')));
console.log(
	fs
		.readdirSync(folder, { withFileTypes: true })
		.map((entry) => `${entry.name}:${entry.isDirectory()}`)
		.join(',')
);
console.log(fs.statSync(join(folder, 'a.txt')).size, fs.statSync(folder).isDirectory());
fs.renameSync(join(folder, 'a.txt'), join(folder, 'c.txt'));
console.log(fs.existsSync(join(folder, 'a.txt')), fs.existsSync(join(folder, 'c.txt')));
try {
	fs.readFileSync(join(folder, 'missing.txt'));
} catch (error) {
	console.log(error.code, error.syscall);
}
try {
	fs.mkdirSync(join(folder, 'nested'));
} catch (error) {
	console.log(error.code);
}
fs.rmSync(folder, { recursive: true });
console.log(fs.existsSync(folder));
