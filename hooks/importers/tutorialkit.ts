import { parse as parseYaml } from 'yaml';
import { isGovernancePath } from '../paths/protected-paths.js';
import { maximumSteps } from '../scenarios/scenario-steps.js';
import {
	assembleScenario,
	refuseHostileEntries,
	scenarioIdFrom,
	type ImportResult
} from './imported-scenario.js';

/**
 * A TutorialKit lesson or tutorial folder → a Threadline scenario with steps. A lesson is a folder
 * with `content.md` (front matter + markdown): its title and body become the step's title and
 * brief, `_files/` its starting files, `_solution/` its solution. Metadata is inherited from the
 * `meta.md` of the chapter, part and tutorial above it (TutorialKit's own rule), so a `template`
 * set once for the tutorial applies to every lesson; templates live in `src/templates/<name>/`
 * and may extend another through `.tk-config.json` (`{"extends": "../base"}`), resolved here
 * (base first, inside the given folder only). Threadline has one starting workspace: the first
 * lesson's files, plus files later lessons add; a later lesson that starts a file differently is
 * listed. Previews, prepare and main commands, terminal and editor settings have no equivalent
 * and are listed by lesson. Every entry is checked first (refuseHostileEntries).
 */

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Front matter keys Threadline carries: the rest are listed as not carried. */
const carriedKeys = new Set(['type', 'title', 'template', 'slug', 'parts', 'chapters', 'lessons']);
const maximumTemplateDepth = 10;

interface Lesson {
	folder: string;
	title: string;
	body: string;
	metadata: Record<string, unknown>;
}

function text(bytes: Uint8Array | undefined): string | null {
	if (!bytes) return null;
	try {
		return decoder.decode(bytes);
	} catch {
		return null;
	}
}

/** `---\nyaml\n---\nbody`: the front matter as an object (empty without one) and the body. */
function frontMatter(
	source: string,
	file: string
): { data: Record<string, unknown>; body: string } | { problem: string } {
	const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(source);
	if (!match) return { data: {}, body: source };
	let data: unknown;
	try {
		data = parseYaml(match[1] as string, { maxAliasCount: 50 });
	} catch (error) {
		return {
			problem: `${file}: the front matter is not YAML: ${(error as Error).message.split('\n')[0]}`
		};
	}
	if (data === null || data === undefined) data = {};
	if (typeof data !== 'object' || Array.isArray(data))
		return { problem: `${file}: the front matter is not a mapping` };
	return { data: data as Record<string, unknown>, body: match[2] as string };
}

function parentOf(folder: string): string | null {
	if (folder === '') return null;
	const cut = folder.lastIndexOf('/');
	return cut === -1 ? '' : folder.slice(0, cut);
}

function join(folder: string, name: string): string {
	return folder === '' ? name : `${folder}/${name}`;
}

/** `1-basics` before `2-more` before `10-last`: TutorialKit's numeric folder prefixes. */
function compareFolderNames(left: string, right: string): number {
	const number = (name: string) => Number(/^(\d+)/.exec(name)?.[1] ?? Number.POSITIVE_INFINITY);
	return number(left) - number(right) || left.localeCompare(right);
}

/** The files under `folder/` (as paths inside it), optionally leaving a subfolder out. */
function filesUnder(
	entries: ReadonlyMap<string, Uint8Array>,
	folder: string
): Map<string, Uint8Array> {
	const prefix = folder === '' ? '' : `${folder}/`;
	const found = new Map<string, Uint8Array>();
	for (const [path, bytes] of entries)
		if (path.startsWith(prefix)) found.set(path.slice(prefix.length), bytes);
	return found;
}

/** Resolves `a/b/../c` inside the source folder; null when it would leave it. */
function resolveInside(folder: string, relative: string): string | null {
	if (relative.startsWith('/') || relative.includes('\\')) return null;
	const parts = folder === '' ? [] : folder.split('/');
	for (const segment of relative.split('/')) {
		if (segment === '' || segment === '.') continue;
		if (segment === '..') {
			if (parts.length === 0) return null;
			parts.pop();
		} else parts.push(segment);
	}
	return parts.join('/');
}

