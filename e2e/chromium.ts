import { existsSync } from 'node:fs';

/**
 * Debian's headless Chromium (`apt-get install -y chromium-headless-shell`): the same Blink and V8
 * as the browser, without the browser's own window UI, which is what Playwright runs headless with
 * its own downloads (not reachable here). The full browser (`/usr/bin/chromium`, the fallback)
 * loads the omnibox's WebUI, some 400 module requests, in a renderer of its own for every new
 * context: on two cores that took a second out of each cold page load the bench times (traced:
 * editor interactive 3.7 s against 2.6 s). The binary itself, not Debian's `/usr/bin` wrapper
 * script, which does not exec it: stopping the wrapper would leave the browser running.
 */
const headlessShell = '/usr/lib/chromium/chromium-headless-shell';
const fullBrowser = '/usr/bin/chromium';

/**
 * The Chromium every browser test and the bench launch. One list, so the E2E specs, Vitest browser
 * mode and the bench cannot drift apart. `PLAYWRIGHT_CHROMIUM_PATH` chooses another.
 */
export const chromiumExecutablePath =
	process.env.PLAYWRIGHT_CHROMIUM_PATH ?? (existsSync(headlessShell) ? headlessShell : fullBrowser);

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
