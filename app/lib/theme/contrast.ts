/**
 * WCAG 2 contrast arithmetic for colours the page cannot style with CSS variables (Monaco's
 * themes): parse `#rgb`/`#rrggbb`/`#rrggbbaa`, lay a translucent colour over an opaque one, and
 * move a text colour just far enough from its backgrounds to reach a ratio.
 */

export interface Rgba {
	red: number;
	green: number;
	blue: number;
	/** 0…1 */
	alpha: number;
}

export function parseHexColor(text: string): Rgba {
	const hex = text.replace(/^#/, '');
	const full =
		hex.length === 3 || hex.length === 4 ? [...hex].map((digit) => digit + digit).join('') : hex;
	if (!/^[0-9a-f]{6}([0-9a-f]{2})?$/i.test(full)) throw new Error(`Not a hex colour: ${text}`);
	const channel = (index: number) => parseInt(full.slice(index * 2, index * 2 + 2), 16);
	return {
		red: channel(0),
		green: channel(1),
		blue: channel(2),
		alpha: full.length === 8 ? channel(3) / 255 : 1
	};
}

/** `#rrggbb` (opaque) or `#rrggbbaa`. */
export function formatHexColor({ red, green, blue, alpha }: Rgba): string {
	const two = (value: number) =>
		Math.round(Math.min(255, Math.max(0, value)))
			.toString(16)
			.padStart(2, '0');
	return `#${two(red)}${two(green)}${two(blue)}${alpha < 1 ? two(alpha * 255) : ''}`;
}

/** `top` painted over the opaque `bottom`. */
export function composite(top: Rgba, bottom: Rgba): Rgba {
	const mix = (upper: number, lower: number) => upper * top.alpha + lower * (1 - top.alpha);
	return {
		red: mix(top.red, bottom.red),
		green: mix(top.green, bottom.green),
		blue: mix(top.blue, bottom.blue),
		alpha: 1
	};
}

function relativeLuminance({ red, green, blue }: Rgba): number {
	const linear = (channel: number) => {
		const value = channel / 255;
		return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
	};
	return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue);
}

export function contrastRatio(foreground: Rgba, background: Rgba): number {
	const text = relativeLuminance(
		foreground.alpha < 1 ? composite(foreground, background) : foreground
	);
	const behind = relativeLuminance(background);
	const [lighter, darker] = text > behind ? [text, behind] : [behind, text];
	return (lighter + 0.05) / (darker + 0.05);
}

/**
 * `foreground`, mixed toward white (dark themes) or black (light themes) in small steps until it
 * reaches `minimum` on every one of `backgrounds`; unchanged when it already does. The hue stays,
 * so a comment stays recognisably a comment.
 */
export function withContrast(
	foreground: Rgba,
	backgrounds: readonly Rgba[],
	minimum: number,
	toward: 'white' | 'black'
): Rgba {
	const target = toward === 'white' ? 255 : 0;
	for (let step = 0; step <= 100; step++) {
		const share = step / 100;
		const candidate: Rgba = {
			red: foreground.red + (target - foreground.red) * share,
			green: foreground.green + (target - foreground.green) * share,
			blue: foreground.blue + (target - foreground.blue) * share,
			alpha: 1
		};
		const rounded = parseHexColor(formatHexColor(candidate));
		if (backgrounds.every((background) => contrastRatio(rounded, background) >= minimum))
			return rounded;
	}
	return parseHexColor(toward === 'white' ? '#ffffff' : '#000000');
}
