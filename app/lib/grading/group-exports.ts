/**
 * Turns what a grader dropped or picked (zips, folders, loose jsonl files) into exports, the way
 * `threadline report <folder>` finds them: a folder with `.orchestration/audit.jsonl` is one export;
 * a folder of such folders (or of zips) is a class; a lone agent_trace.jsonl + audit.jsonl pair is
 * an export without workspace files.
 */
export interface PickedFile<Content> {
	/** Relative path as the browser gives it (`webkitRelativePath`, or the name alone). */
	path: string;
	content: Content;
}

export type ExportSource<Content> =
	| { kind: 'zip'; name: string; content: Content }
	| { kind: 'folder'; name: string; files: PickedFile<Content>[] }
	| { kind: 'jsonl'; name: string; audit: Content; trace: Content };

export interface Grouped<Content> {
	sources: ExportSource<Content>[];
	/** Files that belong to no export, named so the page can say so. */
	ignored: string[];
}

const auditSuffix = '.orchestration/audit.jsonl';

export function groupExports<Content>(picked: readonly PickedFile<Content>[]): Grouped<Content> {
	const sources: ExportSource<Content>[] = [];
	const ignored: string[] = [];
	const clean = picked.map((file) => ({ ...file, path: file.path.replaceAll('\\', '/') }));

	// Export roots: every folder holding .orchestration/audit.jsonl (a class folder gives many).
	const roots = new Set<string>();
	for (const file of clean) {
		if (file.path === auditSuffix || file.path.endsWith(`/${auditSuffix}`))
			roots.add(file.path.slice(0, file.path.length - auditSuffix.length));
	}
	// A root inside another root is part of that export (an export's own sub-folder), not a new one.
	const sortedRoots = [...roots].sort((left, right) => left.length - right.length);
	const outerRoots = sortedRoots.filter(
		(root) => !sortedRoots.some((other) => other !== root && other !== '' && root.startsWith(other))
	);
	// Longest first, so a file lands in the innermost export root that holds it.
	const matchOrder = [...outerRoots].sort((left, right) => right.length - left.length);
	const looseAudit: PickedFile<Content>[] = [];
	const looseTrace: PickedFile<Content>[] = [];
	const byRoot = new Map<string, PickedFile<Content>[]>(outerRoots.map((root) => [root, []]));
	for (const file of clean) {
		const root = matchOrder.find((candidate) => file.path.startsWith(candidate));
		if (root !== undefined && (root !== '' || file.path.startsWith('.orchestration/'))) {
			byRoot.get(root)?.push({ path: file.path.slice(root.length), content: file.content });
			continue;
		}
		const name = file.path.split('/').at(-1) ?? file.path;
		if (name.toLowerCase().endsWith('.zip'))
			sources.push({ kind: 'zip', name, content: file.content });
		else if (name === 'audit.jsonl') looseAudit.push(file);
		else if (name === 'agent_trace.jsonl') looseTrace.push(file);
		else if (root === '') byRoot.get('')?.push(file);
		else ignored.push(file.path);
	}
	for (const [root, files] of byRoot) {
		const name = root === '' ? 'export' : (root.slice(0, -1).split('/').at(-1) ?? root);
		sources.push({ kind: 'folder', name, files });
	}
	// Loose pairs: matched by folder, so several pairs picked from several folders stay apart.
	for (const audit of looseAudit) {
		const folder = audit.path.slice(0, audit.path.length - 'audit.jsonl'.length);
		const trace = looseTrace.find((candidate) => candidate.path === `${folder}agent_trace.jsonl`);
		if (!trace) {
			ignored.push(`${audit.path} (no agent_trace.jsonl beside it)`);
			continue;
		}
		looseTrace.splice(looseTrace.indexOf(trace), 1);
		const folderName = folder.replace(/\/$/, '').split('/').at(-1);
		sources.push({
			kind: 'jsonl',
			name: folderName ? folderName : 'audit.jsonl + agent_trace.jsonl',
			audit: audit.content,
			trace: trace.content
		});
	}
	for (const trace of looseTrace) ignored.push(`${trace.path} (no audit.jsonl beside it)`);
	return { sources, ignored };
}
