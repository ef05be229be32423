import { minimatch } from 'minimatch';
import type { HookMatcher, PostHook, PreHook } from './hook-types.js';

/** Ordered sets of pre- and post-hooks; `register` returns a function that removes the hook. */
export class HookRegistry {
	private preHooks: PreHook[] = [];
	private postHooks: PostHook[] = [];

	registerPre(hook: PreHook): () => void {
		this.preHooks = insertByPriority(this.preHooks, hook);
		return () => {
			this.preHooks = this.preHooks.filter((candidate) => candidate !== hook);
		};
	}

	registerPost(hook: PostHook): () => void {
		this.postHooks = insertByPriority(this.postHooks, hook);
		return () => {
			this.postHooks = this.postHooks.filter((candidate) => candidate !== hook);
		};
	}

	preHooksFor(tool: string, targets: readonly string[]): PreHook[] {
		return this.preHooks.filter((hook) => matches(hook.matcher, tool, targets));
	}

	postHooksFor(tool: string, targets: readonly string[]): PostHook[] {
		return this.postHooks.filter((hook) => matches(hook.matcher, tool, targets));
	}
}

function insertByPriority<Hook extends { priority: number }>(hooks: Hook[], hook: Hook): Hook[] {
	// Stable: hooks of equal priority keep registration order.
	return [...hooks, hook].sort((first, second) => first.priority - second.priority);
}

export function matches(
	matcher: HookMatcher | undefined,
	tool: string,
	targets: readonly string[]
): boolean {
	if (!matcher) return true;
	if (matcher.tools && !matcher.tools.includes(tool)) return false;
	if (matcher.paths) {
		const globs = matcher.paths;
		return targets.some((target) => globs.some((glob) => minimatch(target, glob, { dot: true })));
	}
	return true;
}
