console.log('start');
process.exitCode = 3;
console.log('exit code set');
