import { defineConfig, devices } from '@playwright/test';

const port = 4173;
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
				// Debian's Chromium: Playwright's own browser download is not reachable here.
				launchOptions: {
					executablePath: process.env.PLAYWRIGHT_CHROMIUM_PATH ?? '/usr/bin/chromium',
					// Without the background-networking flags Chromium keeps dialling the closed network.
					args: [
						'--no-sandbox',
						'--disable-gpu',
						'--disable-quic',
						'--no-first-run',
						'--disable-background-networking',
						'--disable-component-update',
						'--disable-sync'
					]
				}
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
