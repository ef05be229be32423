/**
 * Escaping for the XML-shaped blocks in the system prompt. Intent names, constraints and lessons
 * are written by people (and lessons by the model), so none of them may close a tag or open a new
 * one: every `& < > " '` is escaped, in text and in attributes alike.
 */

const entities: Record<string, string> = {
	'&': '&amp;',
	'<': '&lt;',
	'>': '&gt;',
	'"': '&quot;',
	"'": '&apos;'
};

/** Characters XML 1.0 cannot carry at all (controls other than tab, newline and carriage return). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point here
const forbiddenCharacters = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Escapes text for element content; forbidden control characters become U+FFFD. */
export function escapeXml(text: string): string {
	return text
		.replace(forbiddenCharacters, '\uFFFD')
		.replace(/[&<>"']/g, (character) => entities[character]!);
}

/** Escapes an attribute value; line breaks and tabs are encoded so the tag stays on one line. */
export function escapeXmlAttribute(text: string): string {
	return escapeXml(text).replace(/\r/g, '&#13;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
}
