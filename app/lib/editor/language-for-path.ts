/**
 * Which Monaco language a workspace file opens in. Ids are the ones Monaco 0.57 registers (plus
 * `yaml`, which monaco-yaml takes over); anything we do not recognise is `plaintext`, never a guess
 * that would paint a file with the wrong grammar.
 */

export const plainTextLanguage = 'plaintext';

const languageByExtension: ReadonlyMap<string, string> = new Map([
	['ts', 'typescript'],
	['mts', 'typescript'],
	['cts', 'typescript'],
	['tsx', 'typescript'],
	['js', 'javascript'],
	['mjs', 'javascript'],
	['cjs', 'javascript'],
	['jsx', 'javascript'],
	['json', 'json'],
	// Monaco has no separate JSONC language: the JSON worker allows comments in these files instead
	// (see language-defaults.ts).
	['jsonc', 'json'],
	['json5', 'json'],
	['webmanifest', 'json'],
	['map', 'json'],
	['md', 'markdown'],
	['markdown', 'markdown'],
	['mdx', 'mdx'],
	['yaml', 'yaml'],
	['yml', 'yaml'],
	['css', 'css'],
	['scss', 'scss'],
	['less', 'less'],
	['html', 'html'],
	['htm', 'html'],
	['xhtml', 'html'],
	// Svelte and Vue files are HTML with script and style blocks: the closest grammar Monaco has.
	['svelte', 'html'],
	['vue', 'html'],
	['hbs', 'handlebars'],
	['handlebars', 'handlebars'],
	['xml', 'xml'],
	['svg', 'xml'],
	['py', 'python'],
	['pyi', 'python'],
	['pyw', 'python'],
	['sh', 'shell'],
	['bash', 'shell'],
	['zsh', 'shell'],
	['ksh', 'shell'],
	['ps1', 'powershell'],
	['bat', 'bat'],
	['cmd', 'bat'],
	['sql', 'sql'],
	['graphql', 'graphql'],
	['gql', 'graphql'],
	['go', 'go'],
	['rs', 'rust'],
	['java', 'java'],
	['kt', 'kotlin'],
	['kts', 'kotlin'],
	['c', 'c'],
	['h', 'c'],
	['cpp', 'cpp'],
	['cc', 'cpp'],
	['cxx', 'cpp'],
	['hpp', 'cpp'],
	['hh', 'cpp'],
	['cs', 'csharp'],
	['rb', 'ruby'],
	['php', 'php'],
	['swift', 'swift'],
	['lua', 'lua'],
	['pl', 'perl'],
	['r', 'r'],
	['scala', 'scala'],
	['dart', 'dart'],
	['ex', 'elixir'],
	['exs', 'elixir'],
	['proto', 'protobuf'],
	['tf', 'hcl'],
	['hcl', 'hcl'],
	['sol', 'solidity'],
	['ini', 'ini'],
	['cfg', 'ini'],
	['conf', 'ini'],
	['properties', 'ini'],
	['dockerfile', 'dockerfile'],
	['txt', plainTextLanguage],
	['log', plainTextLanguage],
	['csv', plainTextLanguage]
]);

/** Whole file names (lower-cased) whose language the extension does not tell. */
const languageByFileName: ReadonlyMap<string, string> = new Map([
	['dockerfile', 'dockerfile'],
	['containerfile', 'dockerfile'],
	['.bashrc', 'shell'],
	['.bash_profile', 'shell'],
	['.profile', 'shell'],
	['.zshrc', 'shell'],
	['.npmrc', 'ini'],
	['.editorconfig', 'ini'],
	['.gitconfig', 'ini'],
	['.babelrc', 'json'],
	['.eslintrc', 'json'],
	['.prettierrc', 'json'],
	['.jshintrc', 'json']
]);

export function languageForPath(path: string): string {
	const fileName = (path.split(/[\\/]/).pop() ?? '').toLowerCase();
	if (fileName === '') return plainTextLanguage;

	const byName = languageByFileName.get(fileName);
	if (byName) return byName;
	// `.env`, `.env.local`, `.env.production`: KEY=value lines with # comments, which ini colours well.
	if (fileName === '.env' || fileName.startsWith('.env.')) return 'ini';
	// `Dockerfile.dev`, `Dockerfile.prod`: the variant comes after the name.
	if (fileName.startsWith('dockerfile.')) return 'dockerfile';

	const lastDot = fileName.lastIndexOf('.');
	// A leading dot starts a hidden name (`.gitignore`), not an extension.
	if (lastDot <= 0) return plainTextLanguage;
	return languageByExtension.get(fileName.slice(lastDot + 1)) ?? plainTextLanguage;
}
