import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collectSubstitutions, groupPipelines, tokenizeCommand } from './tokenize-command.js';

function argvOf(command: string): string[][] {
	const result = tokenizeCommand(command);
	expect(result.error).toBeUndefined();
	return result.segments.map((segment) => segment.argv);
}

describe('tokenizeCommand: words and quotes', () => {
	it('splits plain words on blanks', () => {
		expect(argvOf('ls  -la\tsrc')).toEqual([['ls', '-la', 'src']]);
	});

	it('keeps single-quoted text literal, including $ and backslashes', () => {
		expect(argvOf("echo 'a $HOME \\n b'")).toEqual([['echo', 'a $HOME \\n b']]);
	});

	it('handles backslash escapes in double quotes the way bash does', () => {
		expect(argvOf('echo "a \\"b\\" \\$c \\\\ \\n"')).toEqual([['echo', 'a "b" $c \\ \\n']]);
	});

	it('joins adjacent quoted and unquoted parts into one word', () => {
		expect(argvOf(`echo a"b c"'d'e`)).toEqual([['echo', 'ab cde']]);
	});

	it('keeps empty quoted words', () => {
		expect(argvOf(`printf "" ''`)).toEqual([['printf', '', '']]);
	});

	it('treats a backslash outside quotes as an escape and backslash-newline as a continuation', () => {
		expect(argvOf('echo a\\ b \\; c\\\nd')).toEqual([['echo', 'a b', ';', 'cd']]);
	});

	it('decodes $"…" ANSI-C quoting', () => {
		expect(argvOf("echo $'a\\tb\\x41\\''")).toEqual([['echo', "a\tbA'"]]);
	});

	it('ignores comments only at the start of a word', () => {
		expect(argvOf('echo a#b # a comment; rm x')).toEqual([['echo', 'a#b']]);
	});

	it('does not treat operators inside quotes as operators', () => {
		const result = tokenizeCommand('echo "a > b; c | d && e"');
		expect(result.segments).toHaveLength(1);
		expect(result.segments[0]!.redirects).toEqual([]);
		expect(result.segments[0]!.argv).toEqual(['echo', 'a > b; c | d && e']);
	});
});

describe('tokenizeCommand: operators and pipelines', () => {
	it('splits on every control operator and records which one ended each segment', () => {
		const result = tokenizeCommand('a; b && c || d | e & f |& g\nh');
		expect(result.segments.map((segment) => [segment.argv[0], segment.operator])).toEqual([
			['a', ';'],
			['b', '&&'],
			['c', '||'],
			['d', '|'],
			['e', '&'],
			['f', '|&'],
			['g', '\n'],
			['h', null]
		]);
	});

	it('groups pipelines', () => {
		const result = tokenizeCommand('curl x | grep y | sh; ls');
		const pipelines = groupPipelines(result.segments).map((pipeline) =>
			pipeline.map((segment) => segment.argv[0])
		);
		expect(pipelines).toEqual([['curl', 'grep', 'sh'], ['ls']]);
	});

	it('skips empty segments from doubled separators and blank lines', () => {
		expect(argvOf('ls;;\n\n pwd ;')).toEqual([['ls'], ['pwd']]);
	});

	it('reports a pipe with nothing before it', () => {
		expect(tokenizeCommand('| ls').error).toMatch(/unexpected `\|`/);
	});

	it('reports a line that ends in the middle of a pipeline', () => {
		expect(tokenizeCommand('ls &&').error).toBe('the command ends with `&&`');
		expect(tokenizeCommand('ls |\n').error).toBe('the command ends with `|`');
	});
});

describe('tokenizeCommand: redirects', () => {
	it('reads output, append, input and descriptor redirects', () => {
		const [segment] = tokenizeCommand(
			'cmd >out 2>>err <in 2>&1 &>all &>>more >&2 >|force'
		).segments;
		expect(segment!.argv).toEqual(['cmd']);
		expect(segment!.redirects).toEqual([
			{ operator: '>', target: 'out' },
			{ operator: '2>>', target: 'err' },
			{ operator: '<', target: 'in' },
			{ operator: '2>&', target: '1' },
			{ operator: '&>', target: 'all' },
			{ operator: '&>>', target: 'more' },
			{ operator: '>&', target: '2' },
			{ operator: '>|', target: 'force' }
		]);
	});

	it('treats a redirect glued to a word as a redirect (echo a>b)', () => {
		const [segment] = tokenizeCommand('echo a>b').segments;
		expect(segment!.argv).toEqual(['echo', 'a']);
		expect(segment!.redirects).toEqual([{ operator: '>', target: 'b' }]);
	});

	it('removes quotes from redirect targets', () => {
		const [segment] = tokenizeCommand('echo hi > "my file.txt"').segments;
		expect(segment!.redirects).toEqual([{ operator: '>', target: 'my file.txt' }]);
	});

	it('does not take a quoted number as a descriptor', () => {
		const [segment] = tokenizeCommand('echo "2">x').segments;
		expect(segment!.argv).toEqual(['echo', '2']);
		expect(segment!.redirects).toEqual([{ operator: '>', target: 'x' }]);
	});

	it('reports a redirect without a target', () => {
		expect(tokenizeCommand('echo hi >').error).toBe('redirect `>` has no target');
		expect(tokenizeCommand('echo hi > | cat').error).toBe('redirect `>` has no target');
	});

	it('reads heredoc bodies and here-strings', () => {
		const result = tokenizeCommand("cat <<'EOF' > note.txt\nline $(not run)\nEOF\necho done");
		expect(result.error).toBeUndefined();
		expect(result.segments).toHaveLength(2);
		const [first, second] = result.segments;
		expect(first!.redirects).toEqual([
			{ operator: '<<', target: 'EOF', body: 'line $(not run)' },
			{ operator: '>', target: 'note.txt' }
		]);
		expect(first!.substitutions).toEqual([]);
		expect(second!.argv).toEqual(['echo', 'done']);
		expect(tokenizeCommand('bash <<< "ls -la"').segments[0]!.redirects).toEqual([
			{ operator: '<<<', target: 'ls -la' }
		]);
	});

	it('collects substitutions in unquoted heredocs, which bash expands', () => {
		const result = tokenizeCommand('cat <<EOF\n$(rm -rf /)\nEOF');
		expect(result.segments[0]!.substitutions).toEqual(['rm -rf /']);
	});

	it('strips leading tabs for <<-', () => {
		const result = tokenizeCommand('cat <<-END\n\tindented\n\tEND\nls');
		expect(result.segments[0]!.redirects[0]!.body).toBe('indented');
		expect(result.segments[1]!.argv).toEqual(['ls']);
	});
});

