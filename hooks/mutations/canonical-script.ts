/**
 * A canonical token stream for a parsed JavaScript/TypeScript program: two programs get the same
 * stream when they differ only in formatting, comments, literal spelling (`'a'` vs `"a"`, `1.0` vs
 * `1`, redundant parentheses) or in consistent renames of local bindings.
 *
 * Renames are made invisible by scope analysis: every binding gets a number in order of
 * declaration, and each reference is written as the number of the binding it resolves to. So a
 * rename that changes what a name refers to (shadowing, capture of a global) still shows.
 *
 * Kept by name, because renaming them changes a contract: exported bindings, property keys and
 * member names, imported names, labels, private names, globals, ambient (`declare`) bindings, enum
 * and namespace names, and everything in type positions (types are part of the contract; a type's
 * references carry both the name and the binding). The top level of a classic script (no
 * import/export, no CommonJS) is global and kept by name too, as is everything in a file that calls
 * `eval` (eval can see local names).
 */
import type { SyntaxNode } from './parse-script.js';

interface Binding {
	readonly id: number;
	renamable: boolean;
	token?: string;
}

interface Scope {
	readonly parent: Scope | undefined;
	readonly bindings: Map<string, Binding>;
}

interface DeclaredName {
	name: string;
	start: number;
	renamable: boolean;
}

/** Syntax details that never change meaning. Template strings keep `raw`: tags see it. */
const ignoredKeys = new Set([
	'type',
	'start',
	'end',
	'loc',
	'range',
	'raw',
	'extra',
	'shorthand',
	'directive',
	'comments',
	'leadingComments',
	'trailingComments',
	'selfClosing',
	'closingElement'
]);

/** TypeScript nodes that hold runtime code; every other `TS*` node is a type. */
const valueLevelTypeScriptNodes = new Set([
	'TSAsExpression',
	'TSSatisfiesExpression',
	'TSNonNullExpression',
	'TSTypeAssertion',
	'TSInstantiationExpression',
	'TSParameterProperty',
	'TSEnumDeclaration',
	'TSEnumMember',
	'TSEnumBody',
	'TSModuleDeclaration',
	'TSModuleBlock',
	'TSExportAssignment',
	'TSImportEqualsDeclaration',
	'TSExternalModuleReference',
	'TSAbstractMethodDefinition',
	'TSAbstractPropertyDefinition',
	'TSAbstractAccessorProperty'
]);

const moduleStatementTypes = new Set([
	'ImportDeclaration',
	'ExportNamedDeclaration',
	'ExportDefaultDeclaration',
	'ExportAllDeclaration',
	'TSExportAssignment',
	'TSImportEqualsDeclaration'
]);

const commonJsGlobals = ['require', 'module', 'exports'];

function isNode(value: unknown): value is SyntaxNode {
	return (
		typeof value === 'object' && value !== null && typeof (value as SyntaxNode).type === 'string'
	);
}

function child(node: SyntaxNode, key: string): SyntaxNode | undefined {
	const value = node[key];
	return isNode(value) ? value : undefined;
}

function children(node: SyntaxNode, key: string): SyntaxNode[] {
	const value = node[key];
	return Array.isArray(value) ? value.filter(isNode) : [];
}

function nameOf(node: SyntaxNode | undefined): string | undefined {
	return node && node.type === 'Identifier' && typeof node.name === 'string'
		? node.name
		: undefined;
}

function isTypeLevel(node: SyntaxNode): boolean {
	if (node.declare === true) return true;
	if (node.type === 'TSModuleDeclaration') {
		// `declare module 'x' {}` / `declare global {}` hold only ambient declarations.
		return node.global === true || child(node, 'id')?.type === 'Literal';
	}
	return node.type.startsWith('TS') && !valueLevelTypeScriptNodes.has(node.type);
}

/** Identifiers a binding pattern declares (`a`, `{ b: [c = 1], ...d }`, `public e`). */
function collectPatternIdentifiers(pattern: SyntaxNode | undefined, into: SyntaxNode[]): void {
	if (!pattern) return;
	switch (pattern.type) {
		case 'Identifier':
			into.push(pattern);
			break;
		case 'ObjectPattern':
			for (const property of children(pattern, 'properties')) {
				collectPatternIdentifiers(
					property.type === 'RestElement' ? child(property, 'argument') : child(property, 'value'),
					into
				);
			}
			break;
		case 'ArrayPattern':
			for (const element of children(pattern, 'elements')) collectPatternIdentifiers(element, into);
			break;
		case 'AssignmentPattern':
			collectPatternIdentifiers(child(pattern, 'left'), into);
			break;
		case 'RestElement':
			collectPatternIdentifiers(child(pattern, 'argument'), into);
			break;
		case 'TSParameterProperty':
			collectPatternIdentifiers(child(pattern, 'parameter'), into);
			break;
	}
}

