import { randomBytes } from 'node:crypto';

const escapeHtml = (value: string) =>
	value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

const baseHeaders = {
	'content-type': 'text/html; charset=utf-8',
	'cache-control': 'no-store',
	'referrer-policy': 'no-referrer',
	'x-content-type-options': 'nosniff'
};

function page(title: string, body: string, scriptNonce?: string): string {
	return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem">${body}</body></html>`.replace(
		'<script>',
		scriptNonce ? `<script nonce="${scriptNonce}">` : '<script>'
	);
}

/** A plain error page: what went wrong, in a sentence; nothing was created. */
export function errorPage(message: string, status = 400): Response {
	return new Response(
		page(
			'Threadline: launch refused',
			`<h1>Threadline could not open this link</h1><p>${escapeHtml(message)}</p>`
		),
		{ status, headers: { ...baseHeaders, 'content-security-policy': "default-src 'none'" } }
	);
}

/** A page that posts `fields` to `action` at once (Deep Linking's return to the platform). */
export function autoPostPage(action: string, fields: Record<string, string>): Response {
	const nonce = randomBytes(16).toString('base64');
	const inputs = Object.entries(fields)
		.map(
			([name, value]) =>
				`<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`
		)
		.join('');
	return new Response(
		page(
			'Threadline: returning to your LMS',
			`<form method="post" action="${escapeHtml(action)}">${inputs}<p>Returning to your LMS…</p><button type="submit">Continue</button></form><script>document.forms[0].submit()</script>`,
			nonce
		),
		{
			headers: {
				...baseHeaders,
				'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; form-action ${new URL(action).origin}`
			}
		}
	);
}

/**
 * The end of a learner's launch: stores the class membership where the IDE keeps it
 * (`threadline-class-membership` in localStorage, app/lib/class/class-membership.ts) and opens
 * the scenario. The token is in this one no-store page and nowhere in a URL.
 */
export function membershipHandoffPage(
	storageKey: string,
	membership: { token: string; classId: string; name: string; joinedAt: string },
	destination: string
): Response {
	const nonce = randomBytes(16).toString('base64');
	const data = JSON.stringify({ key: storageKey, membership, destination }).replace(
		/</g,
		'\\u003c'
	);
	return new Response(
		page(
			'Threadline: opening your scenario',
			`<p>Opening your scenario…</p><script>const d=${data};localStorage.setItem(d.key,JSON.stringify(d.membership));location.replace(d.destination)</script>`,
			nonce
		),
		{
			headers: {
				...baseHeaders,
				'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'`
			}
		}
	);
}

/** The instructor's scenario picker of a Deep Linking request. */
export function scenarioPickerPage(
	session: string,
	scenarios: readonly { id: string; title: string }[]
): Response {
	const options = scenarios
		.map(
			(scenario, index) =>
				`<p><label><input type="radio" name="scenario" value="${escapeHtml(scenario.id)}"${index === 0 ? ' checked' : ''}> ${escapeHtml(scenario.title)} <code>${escapeHtml(scenario.id)}</code></label></p>`
		)
		.join('');
	return new Response(
		page(
			'Threadline: pick a scenario',
			`<h1>Pick a Threadline scenario</h1><form method="post" action="/api/lti/deep-link"><input type="hidden" name="session" value="${escapeHtml(session)}">${options}<button type="submit">Add to the course</button></form>`
		),
		{
			headers: {
				...baseHeaders,
				'content-security-policy': "default-src 'none'; form-action 'self'"
			}
		}
	);
}
