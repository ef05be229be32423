import { createLocalSandbox } from '/work/wt/9-toolchain/sandbox/local/local-sandbox.js';
import { MemoryWorkspaceFiles } from '/work/wt/9-toolchain/sandbox/local/memory-workspace-files.js';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
const dir = process.argv[2];
const files: Record<string, string> = {};
function walk(d: string) { for (const n of readdirSync(d)) { const p = join(d, n); if (statSync(p).isDirectory()) walk(p); else files[relative(dir, p)] = readFileSync(p, 'utf8'); } }
if (dir && dir !== '-') walk(dir);
const sandbox = await createLocalSandbox({ files: new MemoryWorkspaceFiles(files) });
for (const command of process.argv.slice(3)) {
  const t = Date.now();
  const r = await sandbox.exec(command);
  console.log(`$ ${command}  [exit ${r.exitCode}, ${Date.now() - t} ms, changes ${r.changes.length}]\n${r.output}`);
}
await sandbox.dispose();