/** A constructor's `public x` parameter also names a property, so it keeps its name. */
function isParameterProperty(parameter: SyntaxNode): boolean {
	return parameter.type === 'TSParameterProperty';
}

interface FoundDeclaration {
	identifier: SyntaxNode;
	ambient: boolean;
}

function addPattern(pattern: SyntaxNode | undefined, ambient: boolean, into: FoundDeclaration[]) {
	const identifiers: SyntaxNode[] = [];
	collectPatternIdentifiers(pattern, identifiers);
	for (const identifier of identifiers) into.push({ identifier, ambient });
}

/** `var` declarations hoisted to the enclosing function (or program) scope. */
function collectVarDeclarations(node: SyntaxNode | undefined, into: FoundDeclaration[]): void {
	if (!node) return;
	switch (node.type) {
		case 'VariableDeclaration':
			if (node.kind === 'var') {
				for (const declarator of children(node, 'declarations')) {
					addPattern(child(declarator, 'id'), node.declare === true, into);
				}
			}
			break;
		case 'ExportNamedDeclaration':
			collectVarDeclarations(child(node, 'declaration'), into);
			break;
		case 'BlockStatement':
			for (const statement of children(node, 'body')) collectVarDeclarations(statement, into);
			break;
		case 'IfStatement':
			collectVarDeclarations(child(node, 'consequent'), into);
			collectVarDeclarations(child(node, 'alternate'), into);
			break;
		case 'ForStatement':
			collectVarDeclarations(child(node, 'init'), into);
			collectVarDeclarations(child(node, 'body'), into);
			break;
		case 'ForInStatement':
		case 'ForOfStatement':
			collectVarDeclarations(child(node, 'left'), into);
			collectVarDeclarations(child(node, 'body'), into);
			break;
		case 'WhileStatement':
		case 'DoWhileStatement':
		case 'LabeledStatement':
		case 'WithStatement':
			collectVarDeclarations(child(node, 'body'), into);
			break;
		case 'TryStatement':
			collectVarDeclarations(child(node, 'block'), into);
			collectVarDeclarations(child(child(node, 'handler') ?? node, 'body'), into);
			collectVarDeclarations(child(node, 'finalizer'), into);
			break;
		case 'SwitchStatement':
			for (const switchCase of children(node, 'cases')) {
				for (const statement of children(switchCase, 'consequent')) {
					collectVarDeclarations(statement, into);
				}
			}
			break;
	}
}

/** Block-scoped declarations made directly in a statement list (let, const, class, import, …). */
function collectLexicalDeclarations(statements: SyntaxNode[], into: FoundDeclaration[]): void {
	for (const statement of statements) {
		const declaration =
			statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration'
				? child(statement, 'declaration')
				: statement;
		if (!declaration) continue;
		const ambient = declaration.declare === true;
		switch (declaration.type) {
			case 'VariableDeclaration':
				if (declaration.kind !== 'var') {
					for (const declarator of children(declaration, 'declarations')) {
						addPattern(child(declarator, 'id'), ambient, into);
					}
				}
				break;
			case 'FunctionDeclaration':
			case 'ClassDeclaration':
				addPattern(child(declaration, 'id'), ambient, into);
				break;
			case 'ImportDeclaration':
				for (const specifier of children(declaration, 'specifiers')) {
					addPattern(child(specifier, 'local'), false, into);
				}
				break;
			case 'TSEnumDeclaration':
			case 'TSModuleDeclaration':
			case 'TSImportEqualsDeclaration':
				// Enum and namespace names are emitted objects other code may reach by name.
				addPattern(child(declaration, 'id'), true, into);
				break;
		}
	}
}

