/**
 * How much of a non-JavaScript file's text is insignificant, by file type: which comments it has,
 * which quotes protect their content, and where whitespace matters. Used to tell a formatting or
 * comment-only edit from a real one. Every choice errs towards "significant": calling a real change
 * a refactor is worse than the reverse.
 */

export interface TextSyntax {
	/** Short name for notes and tests. */
	readonly name: string;
	readonly lineComments: readonly string[];
	readonly blockComments: readonly (readonly [open: string, close: string])[];
	/** Quote characters whose content is kept exactly (a `#` inside a string is not a comment). */
	readonly quotes: readonly string[];
	/**
	 * Leading whitespace: `ignore`d, compared as nesting `levels` (Python, YAML, Markdown:
	 * re-indenting by a consistent amount is formatting, moving a line into a block is not), or
	 * kept `exact` (Makefile recipes need tabs).
	 */
	readonly indentation: 'ignore' | 'levels' | 'exact';
	/** Whether a line break is just whitespace (JSON, CSS, Java) or ends a statement. */
	readonly lineBreaks: 'significant' | 'whitespace';
	/**
	 * Inside a line: `collapse` runs to one space (the space stays significant, `a b` ≠ `ab`);
	 * `tight` also drops spaces next to punctuation where the language's tokenizer ignores them
	 * (`x = 1` = `x=1`, `f( a )` = `f(a)`), keeping one between two operator characters
	 * (`< -` ≠ `<-`); `remove` drops them all (JSON outside strings).
	 */
	readonly spacing: 'collapse' | 'tight' | 'remove';
}

type SyntaxShape = Omit<TextSyntax, 'name'>;

const hashComments: SyntaxShape = {
	lineComments: ['#'],
	blockComments: [],
	quotes: ['"', "'"],
	indentation: 'ignore',
	lineBreaks: 'significant',
	spacing: 'collapse'
};

const cStyleComments: SyntaxShape = {
	lineComments: ['//'],
	blockComments: [['/*', '*/']],
	quotes: ['"', "'", '`'],
	indentation: 'ignore',
	lineBreaks: 'significant',
	spacing: 'collapse'
};

const markupComments: SyntaxShape = {
	lineComments: [],
	blockComments: [['<!--', '-->']],
	quotes: [],
	indentation: 'ignore',
	lineBreaks: 'significant',
	spacing: 'collapse'
};

const whitespaceOnly: SyntaxShape = {
	lineComments: [],
	blockComments: [],
	quotes: [],
	indentation: 'levels',
	lineBreaks: 'significant',
	spacing: 'collapse'
};

const syntaxes: Record<string, SyntaxShape> = {
	python: { ...hashComments, indentation: 'levels', spacing: 'tight' },
	yaml: { ...hashComments, indentation: 'levels' },
	toml: { ...hashComments, spacing: 'tight' },
	shell: { ...hashComments, quotes: ['"', "'", '`'] },
	hash: hashComments,
	makefile: { ...hashComments, quotes: [], indentation: 'exact' },
	// The preprocessor makes C's spaces and line breaks meaningful (`#define F (x)` ≠ `F(x)`).
	c: cStyleComments,
	'c-like': { ...cStyleComments, spacing: 'tight' },
	'c-like-free-form': { ...cStyleComments, spacing: 'tight', lineBreaks: 'whitespace' },
	// `.a .b` ≠ `.a.b` in a selector, so CSS spaces stay.
	css: { ...cStyleComments, lineComments: [], quotes: ['"', "'"], lineBreaks: 'whitespace' },
	'css-preprocessor': { ...cStyleComments, quotes: ['"', "'"], lineBreaks: 'whitespace' },
	json: {
		lineComments: [],
		blockComments: [],
		quotes: ['"'],
		indentation: 'ignore',
		lineBreaks: 'whitespace',
		spacing: 'remove'
	},
	'json-with-comments': {
		...cStyleComments,
		quotes: ['"', "'"],
		lineBreaks: 'whitespace',
		spacing: 'remove'
	},
	sql: { ...cStyleComments, lineComments: ['--'], quotes: ['"', "'"], lineBreaks: 'whitespace' },
	lua: { ...cStyleComments, lineComments: ['--'], blockComments: [], quotes: ['"', "'"] },
	markup: markupComments,
	markdown: { ...markupComments, indentation: 'levels' },
	javascript: cStyleComments,
	'plain text': whitespaceOnly
};

