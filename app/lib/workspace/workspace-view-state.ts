/**
 * The working context a reload brings back (issue 29): the open editor tabs in their order, the
 * one shown, and the folders open in the tree. Kept per workspace in localStorage; read back
 * defensively (another version or a hand edit may have written anything there).
 */
export interface WorkspaceViewState {
	tabs: string[];
	active: string | null;
	expanded: string[];
}

const maximumEntries = 200;

export function viewStateKey(workspaceName: string): string {
	return `threadline-view-${workspaceName}`;
}

export function parseViewState(text: string | null): WorkspaceViewState | null {
	if (!text) return null;
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return null;
	}
	if (typeof value !== 'object' || value === null) return null;
	const record = value as Record<string, unknown>;
	const paths = (list: unknown) =>
		Array.isArray(list)
			? [
					...new Set(list.filter((path): path is string => typeof path === 'string' && path !== ''))
				].slice(0, maximumEntries)
			: [];
	const tabs = paths(record.tabs);
	const active =
		typeof record.active === 'string' && tabs.includes(record.active) ? record.active : null;
	return { tabs, active, expanded: paths(record.expanded) };
}

/** What to reopen of `state`, given the files and folders the workspace holds now. */
export function restorableViewState(
	state: WorkspaceViewState,
	exists: { file: (path: string) => boolean; folder: (path: string) => boolean }
): WorkspaceViewState {
	const tabs = state.tabs.filter(exists.file);
	return {
		tabs,
		active:
			state.active !== null && tabs.includes(state.active) ? state.active : (tabs.at(-1) ?? null),
		expanded: state.expanded.filter(exists.folder)
	};
}
