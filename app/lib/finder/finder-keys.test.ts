import { describe, expect, it } from 'vitest';
import { finderCommand, movedSelection } from './finder-keys.js';

const press = (
	key: string,
	modifiers: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>> = {}
) => ({
	key,
	ctrlKey: false,
	metaKey: false,
	shiftKey: false,
	altKey: false,
	...modifiers
});

describe('finderCommand', () => {
	it('Ctrl/Cmd+P opens Quick Open and Ctrl/Cmd+Shift+F the search; nothing else does', () => {
		expect(finderCommand(press('p', { ctrlKey: true }))).toBe('quick-open');
		expect(finderCommand(press('p', { metaKey: true }))).toBe('quick-open');
		expect(finderCommand(press('F', { ctrlKey: true, shiftKey: true }))).toBe('search');
		expect(finderCommand(press('f', { metaKey: true, shiftKey: true }))).toBe('search');
		expect(finderCommand(press('p'))).toBeNull();
		expect(finderCommand(press('P', { ctrlKey: true, shiftKey: true }))).toBeNull();
		expect(finderCommand(press('f', { ctrlKey: true }))).toBeNull();
		expect(finderCommand(press('p', { ctrlKey: true, altKey: true }))).toBeNull();
	});
});

describe('movedSelection', () => {
	it('wraps with the arrows and clamps with the page keys', () => {
		expect(movedSelection('ArrowDown', 2, 3)).toBe(0);
		expect(movedSelection('ArrowUp', 0, 3)).toBe(2);
		expect(movedSelection('PageDown', 5, 8)).toBe(7);
		expect(movedSelection('PageUp', 5, 8)).toBe(0);
		expect(movedSelection('Enter', 0, 3)).toBeNull();
		expect(movedSelection('ArrowDown', 0, 0)).toBeNull();
	});
});
