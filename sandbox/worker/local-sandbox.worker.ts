/// <reference lib="webworker" />
import type { ShellWorkerEndpoint } from './shell-worker-protocol.js';
import { serveShellWorker } from './shell-worker-server.js';

// The shell Worker's entry (see createWorkerLocalSandbox): just-bash and QuickJS load on demand.
serveShellWorker(self as unknown as ShellWorkerEndpoint);
