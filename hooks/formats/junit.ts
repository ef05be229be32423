import type { IntentCheck } from '../intents/check-criteria.js';

/**
 * `threadline check --format junit`: the criteria run as JUnit XML, the report format CI systems
 * (Jenkins, GitLab, GitHub Actions reporters) read. One `testsuite` per intent, one `testcase`
 * per acceptance criterion: a failed criterion carries a `failure` with the tail of its output,
 * one the deadline stopped an `error` (its result is unknown, never a pass), a plain-sentence
 * criterion a `skipped` (manual: no machine can check it). Checked against the JUnit schema
 * Jenkins' xUnit plugin uses (junit.test.ts, with a real XML Schema validator).
 */
export function criteriaJunit(
	checks: readonly IntentCheck[],
	suiteName = 'threadline check'
): string {
	const lines: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
	const all = checks.flatMap((check) => check.criteria);
	const count = (outcome: string) =>
		all.filter((criterion) => criterion.outcome === outcome).length;
	lines.push(
		`<testsuites name="${attribute(suiteName)}" tests="${all.length}" failures="${count('failed')}" errors="${count('not-run')}">`
	);
	for (const check of checks) {
		const own = (outcome: string) =>
			check.criteria.filter((criterion) => criterion.outcome === outcome).length;
		lines.push(
			`  <testsuite name="${attribute(`${check.intent_id} ${check.name}`)}" id="${attribute(check.intent_id)}" tests="${check.criteria.length}" failures="${own('failed')}" errors="${own('not-run')}" skipped="${own('manual')}">`
		);
		lines.push('    <properties>');
		lines.push(`      <property name="intent" value="${attribute(check.intent_id)}"/>`);
		lines.push(`      <property name="status" value="${attribute(check.status)}"/>`);
		lines.push('    </properties>');
		check.criteria.forEach((criterion, index) => {
			const name = attribute(`${index + 1}. ${criterion.description}`);
			const open = `    <testcase name="${name}" classname="${attribute(check.intent_id)}">`;
			const command = criterion.run === undefined ? '' : `$ ${criterion.run}\n`;
			switch (criterion.outcome) {
				case 'passed':
					lines.push(
						`    <testcase name="${name}" classname="${attribute(check.intent_id)}"${criterion.output ? `>\n      <system-out>${text(`${command}${criterion.output}`)}</system-out>\n    </testcase>` : '/>'}`
					);
					break;
				case 'failed':
					lines.push(open);
					lines.push(
						`      <failure type="exit ${criterion.exit_code ?? 1}" message="${attribute(`${criterion.run ?? ''} exited with ${criterion.exit_code ?? 1}`)}">${text(`${command}${tail(criterion.output ?? '')}`)}</failure>`
					);
					lines.push('    </testcase>');
					break;
				case 'not-run':
					lines.push(open);
					lines.push(
						`      <error type="not-run" message="${attribute('not run: the check’s deadline passed')}">${text(`${command}${tail(criterion.output ?? '')}`)}</error>`
					);
					lines.push('    </testcase>');
					break;
				case 'manual':
					lines.push(open);
					lines.push(
						`      <skipped message="${attribute('manual: a plain sentence no machine can check')}"/>`
					);
					lines.push('    </testcase>');
					break;
			}
		});
		lines.push('  </testsuite>');
	}
	lines.push('</testsuites>');
	return lines.join('\n');
}

/** The last lines of a command's output: what a CI page shows beside the failure. */
const tailLines = 40;
function tail(output: string): string {
	return output.trimEnd().split('\n').slice(-tailLines).join('\n');
}

/**
 * Characters XML 1.0 cannot carry at all (C0 controls but tab, LF, CR; lone surrogates; U+FFFE/F):
 * a command's output may hold any of them, and one would make the whole report unreadable.
 */
const notXmlCharacter =
	// eslint-disable-next-line no-control-regex
	/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function clean(value: string): string {
	return value.replace(
		notXmlCharacter,
		(character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`
	);
}

function text(value: string): string {
	return clean(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attribute(value: string): string {
	// Tabs and line breaks in an attribute are normalised to spaces by XML readers: keep them.
	return text(value)
		.replace(/"/g, '&quot;')
		.replace(/\t/g, '&#9;')
		.replace(/\n/g, '&#10;')
		.replace(/\r/g, '&#13;');
}
