/**
 * The Chromium every browser test and the bench launch: Debian's (`apt-get install -y chromium`),
 * because Playwright's own browser download is not reachable here. One list, so the E2E specs,
 * Vitest browser mode and the bench cannot drift apart.
 */
export const chromiumExecutablePath = process.env.PLAYWRIGHT_CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Without the background-networking flags Chromium keeps dialling the closed network. */
export const chromiumArguments = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync'
];
