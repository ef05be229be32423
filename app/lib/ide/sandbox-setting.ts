/** Where the person's sandbox choice is kept in this browser (the URL's ?sandbox= wins). */
export const sandboxSettingKey = 'threadline-sandbox';

export const sandboxOptions = [
	{ value: 'local', label: 'Offline sandbox (default)' },
	{ value: 'auto', label: 'Auto: WebContainer when available' },
	{ value: 'webcontainer', label: 'WebContainer (needs StackBlitz)' }
] as const;