/** Local names a statement list exports; their names are part of the module's contract. */
function collectExportedNames(statements: SyntaxNode[]): Set<string> {
	const exported = new Set<string>();
	for (const statement of statements) {
		if (statement.type === 'ExportNamedDeclaration') {
			const declaration = child(statement, 'declaration');
			if (declaration) {
				const found: FoundDeclaration[] = [];
				collectVarDeclarations(declaration, found);
				collectLexicalDeclarations([declaration], found);
				for (const { identifier } of found) exported.add(identifier.name as string);
			}
			if (!statement.source) {
				for (const specifier of children(statement, 'specifiers')) {
					const local = nameOf(child(specifier, 'local'));
					if (local) exported.add(local);
				}
			}
		} else if (statement.type === 'ExportDefaultDeclaration') {
			const declaration = child(statement, 'declaration');
			const name = nameOf(declaration) ?? nameOf(declaration && child(declaration, 'id'));
			if (name) exported.add(name);
		} else if (statement.type === 'TSExportAssignment') {
			const name = nameOf(child(statement, 'expression'));
			if (name) exported.add(name);
		}
	}
	return exported;
}

function isIntrinsicElementName(name: string): boolean {
	return /^[a-z]/.test(name) || name.includes('-');
}

/** JSX whitespace rules (as Babel and TypeScript apply them): what the text renders as. */
function normalizeJsxText(value: string): string {
	const lines = value.split(/\r\n|\n|\r/);
	let lastNonEmptyLine = 0;
	lines.forEach((line, index) => {
		if (/[^ \t]/.test(line)) lastNonEmptyLine = index;
	});
	let text = '';
	lines.forEach((line, index) => {
		let trimmed = line.replace(/\t/g, ' ');
		if (index !== 0) trimmed = trimmed.replace(/^ +/, '');
		if (index !== lines.length - 1) trimmed = trimmed.replace(/ +$/, '');
		if (trimmed) text += index === lastNonEmptyLine ? trimmed : `${trimmed} `;
	});
	return text;
}

function primitiveToken(value: unknown): string {
	switch (typeof value) {
		case 'string':
			return JSON.stringify(value);
		case 'number':
			return Object.is(value, -0) ? 'D-0' : `D${value}`;
		case 'bigint':
			return `B${value}`;
		case 'boolean':
			return value ? 'true' : 'false';
		case 'undefined':
			return 'undefined';
		default:
			return value === null ? 'null' : `?${String(value)}`;
	}
}

/**
 * The fields of a node worth comparing, in a fixed (sorted) order. Sorting keys for every node was
 * the biggest cost of canonicalization; nodes of a type share a handful of key lists, so the sorted
 * list is cached per type and found by comparing the (interned) key strings.
 */
const fieldOrders = new Map<string, { keys: string[]; fields: string[] }[]>();

function fieldsOf(node: object, type: string): string[] {
	const keys = Object.keys(node);
	let known = fieldOrders.get(type);
	if (!known) {
		known = [];
		fieldOrders.set(type, known);
	}
	search: for (const entry of known) {
		if (entry.keys.length !== keys.length) continue;
		for (let index = 0; index < keys.length; index++) {
			if (entry.keys[index] !== keys[index]) continue search;
		}
		return entry.fields;
	}
	const fields = keys.filter((key) => !ignoredKeys.has(key)).sort();
	// Bounded: a type with unusually many shapes is still sorted correctly, just not cached.
	if (known.length < 32) known.push({ keys, fields });
	return fields;
}

const openTokens = new Map<string, string>();

function openToken(type: string): string {
	let token = openTokens.get(type);
	if (token === undefined) {
		token = `(${type}`;
		openTokens.set(type, token);
	}
	return token;
}

function isAbsent(value: unknown): boolean {
	return (
		value === undefined ||
		value === null ||
		value === false ||
		(Array.isArray(value) && value.length === 0)
	);
}

class Canonicalizer {
	readonly tokens: string[] = [];
	/** Names referenced in value positions that no declaration in the file binds. */
	readonly freeNames = new Set<string>();
	private scope: Scope | undefined;
	private nextBindingId = 0;
	private insideReExport = false;
	private readonly nameTokens = new Map<string, string>();

	constructor(
		private readonly topLevelRenamable: boolean,
		private readonly keepLocalNames: boolean
	) {}

