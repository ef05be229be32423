/**
 * Keys pressed in the terminal pane before xterm has loaded (it loads once the shell is ready),
 * as the terminal data xterm would have sent for them: kept and handed to the shell, as keys
 * typed while the shell starts always were. Only what a line needs: printable characters,
 * Enter and Backspace. Tab, Escape and shortcuts are left to the page (keyboard navigation).
 */
export function typeAheadData(event: {
	key: string;
	ctrlKey: boolean;
	metaKey: boolean;
	altKey: boolean;
	isComposing?: boolean;
}): string | null {
	if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return null;
	if (event.key === 'Enter') return '\r';
	if (event.key === 'Backspace') return '\x7f';
	// A printable key's `key` is the character itself (one code point, maybe two UTF-16 units).
	if ([...event.key].length === 1) return event.key;
	return null;
}
