import { defineConfig, devices } from '@playwright/test';
import { chromiumArguments, chromiumExecutablePath } from './e2e/chromium.js';

// THREADLINE_E2E_PORT lets several checkouts run their E2E suites side by side.
const port = Number(process.env.THREADLINE_E2E_PORT ?? 4173);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
	testDir: 'e2e',
	fullyParallel: true,
	forbidOnly: Boolean(process.env.CI),
	retries: 0,
	workers: process.env.CI ? 1 : undefined,
	reporter: 'list',
	use: {
		baseURL,
		trace: 'retain-on-failure'
	},
	projects: [
		{
			name: 'chromium',
			use: {
				...devices['Desktop Chrome'],
				launchOptions: { executablePath: chromiumExecutablePath, args: chromiumArguments }
			}
		}
	],
	webServer: {
		// The production server, so the specs see the headers users get (server.js, not Vite).
		command: 'npm run build && node server.js',
		url: baseURL,
		env: { PORT: String(port), HOST: '127.0.0.1' },
		// A stale server on the port would give misleading passes on CI.
		reuseExistingServer: !process.env.CI,
		timeout: 240_000,
		stdout: 'ignore',
		stderr: 'pipe'
	}
});