describe('tokenizeCommand: substitutions and subshells', () => {
	it('keeps the inner text of $( … ) and backticks, in and out of double quotes', () => {
		const [segment] = tokenizeCommand('echo $(date) "$(rm -rf /)" `whoami`').segments;
		expect(segment!.substitutions).toEqual(['date', 'rm -rf /', 'whoami']);
		expect(segment!.argv).toEqual(['echo', '$(date)', '$(rm -rf /)', '`whoami`']);
	});

	it('does not see substitutions inside single quotes', () => {
		expect(tokenizeCommand("echo '$(rm -rf /)'").segments[0]!.substitutions).toEqual([]);
	});

	it('handles nested parentheses and quotes inside $( … )', () => {
		const [segment] = tokenizeCommand('echo $(echo "(a)" \')\' $(ls))').segments;
		expect(segment!.substitutions).toEqual([`echo "(a)" ')' $(ls)`]);
	});

	it('reads process substitutions as words whose inner text is kept', () => {
		const [segment] = tokenizeCommand('diff <(ls a) >(tee b)').segments;
		expect(segment!.argv).toEqual(['diff', '<(ls a)', '>(tee b)']);
		expect(segment!.substitutions).toEqual(['ls a', 'tee b']);
	});

	it('reads a subshell as a segment whose substitution is the inner script', () => {
		const [segment] = tokenizeCommand('(cd src && rm x) > log').segments;
		expect(segment!.argv).toEqual([]);
		expect(segment!.substitutions).toEqual(['cd src && rm x']);
		expect(segment!.redirects).toEqual([{ operator: '>', target: 'log' }]);
	});

	it('finds substitutions hidden in ${…} defaults and arithmetic', () => {
		const [segment] = tokenizeCommand('echo ${X:-$(id)} $(( $(wc -l < f) + 1 ))').segments;
		expect(segment!.substitutions).toEqual(['id', 'wc -l < f']);
	});

	it('marks function definitions with a () word', () => {
		expect(argvOf('greet() { echo hi; }')).toEqual([['greet', '()', '{', 'echo', 'hi'], ['}']]);
	});

	it('keeps operators inside [[ … ]] as words', () => {
		expect(argvOf('[[ -f a && b > c ]] || ls')).toEqual([
			['[[', '-f', 'a', '&&', 'b', '>', 'c', ']]'],
			['ls']
		]);
	});
});

describe('tokenizeCommand: errors (the classifier fails closed on them)', () => {
	it.each([
		['echo "abc', 'unterminated double quote'],
		["echo 'abc", 'unterminated single quote'],
		['echo `date', 'unterminated backtick'],
		['echo $(date', 'unterminated `$(`'],
		['echo ${HOME', 'unterminated `${`'],
		["echo $'abc", "unterminated `$'` quote"],
		['(ls', 'unterminated `(`'],
		['ls )', 'unexpected `)`'],
		['echo (x)', 'unexpected `(`'],
		['echo \\', 'the command ends with a lone backslash']
	])('%j → %s', (command, message) => {
		expect(tokenizeCommand(command).error).toBe(message);
	});

	it('returns what it read before the error, including the unfinished segment', () => {
		const result = tokenizeCommand("ls; rm -rf / 'oops");
		expect(result.error).toBe('unterminated single quote');
		expect(result.segments.map((segment) => segment.argv)).toEqual([['ls'], ['rm', '-rf', '/']]);
	});

	it('never throws, whatever the input', () => {
		fc.assert(
			fc.property(fc.string({ maxLength: 60 }), (command) => {
				const result = tokenizeCommand(command);
				expect(Array.isArray(result.segments)).toBe(true);
			}),
			{ numRuns: 2000 }
		);
		fc.assert(
			fc.property(
				fc.array(
					fc.constantFrom(
						'a',
						' ',
						'"',
						"'",
						'\\',
						'$',
						'(',
						')',
						'`',
						'<',
						'>',
						'&',
						'|',
						';',
						'\n',
						'{',
						'}',
						'#'
					),
					{
						maxLength: 40
					}
				),
				(characters) => {
					expect(() => tokenizeCommand(characters.join(''))).not.toThrow();
				}
			),
			{ numRuns: 3000 }
		);
	});
});

describe('collectSubstitutions', () => {
	it('finds $( … ) and backticks regardless of quotes, and returns unterminated ones whole', () => {
		expect(collectSubstitutions(`a '$(one)' \`two\` $(three`)).toEqual(['one', 'two', 'three']);
		expect(collectSubstitutions('plain text')).toEqual([]);
	});
});