export function importTutorialKit(
	entries: ReadonlyMap<string, Uint8Array>,
	options: { id?: string } = {}
): ImportResult {
	const hostile = refuseHostileEntries(entries);
	if (hostile) return { ok: false, problem: hostile };
	const notCarried: string[] = [];

	// Where the tutorial is: a TutorialKit project (src/content/tutorial), a tutorial folder, or one lesson.
	const projectTutorial = 'src/content/tutorial';
	const root = [...entries.keys()].some((path) => path.startsWith(`${projectTutorial}/`))
		? projectTutorial
		: '';
	const templatesFolder = root === projectTutorial ? 'src/templates' : null;
	const lessonFolders = [...entries.keys()]
		.filter(
			(path) =>
				(path === join(root, 'content.md') || path.startsWith(root === '' ? '' : `${root}/`)) &&
				/(^|\/)content\.md$/.test(path)
		)
		.map((path) => parentOf(path) as string)
		// A content.md inside _files or _solution is a lesson's file, not a lesson.
		.filter(
			(folder) =>
				!folder.split('/').some((segment) => segment === '_files' || segment === '_solution')
		);
	if (lessonFolders.length === 0)
		return {
			ok: false,
			problem:
				'no TutorialKit lesson found: a lesson is a folder with content.md (give a lesson, a tutorial folder or a TutorialKit project)'
		};

	type MetaRead = { ok: true; data: Record<string, unknown> } | { ok: false; problem: string };
	const metadataCache = new Map<string, MetaRead>();
	const metaOf = (folder: string): MetaRead => {
		const cached = metadataCache.get(folder);
		if (cached) return cached;
		const file = join(folder, 'meta.md');
		const source = entries.has(file) ? text(entries.get(file)) : '';
		let read: MetaRead;
		if (source === null) read = { ok: false, problem: `${file} is not UTF-8 text` };
		else {
			const parsed = frontMatter(source, file);
			read =
				'problem' in parsed
					? { ok: false, problem: parsed.problem }
					: { ok: true, data: parsed.data };
		}
		metadataCache.set(folder, read);
		return read;
	};

	// Order: each folder's meta.md may list its children (parts/chapters/lessons); otherwise by number.
	const orderKey = (folder: string): string[] => folder.split('/');
	const childRank = (parent: string, name: string): number => {
		const meta = metaOf(parent);
		if (!meta.ok) return Number.POSITIVE_INFINITY;
		for (const key of ['parts', 'chapters', 'lessons']) {
			const list = meta.data[key];
			if (Array.isArray(list) && list.includes(name)) return list.indexOf(name);
		}
		return Number.POSITIVE_INFINITY;
	};
	lessonFolders.sort((left, right) => {
		const a = orderKey(left);
		const b = orderKey(right);
		for (let index = 0; index < Math.min(a.length, b.length); index++) {
			if (a[index] === b[index]) continue;
			const parent = a.slice(0, index).join('/');
			const ranked = childRank(parent, a[index] as string) - childRank(parent, b[index] as string);
			if (Number.isFinite(ranked) && ranked !== 0) return ranked;
			return compareFolderNames(a[index] as string, b[index] as string);
		}
		return a.length - b.length;
	});
	if (lessonFolders.length > maximumSteps)
		return {
			ok: false,
			problem: `the tutorial has ${lessonFolders.length} lessons; a scenario has at most ${maximumSteps} steps`
		};

	const lessons: Lesson[] = [];
	for (const folder of lessonFolders) {
		const file = join(folder, 'content.md');
		const source = text(entries.get(file));
		if (source === null) return { ok: false, problem: `${file} is not UTF-8 text` };
		const parsed = frontMatter(source, file);
		if ('problem' in parsed) return { ok: false, problem: parsed.problem };
		// Inherited metadata: the tutorial's, then the part's, the chapter's, the lesson's own.
		const chain: string[] = [];
		for (let current = parentOf(folder); current !== null; current = parentOf(current)) {
			chain.unshift(current);
			if (current === root) break;
		}
		const metadata: Record<string, unknown> = {};
		for (const ancestor of chain) {
			const meta = metaOf(ancestor);
			if (!meta.ok) return { ok: false, problem: meta.problem };
			for (const [key, value] of Object.entries(meta.data))
				if (!['type', 'title', 'parts', 'chapters', 'lessons'].includes(key)) metadata[key] = value;
		}
		Object.assign(metadata, parsed.data);
		const title =
			typeof parsed.data.title === 'string' && parsed.data.title.trim()
				? parsed.data.title.trim()
				: (folder.split('/').at(-1) ?? 'Lesson');
		lessons.push({ folder, title: title.slice(0, 120), body: parsed.body, metadata });
	}

	const templateFiles = (name: string, lesson: string): Map<string, Uint8Array> | null => {
		if (templatesFolder === null) {
			notCarried.push(
				`${lesson}: template ${JSON.stringify(name)} — templates live in src/templates/ of a TutorialKit project; give the project folder to include them`
			);
			return null;
		}
		const layers: Map<string, Uint8Array>[] = [];
		const seen = new Set<string>();
		let folder: string | null = join(templatesFolder, name);
		for (let depth = 0; folder !== null; depth++) {
			if (depth >= maximumTemplateDepth || seen.has(folder)) {
				notCarried.push(
					`${lesson}: template ${JSON.stringify(name)} extends in a loop or deeper than ${maximumTemplateDepth}; stopped at ${folder}`
				);
				break;
			}
			seen.add(folder);
			const files = filesUnder(entries, folder);
			if (files.size === 0) {
				notCarried.push(`${lesson}: template folder ${folder} is missing or empty`);
				break;
			}
			layers.unshift(files);
			const config = text(files.get('.tk-config.json'));
			let next: string | null = null;
			if (config !== null) {
				try {
					const extendsPath = (JSON.parse(config) as { extends?: unknown }).extends;
					if (typeof extendsPath === 'string') {
						next = resolveInside(folder, extendsPath);
						if (next === null)
							notCarried.push(
								`${folder}/.tk-config.json: extends ${JSON.stringify(extendsPath)} leaves the given folder; not followed`
							);
					}
				} catch {
					notCarried.push(`${folder}/.tk-config.json is not JSON; its extends is not followed`);
				}
			}
			folder = next;
		}
		const merged = new Map<string, Uint8Array>();
		for (const layer of layers)
			for (const [path, bytes] of layer) if (path !== '.tk-config.json') merged.set(path, bytes);
		return merged;
	};

	const startOf = (lesson: Lesson): Map<string, Uint8Array> => {
		const template =
			typeof lesson.metadata.template === 'string' ? lesson.metadata.template : 'default';
		const base =
			templatesFolder !== null || typeof lesson.metadata.template === 'string'
				? (templateFiles(template, lesson.folder || '.') ?? new Map<string, Uint8Array>())
				: new Map<string, Uint8Array>();
		for (const [path, bytes] of filesUnder(entries, join(lesson.folder, '_files')))
			base.set(path, bytes);
		return base;
	};

	const sameBytes = (left: Uint8Array | undefined, right: Uint8Array | undefined) =>
		left !== undefined &&
		right !== undefined &&
		left.length === right.length &&
		left.every((byte, index) => byte === right[index]);

	// The starting workspace, and what each step's solution changes.
	const starting = new Map<string, Uint8Array>();
	const state = new Map<string, Uint8Array>();
	const steps: Record<string, unknown>[] = [];
	for (const [index, lesson] of lessons.entries()) {
		const name = lesson.folder || '.';
		const start = startOf(lesson);
		for (const [path, bytes] of start) {
			if (isGovernancePath(path)) {
				notCarried.push(
					`${name}: ${path} — .orchestration/, .git/ and .intentignore are Threadline's own; left out`
				);
				continue;
			}
			if (!state.has(path)) {
				starting.set(path, bytes);
				state.set(path, bytes);
			} else if (!sameBytes(state.get(path), bytes)) {
				notCarried.push(
					`${name}: starts ${path} differently from the workspace after the steps before it (Threadline has one starting workspace; the learner continues from their own)`
				);
			}
		}
		if (index > 0)
			for (const path of state.keys())
				if (!start.has(path) && starting.has(path))
					notCarried.push(`${name}: starts without ${path}, which the workspace has`);
		for (const [key, value] of Object.entries(lesson.metadata))
			if (!carriedKeys.has(key))
				notCarried.push(
					`${name}: ${key} ${JSON.stringify(value)?.slice(0, 120)} (no Threadline equivalent)`
				);
		// MDX's own import/export lines, not the ones in a fenced code sample.
		const prose = lesson.body.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
		if (/^(?:import|export)\s/m.test(prose))
			notCarried.push(`${name}: content.md uses MDX imports or exports; shown as markdown text`);

		const solutionFiles: Record<string, string> = {};
		for (const [path, bytes] of filesUnder(entries, join(lesson.folder, '_solution'))) {
			if (isGovernancePath(path)) {
				notCarried.push(
					`${name}: _solution/${path} — a solution may not change governance paths; left out`
				);
				continue;
			}
			const content = text(bytes);
			if (content === null) {
				notCarried.push(
					`${name}: _solution/${path} is not text (a step's solution holds text files)`
				);
				continue;
			}
			solutionFiles[path] = content;
			state.set(path, bytes);
		}
		const brief =
			lesson.body.trim() === '' ? `# ${lesson.title}\n` : lesson.body.replace(/^\s*\n/, '');
		if (brief.length > 50_000)
			return {
				ok: false,
				problem: `${join(lesson.folder, 'content.md')} is longer than 50,000 characters (a step's brief)`
			};
		steps.push({
			title: lesson.title,
			brief,
			...(Object.keys(solutionFiles).length > 0 ? { solution: { files: solutionFiles } } : {})
		});
	}

	const tutorialMeta = metaOf(root);
	const tutorialTitle =
		tutorialMeta.ok && typeof tutorialMeta.data.title === 'string' && tutorialMeta.data.title.trim()
			? tutorialMeta.data.title.trim()
			: lessons.length === 1
				? (lessons[0] as Lesson).title
				: 'TutorialKit tutorial';
	const manifest = {
		id: scenarioIdFrom(options.id ?? tutorialTitle, 'tutorialkit-tutorial'),
		title: tutorialTitle.slice(0, 120),
		summary: `${lessons.length} lesson${lessons.length === 1 ? '' : 's'} imported from TutorialKit, taught as steps.`,
		brief: `# ${tutorialTitle}\n\n${lessons.map((lesson, index) => `${index + 1}. ${lesson.title}`).join('\n')}\n`,
		steps
	};
	const intents = [
		{
			id: 'INT-001',
			name: tutorialTitle.slice(0, 200),
			status: 'IN_PROGRESS',
			owned_scope: ['**'],
			constraints: [],
			acceptance_criteria: []
		}
	];
	return assembleScenario({
		manifest,
		files: starting,
		intents,
		notCarried: [...new Set(notCarried)]
	});
}