const syntaxByExtension: Record<string, string> = {
	py: 'python',
	pyi: 'python',
	pyw: 'python',
	yaml: 'yaml',
	yml: 'yaml',
	toml: 'toml',
	sh: 'shell',
	bash: 'shell',
	zsh: 'shell',
	ksh: 'shell',
	fish: 'shell',
	rb: 'hash',
	pl: 'hash',
	pm: 'hash',
	r: 'hash',
	cfg: 'hash',
	conf: 'hash',
	properties: 'hash',
	cmake: 'hash',
	tf: 'hash',
	tfvars: 'hash',
	mk: 'makefile',
	c: 'c',
	h: 'c',
	cc: 'c',
	cpp: 'c',
	cxx: 'c',
	hh: 'c',
	hpp: 'c',
	hxx: 'c',
	mm: 'c',
	cs: 'c',
	swift: 'c',
	php: 'c',
	groovy: 'c',
	gradle: 'c',
	zig: 'c',
	sol: 'c',
	proto: 'c',
	go: 'c-like',
	kt: 'c-like',
	kts: 'c-like',
	scala: 'c-like',
	dart: 'c-like',
	java: 'c-like-free-form',
	rs: 'c-like-free-form',
	css: 'css',
	scss: 'css-preprocessor',
	less: 'css-preprocessor',
	json: 'json',
	jsonc: 'json-with-comments',
	json5: 'json-with-comments',
	sql: 'sql',
	lua: 'lua',
	html: 'markup',
	htm: 'markup',
	xhtml: 'markup',
	xml: 'markup',
	svg: 'markup',
	svelte: 'markup',
	vue: 'markup',
	astro: 'markup',
	md: 'markdown',
	markdown: 'markdown',
	mdx: 'markdown'
};

/** Files known by their whole name rather than an extension. */
const syntaxByFileName: Record<string, string> = {
	makefile: 'makefile',
	gnumakefile: 'makefile',
	dockerfile: 'shell',
	containerfile: 'shell',
	'.gitignore': 'hash',
	'.gitattributes': 'hash',
	'.dockerignore': 'hash',
	'.editorconfig': 'hash',
	'.npmrc': 'hash',
	'.env': 'shell',
	'.bashrc': 'shell',
	'.profile': 'shell',
	'.zshrc': 'shell',
	'.intentignore': 'hash',
	'tsconfig.json': 'json-with-comments',
	'jsconfig.json': 'json-with-comments'
};

export function fileNameOf(path: string): string {
	const segments = path.split(/[\\/]/);
	return (segments[segments.length - 1] ?? '').toLowerCase();
}

/** The extension of `path` in lower case, without the dot; '' for none (`.env` has none). */
export function extensionOf(path: string): string {
	const fileName = fileNameOf(path);
	const dot = fileName.lastIndexOf('.');
	return dot > 0 ? fileName.slice(dot + 1) : '';
}

export function textSyntaxFor(path: string): TextSyntax {
	const fileName = fileNameOf(path);
	const name =
		syntaxByFileName[fileName] ??
		(fileName.startsWith('.env.') ? 'shell' : undefined) ??
		(fileName.startsWith('dockerfile.') ? 'shell' : undefined) ??
		syntaxByExtension[extensionOf(path)] ??
		'plain text';
	return textSyntaxNamed(name);
}

/** The text syntax used for JavaScript/TypeScript that could not be parsed. */
export function textSyntaxNamed(name: string): TextSyntax {
	const shape = syntaxes[name];
	if (!shape) throw new Error(`Unknown text syntax "${name}"`);
	return { name, ...shape };
}
