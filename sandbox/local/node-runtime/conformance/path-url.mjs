import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
console.log(path.join('/a/b', '../c', './d.txt'), path.resolve('/x', 'y', '..', 'z'));
console.log(
	path.dirname('/a/b/c.txt'),
	path.basename('/a/b/c.txt', '.txt'),
	path.extname('archive.tar.gz')
);
console.log(
	path.relative('/data/orandea/test/aaa', '/data/orandea/impl/bbb'),
	path.normalize('a//b/../c/')
);
console.log(
	JSON.stringify(path.parse('/home/user/dir/file.txt')),
	path.isAbsolute('./x'),
	path.sep
);
console.log(
	path.format({ dir: '/home/user', base: 'file.txt' }),
	path.join(''),
	path.posix === path
);
const url = new URL('https://user:pw@example.com:8080/p/a/t/h?query=string&a=1#hash');
console.log(url.host, url.port, url.pathname, url.search, url.hash, url.origin, url.username);
console.log(url.searchParams.get('a'), [...url.searchParams.keys()].join(','));
url.searchParams.append('b', 'two words');
console.log(url.href);
console.log(new URL('../x?y=1', 'http://h/a/b/c').href);
console.log(fileURLToPath('file:///tmp/some%20file.txt'), pathToFileURL('/tmp/a b.txt').href);
const params = new URLSearchParams({ q: 'x y', n: '1' });
console.log(params.toString(), params.has('q'), params.size);
try {
	new URL('not a url');
} catch (error) {
	console.log(error.code, error instanceof TypeError);
}