	emitNode(node: SyntaxNode, typeContext: boolean): void {
		switch (node.type) {
			case 'Literal':
				return this.emitLiteral(node);
			case 'TemplateElement': {
				const value = node.value as { raw?: string } | undefined;
				this.tokens.push('(TemplateElement', JSON.stringify(value?.raw ?? ''), ')');
				return;
			}
			case 'JSXText':
				this.tokens.push('(JSXText', JSON.stringify(normalizeJsxText(String(node.value))), ')');
				return;
			case 'Identifier':
			case 'JSXIdentifier':
			case 'PrivateIdentifier':
				// Reached only without a parent to say otherwise: a reference.
				return this.emitIdentifier(node, node.type === 'PrivateIdentifier', typeContext);
		}
		if (!typeContext && isTypeLevel(node)) typeContext = true;
		// Types are compared by name, so no scopes are entered inside them.
		if (typeContext) return this.emitFields(node, true);

		switch (node.type) {
			case 'Program':
				return this.emitProgram(node);
			case 'FunctionDeclaration':
			case 'FunctionExpression':
			case 'ArrowFunctionExpression':
				return this.emitFunction(node);
			case 'ClassExpression': {
				const id = child(node, 'id');
				if (!id) return this.emitFields(node, false);
				return this.withScope(this.declared([{ identifier: id, ambient: false }]), () =>
					this.emitFields(node, false)
				);
			}
			case 'BlockStatement': {
				const found: FoundDeclaration[] = [];
				collectLexicalDeclarations(children(node, 'body'), found);
				return this.withScope(this.declared(found), () => this.emitFields(node, false));
			}
			case 'StaticBlock':
			case 'TSModuleBlock':
				return this.emitVarScope(node);
			case 'ForStatement':
			case 'ForInStatement':
			case 'ForOfStatement': {
				const head = child(node, 'init') ?? child(node, 'left');
				if (head?.type !== 'VariableDeclaration' || head.kind === 'var') {
					return this.emitFields(node, false);
				}
				const found: FoundDeclaration[] = [];
				for (const declarator of children(head, 'declarations')) {
					addPattern(child(declarator, 'id'), false, found);
				}
				return this.withScope(this.declared(found), () => this.emitFields(node, false));
			}
			case 'SwitchStatement':
				return this.emitSwitch(node);
			case 'CatchClause': {
				const found: FoundDeclaration[] = [];
				addPattern(child(node, 'param'), false, found);
				return this.withScope(this.declared(found), () => this.emitFields(node, false));
			}
			case 'ExportNamedDeclaration':
			case 'ExportAllDeclaration': {
				this.insideReExport = Boolean(node.source);
				try {
					return this.emitFields(node, false);
				} finally {
					this.insideReExport = false;
				}
			}
			default:
				return this.emitFields(node, false);
		}
	}

	private emitLiteral(node: SyntaxNode): void {
		const regex = node.regex as { pattern?: string; flags?: string } | undefined;
		let token: string;
		if (regex) {
			token = `R${JSON.stringify(regex.pattern ?? '')}/${regex.flags ?? ''}`;
		} else if (typeof node.bigint === 'string') {
			token = `B${canonicalBigint(node.bigint)}`;
		} else {
			token = primitiveToken(node.value);
		}
		this.tokens.push('(Literal', token, ')');
	}

	private emitFields(node: SyntaxNode, typeContext: boolean): void {
		this.tokens.push(openToken(node.type));
		for (const key of fieldsOf(node, node.type)) {
			const value = node[key];
			if (isAbsent(value)) continue;
			this.tokens.push(key);
			this.emitValue(node, key, value, typeContext);
		}
		this.tokens.push(')');
	}

	private emitValue(parent: SyntaxNode, key: string, value: unknown, typeContext: boolean): void {
		if (Array.isArray(value)) {
			this.tokens.push('[');
			for (const item of value) {
				if (isNode(item)) {
					// Whitespace-only JSX text between elements renders as nothing.
					if (item.type === 'JSXText' && normalizeJsxText(String(item.value)) === '') continue;
					this.emitChild(parent, key, item, typeContext);
				} else if (item === null || item === undefined) {
					this.tokens.push('~');
				} else {
					this.emitValue(parent, key, item, typeContext);
				}
			}
			this.tokens.push(']');
		} else if (isNode(value)) {
			this.emitChild(parent, key, value, typeContext);
		} else if (typeof value === 'object' && value !== null) {
			this.tokens.push('{');
			const record = value as Record<string, unknown>;
			for (const field of fieldsOf(record, '{}')) {
				if (isAbsent(record[field])) continue;
				this.tokens.push(field);
				this.emitValue(parent, field, record[field], typeContext);
			}
			this.tokens.push('}');
		} else {
			this.tokens.push(primitiveToken(value));
		}
	}

