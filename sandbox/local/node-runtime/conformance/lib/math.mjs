export const name = 'math';
export function double(value) {
	return value * 2;
}
