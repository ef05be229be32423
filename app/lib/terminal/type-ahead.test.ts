import { describe, expect, it } from 'vitest';
import { pastedData, typeAheadData } from './type-ahead.js';

const key = (
	name: string,
	modifiers: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey', boolean>> = {}
) => ({
	key: name,
	ctrlKey: false,
	metaKey: false,
	altKey: false,
	...modifiers
});

describe('keys typed before the terminal has loaded', () => {
	it('keeps characters, Enter and Backspace as the terminal would send them', () => {
		expect(
			['l', 's', ' ', 'é', '𝄞', 'Enter', 'Backspace'].map((name) => typeAheadData(key(name)))
		).toEqual(['l', 's', ' ', 'é', '𝄞', '\r', '\x7f']);
	});

	it('leaves navigation keys, shortcuts and composition to the page', () => {
		for (const name of ['Tab', 'Escape', 'ArrowLeft', 'Shift', 'F5', 'Dead'])
			expect(typeAheadData(key(name))).toBeNull();
		expect(typeAheadData(key('c', { ctrlKey: true }))).toBeNull();
		expect(typeAheadData(key('v', { metaKey: true }))).toBeNull();
		expect(typeAheadData(key('x', { altKey: true }))).toBeNull();
		expect(typeAheadData(key('7', { altKey: true }))).toBeNull();
		expect(typeAheadData({ ...key('a'), isComposing: true })).toBeNull();
	});

	it('keeps what AltGr (Ctrl+Alt) and Option (Alt) type', () => {
		expect(typeAheadData(key('|', { ctrlKey: true, altKey: true }))).toBe('|');
		expect(typeAheadData(key('@', { ctrlKey: true, altKey: true }))).toBe('@');
		expect(typeAheadData(key('{', { altKey: true }))).toBe('{');
		expect(typeAheadData(key('~', { altKey: true }))).toBe('~');
	});

	it('sends pasted line breaks as Enter', () => {
		expect(pastedData('ls\necho a\r\n')).toBe('ls\recho a\r');
	});
});