	private emitChild(parent: SyntaxNode, key: string, node: SyntaxNode, typeContext: boolean): void {
		if (
			node.type === 'Identifier' ||
			node.type === 'JSXIdentifier' ||
			node.type === 'PrivateIdentifier'
		) {
			this.emitIdentifier(node, this.isNamePosition(parent, key, node), typeContext);
		} else {
			this.emitNode(node, typeContext);
		}
	}

	/** Whether an identifier here is a name (kept as written) rather than a reference to a binding. */
	private isNamePosition(parent: SyntaxNode, key: string, node: SyntaxNode): boolean {
		if (node.type === 'PrivateIdentifier') return true;
		switch (key) {
			case 'key':
			case 'property':
				return parent.computed !== true;
			case 'meta':
			case 'label':
			case 'exported':
				return true;
			case 'imported':
				return parent.type === 'ImportSpecifier';
			case 'local':
				return parent.type === 'ExportSpecifier' && this.insideReExport;
			case 'right':
				return parent.type === 'TSQualifiedName';
			case 'id':
				return parent.type === 'TSEnumMember';
			case 'namespace':
				return parent.type === 'JSXNamespacedName';
			case 'name':
				if (parent.type === 'JSXAttribute' || parent.type === 'JSXNamespacedName') return true;
				if (parent.type === 'JSXOpeningElement' || parent.type === 'JSXClosingElement') {
					return isIntrinsicElementName(String(node.name));
				}
				return false;
			default:
				return false;
		}
	}

	private emitIdentifier(node: SyntaxNode, isName: boolean, typeContext: boolean): void {
		const name = String(node.name);
		this.tokens.push(
			openToken(node.type),
			isName ? this.nameToken(name) : this.reference(name, typeContext)
		);
		for (const key of fieldsOf(node, node.type)) {
			if (key === 'name') continue;
			const value = node[key];
			if (isAbsent(value)) continue;
			this.tokens.push(key);
			this.emitValue(node, key, value, typeContext);
		}
		this.tokens.push(')');
	}

	private nameToken(name: string): string {
		let token = this.nameTokens.get(name);
		if (token === undefined) {
			token = `N:${name}`;
			this.nameTokens.set(name, token);
		}
		return token;
	}

	private reference(name: string, typeContext: boolean): string {
		let binding: Binding | undefined;
		for (let scope = this.scope; scope && !binding; scope = scope.parent) {
			binding = scope.bindings.get(name);
		}
		if (typeContext) return binding ? `T:${name}#${binding.id}` : `T:${name}`;
		if (!binding) {
			this.freeNames.add(name);
			return `G:${name}`;
		}
		// Binding tokens are made once per binding: references are the most frequent tokens.
		binding.token ??=
			binding.renamable && !this.keepLocalNames ? `#${binding.id}` : `${name}#${binding.id}`;
		return binding.token;
	}

	private declared(
		found: FoundDeclaration[],
		options: { exported?: Set<string>; renamable?: boolean } = {}
	): DeclaredName[] {
		return found.map(({ identifier, ambient }) => {
			const name = String(identifier.name);
			return {
				name,
				start: identifier.start,
				renamable: options.renamable !== false && !ambient && !options.exported?.has(name)
			};
		});
	}

	private withScope(names: DeclaredName[], emit: () => void): void {
		// Numbering in source order makes the numbers independent of formatting and of the names.
		names.sort((left, right) => left.start - right.start);
		const bindings = new Map<string, Binding>();
		for (const { name, renamable } of names) {
			const existing = bindings.get(name);
			if (existing) existing.renamable &&= renamable;
			else bindings.set(name, { id: this.nextBindingId++, renamable });
		}
		const parent = this.scope;
		this.scope = { parent, bindings };
		try {
			emit();
		} finally {
			this.scope = parent;
		}
	}

