/**
 * WCAG 2 contrast between two `#rrggbb` colours: 1 (none) to 21 (black on white). Normal text
 * needs 4.5 for level AA, large text and user-interface parts 3.
 */
export function contrastRatio(first: string, second: string): number {
	const lighter = Math.max(relativeLuminance(first), relativeLuminance(second));
	const darker = Math.min(relativeLuminance(first), relativeLuminance(second));
	return (lighter + 0.05) / (darker + 0.05);
}

/** WCAG 2 relative luminance of an sRGB `#rrggbb` colour, 0 (black) to 1 (white). */
export function relativeLuminance(color: string): number {
	const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
	if (match === null) throw new Error(`Expected a colour written as #rrggbb, got "${color}".`);
	const [red, green, blue] = [match[1], match[2], match[3]].map((hex) => {
		const channel = Number.parseInt(hex ?? '0', 16) / 255;
		return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
	}) as [number, number, number];
	return 0.2126 * red + 0.7152 * green + 0.0722 * blue;
}
