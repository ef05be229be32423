/**
 * Node modules whose purpose is outside the offline sandbox, present so that a library that
 * loads them at the top works, with every operation that would leave the sandbox failing
 * clearly when called: `node:http`/`node:https` (STATUS_CODES, METHODS, Agent; createServer,
 * request and get throw ERR_OFFLINE), `node:child_process` (spawn/exec/fork emit or throw
 * ENOSYS, the *Sync forms return or throw it; no process is ever started), `node:net`
 * (isIP/isIPv4/isIPv6; no sockets). Plain ES2020 in a string.
 */
export const offlineModulesPrelude = String.raw`
(function () {
	'use strict';
	var define = globalThis.__threadlineDefineBuiltin;
	function offlineError(what) {
		var error = new Error(what + ' is not available in the offline sandbox (no network, no processes); use the WebContainer sandbox');
		error.code = 'ERR_OFFLINE';
		return error;
	}
	var STATUS_CODES = { 100: 'Continue', 101: 'Switching Protocols', 102: 'Processing', 103: 'Early Hints', 200: 'OK', 201: 'Created', 202: 'Accepted', 203: 'Non-Authoritative Information', 204: 'No Content', 205: 'Reset Content', 206: 'Partial Content', 207: 'Multi-Status', 208: 'Already Reported', 226: 'IM Used', 300: 'Multiple Choices', 301: 'Moved Permanently', 302: 'Found', 303: 'See Other', 304: 'Not Modified', 305: 'Use Proxy', 307: 'Temporary Redirect', 308: 'Permanent Redirect', 400: 'Bad Request', 401: 'Unauthorized', 402: 'Payment Required', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 406: 'Not Acceptable', 407: 'Proxy Authentication Required', 408: 'Request Timeout', 409: 'Conflict', 410: 'Gone', 411: 'Length Required', 412: 'Precondition Failed', 413: 'Payload Too Large', 414: 'URI Too Long', 415: 'Unsupported Media Type', 416: 'Range Not Satisfiable', 417: 'Expectation Failed', 418: "I'm a Teapot", 421: 'Misdirected Request', 422: 'Unprocessable Entity', 423: 'Locked', 424: 'Failed Dependency', 425: 'Too Early', 426: 'Upgrade Required', 428: 'Precondition Required', 429: 'Too Many Requests', 431: 'Request Header Fields Too Large', 451: 'Unavailable For Legal Reasons', 500: 'Internal Server Error', 501: 'Not Implemented', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout', 505: 'HTTP Version Not Supported', 506: 'Variant Also Negotiates', 507: 'Insufficient Storage', 508: 'Loop Detected', 509: 'Bandwidth Limit Exceeded', 510: 'Not Extended', 511: 'Network Authentication Required' };
	var METHODS = ['ACL', 'BIND', 'CHECKOUT', 'CONNECT', 'COPY', 'DELETE', 'GET', 'HEAD', 'LINK', 'LOCK', 'M-SEARCH', 'MERGE', 'MKACTIVITY', 'MKCALENDAR', 'MKCOL', 'MOVE', 'NOTIFY', 'OPTIONS', 'PATCH', 'POST', 'PROPFIND', 'PROPPATCH', 'PURGE', 'PUT', 'QUERY', 'REBIND', 'REPORT', 'SEARCH', 'SOURCE', 'SUBSCRIBE', 'TRACE', 'UNBIND', 'UNLINK', 'UNLOCK', 'UNSUBSCRIBE'];
	function Agent(options) { this.options = options || {}; this.maxSockets = Infinity; }
	function httpModule(name) {
		return {
			STATUS_CODES: STATUS_CODES,
			METHODS: METHODS,
			Agent: Agent,
			globalAgent: new Agent(),
			maxHeaderSize: 16384,
			createServer: function () { throw offlineError(name + '.createServer'); },
			request: function () { throw offlineError(name + '.request'); },
			get: function () { throw offlineError(name + '.get'); },
			validateHeaderName: function (header) { if (typeof header !== 'string' || !/^[!#$%&'*+\-.^_\x60|~0-9A-Za-z]+$/.test(header)) { var error = new TypeError('Header name must be a valid HTTP token ["' + header + '"]'); error.code = 'ERR_INVALID_HTTP_TOKEN'; throw error; } },
			validateHeaderValue: function (header, value) { if (value === undefined) { var error = new TypeError('Invalid value "undefined" for header "' + header + '"'); error.code = 'ERR_HTTP_INVALID_HEADER_VALUE'; throw error; } }
		};
	}
	define('http', function () { return httpModule('http'); });
	define('https', function () { return httpModule('https'); });

	function enosys(syscall, file) {
		var error = new Error(syscall + ' ' + file + ' ENOSYS: the offline sandbox starts no processes; use the WebContainer sandbox');
		error.code = 'ENOSYS';
		error.errno = -38;
		error.syscall = syscall;
		error.path = file;
		return error;
	}
	function childProcess() {
		var EventEmitter = globalThis.__threadlineEvents.EventEmitter;
		function failedChild(syscall, file, callback) {
			var child = new EventEmitter();
			child.pid = undefined;
			child.exitCode = null;
			child.killed = false;
			child.stdin = null; child.stdout = null; child.stderr = null;
			child.kill = function () { return false; };
			var error = enosys(syscall, file);
			process.nextTick(function () {
				if (typeof callback === 'function') callback(error, '', '');
				if (child.listenerCount('error') > 0 || typeof callback !== 'function') child.emit('error', error);
				child.emit('close', -38, null);
			});
			return child;
		}
		function lastFunction(args) { for (var i = args.length - 1; i >= 0; i--) if (typeof args[i] === 'function') return args[i]; return undefined; }
		return {
			spawn: function (file) { return failedChild('spawn', String(file)); },
			fork: function (file) { return failedChild('spawn', String(file)); },
			exec: function (command) { return failedChild('spawn', String(command), lastFunction(arguments)); },
			execFile: function (file) { return failedChild('spawn', String(file), lastFunction(arguments)); },
			spawnSync: function (file) { return { pid: 0, output: null, stdout: null, stderr: null, status: null, signal: null, error: enosys('spawnSync', String(file)) }; },
			execSync: function (command) { throw enosys('spawnSync', String(command)); },
			execFileSync: function (file) { throw enosys('spawnSync', String(file)); }
		};
	}
	define('child_process', childProcess);

	function isIPv4(text) { return /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/.test(String(text)); }
	function isIPv6(text) {
		text = String(text);
		if (text.indexOf('%') !== -1) text = text.slice(0, text.indexOf('%'));
		var tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
		if (tail) { if (!isIPv4(tail[1])) return false; text = text.slice(0, -tail[1].length) + '0:0'; }
		var halves = text.split('::');
		if (halves.length > 2) return false;
		var groups = function (part) { return part === '' ? [] : part.split(':'); };
		var head = groups(halves[0]);
		var rest = halves.length === 2 ? groups(halves[1]) : [];
		var all = head.concat(rest);
		if (!all.every(function (group) { return /^[0-9a-fA-F]{1,4}$/.test(group); })) return false;
		return halves.length === 2 ? all.length < 8 : all.length === 8;
	}
	define('net', function () {
		return {
			isIP: function (text) { return isIPv4(text) ? 4 : isIPv6(text) ? 6 : 0; },
			isIPv4: isIPv4,
			isIPv6: isIPv6,
			createServer: function () { throw offlineError('net.createServer'); },
			connect: function () { throw offlineError('net.connect'); },
			createConnection: function () { throw offlineError('net.createConnection'); }
		};
	});
})();
`;
