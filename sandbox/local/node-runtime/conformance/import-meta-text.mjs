// `import.meta` written inside strings, template text, comments and regexes is text, not the
// module's meta object; real `import.meta` expressions (template expressions included) still work.
console.log('import.meta.url');
console.log('import.meta.dirname', `import.meta.filename`);
// import.meta.url in a comment
/* import.meta */
console.log(/import\.meta/.test('import.meta'), 'a/import.meta/b'.split('/').length);
console.log(
	import.meta.url.startsWith('file:///'),
	import.meta.url.endsWith('/import-meta-text.mjs')
);
console.log(
	`${import.meta.filename.endsWith('import-meta-text.mjs')} import.meta ${typeof import.meta.dirname}`
);
console.log(typeof import.meta.resolve);
