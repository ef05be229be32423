process.on('exit', (code) => console.log('exiting with', code));
console.log(process.argv.length >= 2, typeof process.env.PATH, process.platform);
console.log(typeof process.cwd(), typeof process.hrtime.bigint());
process.exit(4);
