/**
 * In-app replacements for `confirm()` and `prompt()`: the browser's own freeze the page, look out
 * of place, cannot be themed and are blocked in some embeds. One request at a time; the page
 * mounts `AppDialogs.svelte` once, and any component awaits `appDialogs.confirm(…)`.
 */
export interface ConfirmRequest {
	kind: 'confirm';
	title: string;
	message: string;
	confirmLabel: string;
	/** A destructive action is styled as such. */
	danger?: boolean;
	resolve: (value: boolean) => void;
}

export interface PromptRequest {
	kind: 'prompt';
	title: string;
	label: string;
	value: string;
	confirmLabel: string;
	resolve: (value: string | null) => void;
}

export type DialogRequest = ConfirmRequest | PromptRequest;

export class AppDialogs {
	current = $state.raw<DialogRequest | null>(null);

	confirm(options: {
		title: string;
		message: string;
		confirmLabel?: string;
		danger?: boolean;
	}): Promise<boolean> {
		return new Promise((resolve) => {
			this.replace({
				kind: 'confirm',
				title: options.title,
				message: options.message,
				confirmLabel: options.confirmLabel ?? 'OK',
				danger: options.danger,
				resolve
			});
		});
	}

	prompt(options: {
		title: string;
		label: string;
		value?: string;
		confirmLabel?: string;
	}): Promise<string | null> {
		return new Promise((resolve) => {
			this.replace({
				kind: 'prompt',
				title: options.title,
				label: options.label,
				value: options.value ?? '',
				confirmLabel: options.confirmLabel ?? 'OK',
				resolve
			});
		});
	}

	/** Settles the open request: `true`/text to go ahead, `null` (or false) to cancel. */
	settle(value: string | boolean | null): void {
		const request = this.current;
		if (!request) return;
		this.current = null;
		if (request.kind === 'confirm') request.resolve(value === true);
		else request.resolve(typeof value === 'string' ? value : null);
	}

	/** A new request cancels the one still open (its caller gets a "no"). */
	private replace(request: DialogRequest): void {
		this.settle(null);
		this.current = request;
	}
}

export const appDialogs = new AppDialogs();
