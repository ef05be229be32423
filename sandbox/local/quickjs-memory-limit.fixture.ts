// Run by quickjs-memory-limit.test.ts in its own Node process: one script, then the RSS growth.
import { createLocalSandbox } from './local-sandbox.js';
import { MemoryWorkspaceFiles } from './memory-workspace-files.js';

const [script = '', limit = '0'] = process.argv.slice(2);
const sandbox = await createLocalSandbox({
	files: new MemoryWorkspaceFiles({ 'hog.js': script }),
	nodeLimits: { memoryLimitBytes: Number(limit), timeLimitMs: 30_000 }
});
// Load just-bash and QuickJS first, so the growth measured is the script's.
await sandbox.exec('node -e "0"');
const before = process.memoryUsage().rss;
const result = await sandbox.exec('node hog.js', { timeoutMs: 30_000 });
const rssGrowthBytes = process.memoryUsage().rss - before;
await sandbox.dispose();
console.log(JSON.stringify({ exitCode: result.exitCode, output: result.output, rssGrowthBytes }));
