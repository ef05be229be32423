/**
 * Keys pressed in the terminal pane before xterm has loaded (it loads once the shell is ready),
 * as the terminal data xterm would have sent for them: kept and handed to the shell, as keys
 * typed while the shell starts always were. Only what a line needs: printable characters (AltGr
 * and Option ones too), Enter, Backspace and pasted text. Tab, Escape and shortcuts are left to
 * the page (keyboard navigation); text composed with an input method is not kept.
 */
export function typeAheadData(event: {
	key: string;
	ctrlKey: boolean;
	metaKey: boolean;
	altKey: boolean;
	isComposing?: boolean;
}): string | null {
	if (event.metaKey || event.isComposing) return null;
	// AltGr arrives as Ctrl+Alt (Windows) and macOS's Option as Alt, both typing characters such as
	// | @ { } on many layouts; Ctrl alone is a shortcut, and Alt with a plain letter or digit too.
	if (event.ctrlKey && !event.altKey) return null;
	if (event.altKey && !event.ctrlKey && /^[A-Za-z0-9]$/.test(event.key)) return null;
	if (event.key === 'Enter') return '\r';
	if (event.key === 'Backspace') return '\x7f';
	// A printable key's `key` is the character itself (one code point, maybe two UTF-16 units).
	if ([...event.key].length === 1) return event.key;
	return null;
}

/** Pasted text as the terminal sends it: line breaks as Enter, as xterm's own paste does. */
export function pastedData(text: string): string {
	return text.replace(/\r?\n/g, '\r');
}