	private emitProgram(node: SyntaxNode): void {
		const statements = children(node, 'body');
		const found: FoundDeclaration[] = [];
		for (const statement of statements) collectVarDeclarations(statement, found);
		collectLexicalDeclarations(statements, found);
		const names = this.declared(found, {
			exported: collectExportedNames(statements),
			renamable: this.topLevelRenamable
		});
		this.withScope(names, () => this.emitFields(node, false));
	}

	/** Static blocks and namespace bodies: own `var` scope; a namespace's exports keep their names. */
	private emitVarScope(node: SyntaxNode): void {
		const statements = children(node, 'body');
		const found: FoundDeclaration[] = [];
		for (const statement of statements) collectVarDeclarations(statement, found);
		collectLexicalDeclarations(statements, found);
		const names = this.declared(found, { exported: collectExportedNames(statements) });
		this.withScope(names, () => this.emitFields(node, false));
	}

	private emitFunction(node: SyntaxNode): void {
		const id = child(node, 'id');
		const emit = () => {
			this.tokens.push(openToken(node.type));
			if (id) {
				this.tokens.push('id');
				this.emitIdentifier(id, false, false);
			}
			const parameterDeclarations: FoundDeclaration[] = [];
			for (const parameter of children(node, 'params')) {
				addPattern(parameter, isParameterProperty(parameter), parameterDeclarations);
			}
			const parameterNames = new Set(
				parameterDeclarations.map(({ identifier }) => identifier.name)
			);
			const parameters = this.declared(parameterDeclarations);
			this.withScope(parameters, () => {
				for (const key of fieldsOf(node, node.type)) {
					if (key === 'id' || key === 'body') continue;
					const value = node[key];
					if (isAbsent(value)) continue;
					this.tokens.push(key);
					this.emitValue(node, key, value, false);
				}
				const body = child(node, 'body');
				if (!body) return;
				this.tokens.push('body');
				if (body.type !== 'BlockStatement') return this.emitChild(node, 'body', body, false);
				// The body is its own scope: a default parameter cannot see the body's declarations.
				// A `var` that repeats a parameter's name is that parameter.
				const statements = children(body, 'body');
				const found: FoundDeclaration[] = [];
				for (const statement of statements) collectVarDeclarations(statement, found);
				const declarations = found.filter(({ identifier }) => !parameterNames.has(identifier.name));
				collectLexicalDeclarations(statements, declarations);
				this.withScope(this.declared(declarations), () => this.emitFields(body, false));
			});
			this.tokens.push(')');
		};
		// A function expression's own name is visible only inside it.
		if (node.type === 'FunctionExpression' && id) {
			this.withScope(this.declared([{ identifier: id, ambient: false }]), emit);
		} else {
			emit();
		}
	}

	private emitSwitch(node: SyntaxNode): void {
		this.tokens.push('(SwitchStatement', 'discriminant');
		const discriminant = child(node, 'discriminant');
		if (discriminant) this.emitChild(node, 'discriminant', discriminant, false);
		const cases = children(node, 'cases');
		const found: FoundDeclaration[] = [];
		collectLexicalDeclarations(
			cases.flatMap((switchCase) => children(switchCase, 'consequent')),
			found
		);
		this.withScope(this.declared(found), () => {
			this.tokens.push('cases');
			this.emitValue(node, 'cases', cases, false);
		});
		this.tokens.push(')');
	}
}

function canonicalBigint(digits: string): string {
	try {
		return BigInt(digits.replace(/_/g, '')).toString();
	} catch {
		return digits;
	}
}

function hasModuleSyntax(program: SyntaxNode): boolean {
	return children(program, 'body').some((statement) => moduleStatementTypes.has(statement.type));
}

/**
 * The canonical token stream of `program`. `moduleFile` says the file is a module whatever its
 * content (`.mjs`, `.cjs`, `.mts`, `.cts`); otherwise a file with neither import/export nor
 * CommonJS globals is a classic script, whose top-level names are globals.
 */
export function canonicalScript(program: SyntaxNode, options: { moduleFile: boolean }): string[] {
	const first = new Canonicalizer(true, false);
	first.emitNode(program, false);
	const usesEval = first.freeNames.has('eval');
	const isModule =
		options.moduleFile ||
		hasModuleSyntax(program) ||
		commonJsGlobals.some((name) => first.freeNames.has(name));
	if (isModule && !usesEval) return first.tokens;
	const second = new Canonicalizer(isModule, usesEval);
	second.emitNode(program, false);
	return second.tokens;
}
