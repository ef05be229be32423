/**
 * `node:stream` and `node:stream/promises` for the offline runtime: Readable, Writable, Duplex,
 * Transform, PassThrough and the legacy Stream, written after Node's own algorithms (the
 * `_readableState`/`_writableState` fields libraries look at, highWaterMark and backpressure,
 * 'data'/'readable'/'end'/'finish'/'drain'/'close'/'error' in Node's order, flowing and paused
 * modes, setEncoding through string_decoder, pipe/unpipe, destroy/_destroy, _final, _writev,
 * cork/uncork, objectMode, async iteration, Readable.from), and pipeline/finished/addAbortSignal
 * (callback and promise forms). Registered as lazy built-ins (`__threadlineDefineBuiltin`) and
 * evaluated after runtime-prelude.ts. Plain ES2020 in a string.
 */
export const streamPrelude = String.raw`
(function () {
	'use strict';
	var define = globalThis.__threadlineDefineBuiltin;
	var builtin = globalThis.__threadlineBuiltin;
	var events = globalThis.__threadlineEvents;
	var EE = events.EventEmitter;
	function codeError(Kind, code, message) { var error = new Kind(message); error.code = code; return error; }
	function nextTick(fn) { var args = Array.prototype.slice.call(arguments, 1); process.nextTick(function () { fn.apply(undefined, args); }); }
	function inherits(Child, Parent) { Object.setPrototypeOf(Child.prototype, Parent.prototype); Object.setPrototypeOf(Child, Parent); }
	function toBuffer(chunk, encoding) { return typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk instanceof Buffer ? chunk : Buffer.from(chunk.buffer ? new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength) : chunk); }
	function defaultHighWaterMark(objectMode) { return objectMode ? 16 : 65536; }
	function highWaterMarkOf(options, objectMode, key) {
		var value = options && options.highWaterMark !== undefined ? options.highWaterMark : options && options[key] !== undefined ? options[key] : undefined;
		if (value === undefined || value === null) return defaultHighWaterMark(objectMode);
		if (!(Number.isInteger(value) && value >= 0)) throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', "The property 'options." + (options && options.highWaterMark !== undefined ? 'highWaterMark' : key) + "' is invalid. Received " + globalThis.__threadlineInspect(value));
		return value;
	}

	function Stream(options) { EE.call(this, options); }
	inherits(Stream, EE);
	Stream.prototype.pipe = function (dest, options) {
		var source = this;
		function ondata(chunk) { if (dest.writable && dest.write(chunk) === false && source.pause) source.pause(); }
		source.on('data', ondata);
		function ondrain() { if (source.readable && source.resume) source.resume(); }
		dest.on('drain', ondrain);
		if (!dest._isStdio && (!options || options.end !== false)) { source.on('end', function () { dest.end(); }); }
		dest.emit('pipe', source);
		return dest;
	};

	// ---- destroy (shared) ----
	function destroy(error, callback) {
		var r = this._readableState;
		var w = this._writableState;
		var s = w || r;
		if ((w && w.destroyed) || (r && r.destroyed)) {
			if (typeof callback === 'function') callback();
			return this;
		}
		if (error) {
			if (w && !w.errored) w.errored = error;
			if (r && !r.errored) r.errored = error;
		}
		if (w) w.destroyed = true;
		if (r) r.destroyed = true;
		var self = this;
		var called = false;
		function onDestroy(err) {
			if (called) return;
			called = true;
			if (err) {
				if (w && !w.errored) w.errored = err;
				if (r && !r.errored) r.errored = err;
			}
			if (w) w.closed = true;
			if (r) r.closed = true;
			if (typeof callback === 'function') callback(err);
			nextTick(function () {
				if (err && !((w && w.errorEmitted) || (r && r.errorEmitted))) {
					if (w) w.errorEmitted = true;
					if (r) r.errorEmitted = true;
					self.emit('error', err);
				}
				if (w) w.closeEmitted = true;
				if (r) r.closeEmitted = true;
				if (s.emitClose) self.emit('close');
			});
		}
		try { this._destroy(error || null, onDestroy); } catch (thrown) { onDestroy(thrown); }
		return this;
	}
	function errorOrDestroy(stream, error, sync) {
		var r = stream._readableState;
		var w = stream._writableState;
		if ((w && w.destroyed) || (r && r.destroyed)) return;
		if ((r && r.autoDestroy) || (w && w.autoDestroy)) stream.destroy(error);
		else if (error) {
			if (w && !w.errored) w.errored = error;
			if (r && !r.errored) r.errored = error;
			var emit = function () {
				if ((w && w.errorEmitted) || (r && r.errorEmitted)) return;
				if (w) w.errorEmitted = true;
				if (r) r.errorEmitted = true;
				stream.emit('error', error);
			};
			if (sync) nextTick(emit); else emit();
		}
	}

	// ---- Readable ----
	function ReadableState(options, stream, isDuplex) {
		options = options || {};
		this.objectMode = !!(options.objectMode || (isDuplex && options.readableObjectMode));
		this.highWaterMark = highWaterMarkOf(options, this.objectMode, 'readableHighWaterMark');
		this.buffer = [];
		this.length = 0;
		this.pipes = [];
		this.flowing = null;
		this.ended = false;
		this.endEmitted = false;
		this.reading = false;
		this.constructed = true;
		this.sync = true;
		this.needReadable = false;
		this.emittedReadable = false;
		this.readableListening = false;
		this.resumeScheduled = false;
		this.errorEmitted = false;
		this.emitClose = options.emitClose !== false;
		this.autoDestroy = options.autoDestroy !== false;
		this.destroyed = false;
		this.errored = null;
		this.closed = false;
		this.closeEmitted = false;
		this.defaultEncoding = options.defaultEncoding || 'utf8';
		this.awaitDrainWriters = null;
		this.multiAwaitDrain = false;
		this.readingMore = false;
		this.dataEmitted = false;
		this.decoder = null;
		this.encoding = null;
		if (options.encoding) {
			this.decoder = new (builtin('string_decoder').StringDecoder)(options.encoding);
			this.encoding = options.encoding;
		}
	}
	function Readable(options) {
		if (!(this instanceof Readable)) return new Readable(options);
		var isDuplex = this instanceof Duplex;
		this._readableState = new ReadableState(options, this, isDuplex);
		if (options) {
			if (typeof options.read === 'function') this._read = options.read;
			if (typeof options.destroy === 'function') this._destroy = options.destroy;
			if (typeof options.construct === 'function') this._construct = options.construct;
			if (options.signal && !isDuplex) addAbortSignal(options.signal, this);
		}
		Stream.call(this, options);
		constructStream(this);
	}
	inherits(Readable, Stream);
	function constructStream(stream) {
		if (typeof stream._construct !== 'function') return;
		var r = stream._readableState;
		var w = stream._writableState;
		if (r) r.constructed = false;
		if (w) w.constructed = false;
		nextTick(function () {
			var called = false;
			try {
				stream._construct(function (error) {
					if (called) return;
					called = true;
					if (r) r.constructed = true;
					if (w) w.constructed = true;
					if (error) { stream.destroy(error); return; }
					if (r && (r.needReadable || r.flowing)) maybeReadMore(stream, r);
					if (w) { clearBuffer(stream, w); finishMaybe(stream, w); }
				});
			} catch (error) { stream.destroy(error); }
		});
	}
	Readable.ReadableState = ReadableState;
	Readable.prototype.destroy = destroy;
	Readable.prototype._undestroy = function () {
		var r = this._readableState;
		r.destroyed = false; r.closed = false; r.closeEmitted = false; r.errored = null; r.errorEmitted = false; r.ended = r.endEmitted = false; r.reading = false;
	};
	Readable.prototype._destroy = function (error, callback) { callback(error); };
	Readable.prototype._read = function () { throw codeError(Error, 'ERR_METHOD_NOT_IMPLEMENTED', 'The _read() method is not implemented'); };
	Readable.prototype.push = function (chunk, encoding) { return addChunk(this, chunk, encoding, false); };
	Readable.prototype.unshift = function (chunk, encoding) { return addChunk(this, chunk, encoding, true); };
	function addChunk(stream, chunk, encoding, front) {
		var state = stream._readableState;
		if (chunk === null) {
			state.reading = false;
			onEofChunk(stream, state);
			return false;
		}
		if (!state.objectMode) {
			if (typeof chunk === 'string') {
				encoding = encoding || state.defaultEncoding;
				if (state.encoding !== encoding) chunk = Buffer.from(chunk, encoding);
			} else if (chunk instanceof Uint8Array) {
				if (!(chunk instanceof Buffer)) chunk = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
			} else if (chunk !== undefined) {
				errorOrDestroy(stream, codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "chunk" argument must be of type string or an instance of Buffer or Uint8Array. Received ' + globalThis.__threadlineInspect(chunk)));
				return false;
			}
		}
		if (chunk === undefined || (!state.objectMode && chunk.length === 0)) {
			if (!front) state.reading = false;
			if (!front) maybeReadMore(stream, state);
			return !state.ended && (state.length < state.highWaterMark || state.length === 0);
		}
		if (front) {
			if (state.endEmitted) { errorOrDestroy(stream, codeError(Error, 'ERR_STREAM_UNSHIFT_AFTER_END_EVENT', 'stream.unshift() after end event')); return false; }
			if (state.destroyed || state.errored) return false;
			if (state.decoder && typeof chunk !== 'string' && !state.objectMode) chunk = state.decoder.write(chunk);
			state.length += state.objectMode ? 1 : chunk.length;
			state.buffer.unshift(chunk);
			if (state.needReadable) emitReadable(stream);
			maybeReadMore(stream, state);
			return state.length < state.highWaterMark;
		}
		if (state.ended) { errorOrDestroy(stream, codeError(Error, 'ERR_STREAM_PUSH_AFTER_EOF', 'stream.push() after EOF')); return false; }
		if (state.destroyed || state.errored) return false;
		state.reading = false;
		if (state.decoder && !state.objectMode && typeof chunk !== 'string') {
			chunk = state.decoder.write(chunk);
			if (chunk.length === 0) { maybeReadMore(stream, state); return state.length < state.highWaterMark; }
		}
		if (state.flowing && state.length === 0 && !state.sync && stream.listenerCount('data') > 0) {
			state.dataEmitted = true;
			stream.emit('data', chunk);
		} else {
			state.length += state.objectMode ? 1 : chunk.length;
			state.buffer.push(chunk);
			if (state.needReadable) emitReadable(stream);
		}
		maybeReadMore(stream, state);
		return !state.ended && (state.length < state.highWaterMark || state.length === 0);
	}
	function onEofChunk(stream, state) {
		if (state.ended) return;
		if (state.decoder) {
			var rest = state.decoder.end();
			if (rest && rest.length) { state.buffer.push(rest); state.length += state.objectMode ? 1 : rest.length; }
		}
		state.ended = true;
		if (state.sync) emitReadable(stream);
		else {
			state.needReadable = false;
			state.emittedReadable = true;
			emitReadableNow(stream);
		}
	}
	function emitReadable(stream) {
		var state = stream._readableState;
		state.needReadable = false;
		if (!state.emittedReadable) {
			state.emittedReadable = true;
			nextTick(emitReadableNow, stream);
		}
	}
	function emitReadableNow(stream) {
		var state = stream._readableState;
		if (!state.destroyed && !state.errored && (state.length || state.ended)) {
			stream.emit('readable');
			state.emittedReadable = false;
		}
		state.needReadable = !state.flowing && !state.ended && state.length <= state.highWaterMark;
		flow(stream);
	}
	function maybeReadMore(stream, state) {
		if (!state.readingMore && state.constructed) {
			state.readingMore = true;
			nextTick(function () {
				while (!state.reading && !state.ended && (state.length < state.highWaterMark || (state.flowing && state.length === 0))) {
					var before = state.length;
					stream.read(0);
					if (before === state.length) break;
				}
				state.readingMore = false;
			});
		}
	}
	function howMuchToRead(n, state) {
		if (n <= 0 || (state.length === 0 && state.ended)) return 0;
		if (state.objectMode) return 1;
		if (n !== n) return state.flowing && state.length ? (state.buffer[0] ? state.buffer[0].length : 0) : state.length;
		if (n <= state.length) return n;
		return state.ended ? state.length : 0;
	}
	Readable.prototype.read = function (n) {
		if (n === undefined) n = NaN;
		else if (typeof n !== 'number') n = parseInt(n, 10);
		var state = this._readableState;
		var original = n;
		if (n > state.highWaterMark) {
			var size = 1;
			while (size < n) size *= 2;
			state.highWaterMark = size;
		}
		if (n !== 0) state.emittedReadable = false;
		if (n === 0 && state.needReadable && ((state.highWaterMark !== 0 ? state.length >= state.highWaterMark : state.length > 0) || state.ended)) {
			if (state.length === 0 && state.ended) endReadable(this);
			else emitReadable(this);
			return null;
		}
		n = howMuchToRead(n, state);
		if (n === 0 && state.ended) {
			if (state.length === 0) endReadable(this);
			return null;
		}
		var doRead = state.needReadable;
		if (state.length === 0 || state.length - n < state.highWaterMark) doRead = true;
		if (state.ended || state.reading || state.destroyed || state.errored || !state.constructed) doRead = false;
		else if (doRead) {
			state.reading = true;
			state.sync = true;
			if (state.length === 0) state.needReadable = true;
			try { this._read(state.highWaterMark); } catch (error) { errorOrDestroy(this, error); }
			state.sync = false;
			if (!state.reading) n = howMuchToRead(original, state);
		}
		var result = n > 0 ? fromList(n, state) : null;
		if (result === null) {
			state.needReadable = state.length <= state.highWaterMark;
			n = 0;
		} else {
			state.length -= state.objectMode ? 1 : n;
			if (state.multiAwaitDrain) state.awaitDrainWriters.clear(); else state.awaitDrainWriters = null;
		}
		if (state.length === 0) {
			if (!state.ended) state.needReadable = true;
			if (original !== n && state.ended) endReadable(this);
		}
		if (result !== null && !state.errorEmitted && !state.closeEmitted) {
			state.dataEmitted = true;
			this.emit('data', result);
		}
		return result;
	};
	function fromList(n, state) {
		if (state.length === 0) return null;
		if (state.objectMode) return state.buffer.shift();
		var buffer = state.buffer;
		if (n >= state.length) {
			var all = state.decoder ? buffer.join('') : buffer.length === 1 ? buffer[0] : Buffer.concat(buffer, state.length);
			state.buffer = [];
			return all;
		}
		var first = buffer[0];
		if (n < first.length) {
			buffer[0] = first.slice(n);
			return first.slice(0, n);
		}
		if (n === first.length) return buffer.shift();
		if (state.decoder) {
			var text = '';
			while (text.length < n) {
				var piece = buffer[0];
				var need = n - text.length;
				if (piece.length <= need) { text += piece; buffer.shift(); }
				else { text += piece.slice(0, need); buffer[0] = piece.slice(need); }
			}
			return text;
		}
		var out = Buffer.allocUnsafe(n);
		var offset = 0;
		while (offset < n) {
			var part = buffer[0];
			var take = Math.min(part.length, n - offset);
			out.set(part.subarray(0, take), offset);
			offset += take;
			if (take === part.length) buffer.shift(); else buffer[0] = part.slice(take);
		}
		return out;
	}
	function endReadable(stream) {
		var state = stream._readableState;
		if (!state.endEmitted) {
			state.ended = true;
			nextTick(function () {
				if (!state.errored && !state.closeEmitted && !state.endEmitted && state.length === 0) {
					state.endEmitted = true;
					stream.emit('end');
					var w = stream._writableState;
					if (state.autoDestroy && (!w || (w.autoDestroy && (w.finished || w.writable === false)))) stream.destroy();
					else if (w && stream.allowHalfOpen === false && !w.ending && !w.destroyed) stream.end();
				}
			});
		}
	}
	function flow(stream) {
		var state = stream._readableState;
		while (state.flowing && stream.read() !== null);
	}
	Readable.prototype.on = function (event, listener) {
		var result = Stream.prototype.on.call(this, event, listener);
		var state = this._readableState;
		if (event === 'data') {
			state.readableListening = this.listenerCount('readable') > 0;
			if (state.flowing !== false) this.resume();
		} else if (event === 'readable') {
			if (!state.endEmitted && !state.readableListening) {
				state.readableListening = state.needReadable = true;
				state.flowing = false;
				state.emittedReadable = false;
				if (state.length) emitReadable(this);
				else if (!state.reading) { var self = this; nextTick(function () { self.read(0); }); }
			}
		}
		return result;
	};
	Readable.prototype.addListener = Readable.prototype.on;
	Readable.prototype.removeListener = function (event, listener) {
		var result = Stream.prototype.removeListener.call(this, event, listener);
		if (event === 'readable') { var self = this; nextTick(function () { updateReadableListening(self); }); }
		return result;
	};
	Readable.prototype.off = Readable.prototype.removeListener;
	Readable.prototype.removeAllListeners = function (event) {
		var result = Stream.prototype.removeAllListeners.apply(this, arguments);
		if (event === 'readable' || event === undefined) { var self = this; nextTick(function () { updateReadableListening(self); }); }
		return result;
	};
	function updateReadableListening(stream) {
		var state = stream._readableState;
		state.readableListening = stream.listenerCount('readable') > 0;
		if (state.resumeScheduled && state.paused === false) state.flowing = true;
		else if (stream.listenerCount('data') > 0) stream.resume();
		else if (!state.readableListening) state.flowing = null;
	}
	Readable.prototype.resume = function () {
		var state = this._readableState;
		if (!state.flowing) {
			state.flowing = !state.readableListening;
			if (!state.resumeScheduled) {
				state.resumeScheduled = true;
				var self = this;
				nextTick(function () {
					if (!state.reading) self.read(0);
					state.resumeScheduled = false;
					self.emit('resume');
					flow(self);
					if (state.flowing && !state.reading) self.read(0);
				});
			}
		}
		state.paused = false;
		return this;
	};
	Readable.prototype.pause = function () {
		var state = this._readableState;
		if (state.flowing !== false) {
			state.flowing = false;
			this.emit('pause');
		}
		state.paused = true;
		return this;
	};
	Readable.prototype.isPaused = function () { var state = this._readableState; return state.paused === true || state.flowing === false; };
	Readable.prototype.setEncoding = function (encoding) {
		var state = this._readableState;
		var decoder = new (builtin('string_decoder').StringDecoder)(encoding);
		state.decoder = decoder;
		state.encoding = decoder.encoding;
		var text = '';
		state.buffer.forEach(function (chunk) { text += typeof chunk === 'string' ? chunk : decoder.write(chunk); });
		state.buffer = text ? [text] : [];
		state.length = text.length;
		return this;
	};
	Readable.prototype.pipe = function (dest, pipeOptions) {
		var source = this;
		var state = this._readableState;
		state.pipes.push(dest);
		var doEnd = (!pipeOptions || pipeOptions.end !== false) && dest !== process.stdout && dest !== process.stderr;
		var cleanedUp = false;
		function onend() { dest.end(); }
		var endFn = doEnd ? onend : unpipe;
		if (state.endEmitted) nextTick(endFn); else source.once('end', endFn);
		function onunpipe(readable, info) { if (readable === source && info && info.hasUnpiped === false) { info.hasUnpiped = true; cleanup(); } }
		dest.on('unpipe', onunpipe);
		var ondrain = null;
		function cleanup() {
			cleanedUp = true;
			dest.removeListener('close', onclose);
			dest.removeListener('finish', onfinish);
			if (ondrain) dest.removeListener('drain', ondrain);
			dest.removeListener('error', onerror);
			dest.removeListener('unpipe', onunpipe);
			source.removeListener('end', onend);
			source.removeListener('end', unpipe);
			source.removeListener('data', ondata);
		}
		function pause() {
			if (!cleanedUp) {
				if (state.pipes.length === 1 && state.pipes[0] === dest) { state.awaitDrainWriters = dest; state.multiAwaitDrain = false; }
				else if (state.pipes.length > 1 && state.pipes.indexOf(dest) !== -1) {
					if (!state.multiAwaitDrain) { state.multiAwaitDrain = true; state.awaitDrainWriters = new Set(state.awaitDrainWriters ? [state.awaitDrainWriters] : []); }
					state.awaitDrainWriters.add(dest);
				}
				source.pause();
			}
			if (!ondrain) {
				ondrain = function () {
					if (state.multiAwaitDrain) state.awaitDrainWriters.delete(dest); else if (state.awaitDrainWriters === dest) state.awaitDrainWriters = null;
					if ((!state.awaitDrainWriters || (state.multiAwaitDrain && state.awaitDrainWriters.size === 0)) && source.listenerCount('data')) { state.flowing = null; source.resume(); }
				};
				dest.on('drain', ondrain);
			}
		}
		function ondata(chunk) { if (dest.write(chunk) === false) pause(); }
		source.on('data', ondata);
		function onerror(error) {
			unpipe();
			dest.removeListener('error', onerror);
			if (dest.listenerCount('error') === 0) {
				var ws = dest._writableState || dest._readableState;
				if (ws && !ws.errorEmitted) errorOrDestroy(dest, error); else dest.emit('error', error);
			}
		}
		dest.prependListener('error', onerror);
		function onclose() { dest.removeListener('finish', onfinish); unpipe(); }
		dest.once('close', onclose);
		function onfinish() { dest.removeListener('close', onclose); unpipe(); }
		dest.once('finish', onfinish);
		function unpipe() { source.unpipe(dest); }
		dest.emit('pipe', source);
		if (dest.writableNeedDrain === true) pause();
		else if (!state.flowing) source.resume();
		return dest;
	};
	Readable.prototype.unpipe = function (dest) {
		var state = this._readableState;
		if (state.pipes.length === 0) return this;
		if (!dest) {
			var all = state.pipes;
			state.pipes = [];
			this.pause();
			for (var i = 0; i < all.length; i++) all[i].emit('unpipe', this, { hasUnpiped: false });
			return this;
		}
		var index = state.pipes.indexOf(dest);
		if (index === -1) return this;
		state.pipes.splice(index, 1);
		if (state.pipes.length === 0) this.pause();
		dest.emit('unpipe', this, { hasUnpiped: false });
		return this;
	};
	Readable.prototype.wrap = function (old) {
		var self = this;
		var paused = false;
		old.on('data', function (chunk) { if (!self.push(chunk) && old.pause) { paused = true; old.pause(); } });
		old.on('end', function () { self.push(null); });
		old.on('error', function (error) { errorOrDestroy(self, error); });
		old.on('close', function () { self.destroy(); });
		this._read = function () { if (paused && old.resume) { paused = false; old.resume(); } };
		return this;
	};
	Readable.prototype[Symbol.asyncIterator] = function () { return readableIterator(this); };
	Readable.prototype.iterator = function (iteratorOptions) { return readableIterator(this, iteratorOptions); };
	function readableIterator(stream, iteratorOptions) {
		var destroyOnReturn = !iteratorOptions || iteratorOptions.destroyOnReturn !== false;
		var error = null;
		var done = false;
		var wake = null;
		function signal() { if (wake) { var fn = wake; wake = null; fn(); } }
		stream.on('readable', signal);
		var cleanup = finished(stream, { writable: false }, function (err) {
			error = err && err.code !== 'ERR_STREAM_PREMATURE_CLOSE' ? err : null;
			if (err && err.code === 'ERR_STREAM_PREMATURE_CLOSE' && !stream._readableState.endEmitted) error = err;
			done = true;
			signal();
		});
		function finish(value) {
			cleanup();
			stream.removeListener('readable', signal);
			return value;
		}
		var iterator = {
			next: function () {
				return new Promise(function (resolve, reject) {
					(function attempt() {
						if (stream.destroyed && !done && !error) { done = true; }
						var chunk = done && !error ? null : stream.read();
						if (chunk !== null && chunk !== undefined && !(done && error)) { resolve({ value: chunk, done: false }); return; }
						if (error) { var e = error; error = null; finish(); reject(e); return; }
						if (done || stream._readableState.endEmitted) { finish(); resolve({ value: undefined, done: true }); return; }
						wake = attempt;
					})();
				});
			},
			return: function (value) {
				finish();
				if (destroyOnReturn && !stream._readableState.endEmitted) stream.destroy(null);
				return Promise.resolve({ value: value, done: true });
			},
			throw: function (err) { finish(); stream.destroy(err); return Promise.reject(err); }
		};
		iterator[Symbol.asyncIterator] = function () { return iterator; };
		return iterator;
	}
	Readable.prototype.toArray = function () {
		var out = [];
		var iterator = readableIterator(this);
		return (function step() {
			return iterator.next().then(function (result) { if (result.done) return out; out.push(result.value); return step(); });
		})();
	};
	function getter(Constructor, name, fn) { Object.defineProperty(Constructor.prototype, name, { get: fn, configurable: true, enumerable: false }); }
	getter(Readable, 'readable', function () { var r = this._readableState; return !!r && r.readable !== false && !r.destroyed && !r.errorEmitted && !r.endEmitted; });
	Object.defineProperty(Readable.prototype, 'readable', {
		get: function () { var r = this._readableState; return !!r && r.readable !== false && !r.destroyed && !r.errorEmitted && !r.endEmitted; },
		set: function (value) { if (this._readableState) this._readableState.readable = !!value; },
		configurable: true
	});
	getter(Readable, 'readableEnded', function () { return this._readableState ? this._readableState.endEmitted : false; });
	getter(Readable, 'readableFlowing', function () { return this._readableState.flowing; });
	getter(Readable, 'readableLength', function () { return this._readableState.length; });
	getter(Readable, 'readableHighWaterMark', function () { return this._readableState.highWaterMark; });
	getter(Readable, 'readableObjectMode', function () { return this._readableState ? this._readableState.objectMode : false; });
	getter(Readable, 'readableEncoding', function () { return this._readableState ? this._readableState.encoding : null; });
	getter(Readable, 'readableAborted', function () { var r = this._readableState; return !!(r.destroyed || r.errored) && !r.endEmitted; });
	getter(Readable, 'readableDidRead', function () { return this._readableState.dataEmitted; });
	getter(Readable, 'errored', function () { return this._readableState ? this._readableState.errored : null; });
	getter(Readable, 'closed', function () { return this._readableState ? this._readableState.closed : false; });
	Object.defineProperty(Readable.prototype, 'destroyed', {
		get: function () { return this._readableState ? this._readableState.destroyed : false; },
		set: function (value) { if (this._readableState) this._readableState.destroyed = value; },
		configurable: true
	});
	Readable.from = function (iterable, fromOptions) {
		if (iterable instanceof Readable) return iterable;
		var iterator;
		var isAsync = false;
		if (typeof iterable === 'string' || iterable instanceof Uint8Array) {
			var once = false;
			return new Readable(Object.assign({ objectMode: true }, fromOptions, { read: function () { if (once) this.push(null); else { once = true; this.push(iterable); } } }));
		}
		if (iterable && typeof iterable[Symbol.asyncIterator] === 'function') { iterator = iterable[Symbol.asyncIterator](); isAsync = true; }
		else if (iterable && typeof iterable[Symbol.iterator] === 'function') iterator = iterable[Symbol.iterator]();
		else throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "iterable" argument must be an instance of Iterable. Received ' + globalThis.__threadlineInspect(iterable));
		var reading = false;
		var readable = new Readable(Object.assign({ objectMode: true, highWaterMark: 1 }, fromOptions));
		readable._read = function () {
			if (reading) return;
			reading = true;
			(function next() {
				var step;
				try { step = iterator.next(); } catch (error) { readable.destroy(error); return; }
				Promise.resolve(step).then(function (result) {
					if (result.done) { reading = false; readable.push(null); return; }
					return Promise.resolve(result.value).then(function (value) {
						if (value === null) { reading = false; readable.destroy(codeError(TypeError, 'ERR_STREAM_NULL_VALUES', 'May not write null values to stream')); return; }
						if (readable.push(value)) next(); else reading = false;
					});
				}).then(null, function (error) { reading = false; readable.destroy(error); });
			})();
		};
		readable._destroy = function (error, callback) {
			if (typeof iterator.return === 'function' && !readable._readableState.endEmitted) {
				Promise.resolve().then(function () { return iterator.return(); }).then(function () { callback(error); }, function (e) { callback(error || e); });
			} else callback(error);
		};
		void isAsync;
		return readable;
	};
	Readable.isDisturbed = function (stream) { var r = stream._readableState; return !!(r && (r.dataEmitted || r.endEmitted || r.errored || r.destroyed)); };

	// ---- Writable ----
	function WritableState(options, stream, isDuplex) {
		options = options || {};
		this.objectMode = !!(options.objectMode || (isDuplex && options.writableObjectMode));
		this.highWaterMark = highWaterMarkOf(options, this.objectMode, 'writableHighWaterMark');
		this.finalCalled = false;
		this.needDrain = false;
		this.ending = false;
		this.ended = false;
		this.finished = false;
		this.destroyed = false;
		this.decodeStrings = options.decodeStrings !== false;
		this.defaultEncoding = options.defaultEncoding || 'utf8';
		this.length = 0;
		this.writing = false;
		this.corked = 0;
		this.sync = true;
		this.bufferProcessing = false;
		this.writecb = null;
		this.writelen = 0;
		this.buffered = [];
		this.pendingcb = 0;
		this.constructed = true;
		this.prefinished = false;
		this.errorEmitted = false;
		this.emitClose = options.emitClose !== false;
		this.autoDestroy = options.autoDestroy !== false;
		this.errored = null;
		this.closed = false;
		this.closeEmitted = false;
		this.afterWriteTickInfo = null;
	}
	WritableState.prototype.getBuffer = function () { return this.buffered.slice(); };
	Object.defineProperty(WritableState.prototype, 'bufferedRequestCount', { get: function () { return this.buffered.length; } });
	function Writable(options) {
		var isDuplex = this instanceof Duplex;
		if (!isDuplex && !(this instanceof Writable)) return new Writable(options);
		this._writableState = new WritableState(options, this, isDuplex);
		if (options) {
			if (typeof options.write === 'function') this._write = options.write;
			if (typeof options.writev === 'function') this._writev = options.writev;
			if (typeof options.destroy === 'function') this._destroy = options.destroy;
			if (typeof options.final === 'function') this._final = options.final;
			if (typeof options.construct === 'function') this._construct = options.construct;
			if (options.signal) addAbortSignal(options.signal, this);
		}
		Stream.call(this, options);
		if (!isDuplex) constructStream(this);
	}
	inherits(Writable, Stream);
	Object.defineProperty(Writable, Symbol.hasInstance, {
		value: function (object) {
			if (Function.prototype[Symbol.hasInstance].call(this, object)) return true;
			if (this !== Writable) return false;
			return !!(object && object._writableState instanceof WritableState);
		}
	});
	Writable.WritableState = WritableState;
	Writable.prototype.destroy = function (error, callback) {
		var state = this._writableState;
		if (!state.destroyed && (state.buffered.length || state.writing)) {
			var buffered = state.buffered;
			state.buffered = [];
			var failure = codeError(Error, 'ERR_STREAM_DESTROYED', 'Cannot call write after a stream was destroyed');
			buffered.forEach(function (entry) { nextTick(entry.callback, failure); });
		}
		return destroy.call(this, error, callback);
	};
	Writable.prototype._undestroy = function () {
		var w = this._writableState;
		w.destroyed = false; w.closed = false; w.closeEmitted = false; w.errored = null; w.errorEmitted = false; w.ended = w.ending = w.finished = false; w.finalCalled = w.prefinished = false;
	};
	Writable.prototype._destroy = function (error, callback) { callback(error); };
	Writable.prototype._write = function (chunk, encoding, callback) {
		if (this._writev) this._writev([{ chunk: chunk, encoding: encoding }], callback);
		else throw codeError(Error, 'ERR_METHOD_NOT_IMPLEMENTED', 'The _write() method is not implemented');
	};
	Writable.prototype._writev = null;
	Writable.prototype.pipe = function () { errorOrDestroy(this, codeError(Error, 'ERR_STREAM_CANNOT_PIPE', 'Cannot pipe, not readable')); };
	Writable.prototype.write = function (chunk, encoding, callback) {
		var state = this._writableState;
		if (typeof encoding === 'function') { callback = encoding; encoding = state.defaultEncoding; }
		else { if (!encoding) encoding = state.defaultEncoding; else if (encoding !== 'buffer' && !Buffer.isEncoding(encoding)) throw codeError(TypeError, 'ERR_UNKNOWN_ENCODING', 'Unknown encoding: ' + encoding); }
		if (typeof callback !== 'function') callback = function () {};
		if (chunk === null) throw codeError(TypeError, 'ERR_STREAM_NULL_VALUES', 'May not write null values to stream');
		if (!state.objectMode) {
			if (typeof chunk === 'string') {
				if (state.decodeStrings !== false) { chunk = Buffer.from(chunk, encoding); encoding = 'buffer'; }
			} else if (chunk instanceof Uint8Array) {
				if (!(chunk instanceof Buffer)) chunk = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
				encoding = 'buffer';
			} else throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "chunk" argument must be of type string or an instance of Buffer or Uint8Array. Received ' + globalThis.__threadlineInspect(chunk));
		}
		var error;
		if (state.ending) error = codeError(Error, 'ERR_STREAM_WRITE_AFTER_END', 'write after end');
		else if (state.destroyed) error = codeError(Error, 'ERR_STREAM_DESTROYED', 'Cannot call write after a stream was destroyed');
		if (error) {
			nextTick(callback, error);
			errorOrDestroy(this, error, true);
			return error;
		}
		state.pendingcb++;
		var length = state.objectMode ? 1 : chunk.length;
		state.length += length;
		var result = state.length < state.highWaterMark;
		if (!result) state.needDrain = true;
		if (state.writing || state.corked || state.errored || !state.constructed) state.buffered.push({ chunk: chunk, encoding: encoding, callback: callback });
		else doWrite(this, state, false, length, chunk, encoding, callback);
		return result && !state.errored && !state.destroyed;
	};
	function doWrite(stream, state, writev, length, chunk, encoding, callback) {
		state.writelen = length;
		state.writecb = callback;
		state.writing = true;
		state.sync = true;
		var onwrite = function (error) { onWrite(stream, error); };
		if (state.destroyed) onwrite(codeError(Error, 'ERR_STREAM_DESTROYED', 'Cannot call write after a stream was destroyed'));
		else if (writev) stream._writev(chunk, onwrite);
		else stream._write(chunk, encoding, onwrite);
		state.sync = false;
	}
	function onWrite(stream, error) {
		var state = stream._writableState;
		var sync = state.sync;
		var callback = state.writecb;
		if (typeof callback !== 'function') { errorOrDestroy(stream, codeError(Error, 'ERR_MULTIPLE_CALLBACK', 'Callback called multiple times')); return; }
		state.writing = false;
		state.writecb = null;
		state.length -= state.writelen;
		state.writelen = 0;
		if (error) {
			if (!state.errored) state.errored = error;
			if (stream._readableState && !stream._readableState.errored) stream._readableState.errored = error;
			if (sync) nextTick(onWriteError, stream, state, error, callback);
			else onWriteError(stream, state, error, callback);
			return;
		}
		if (state.buffered.length > 0 && !state.corked && !state.bufferProcessing) clearBuffer(stream, state);
		if (sync) {
			if (state.afterWriteTickInfo !== null && state.afterWriteTickInfo.callback === callback) state.afterWriteTickInfo.count++;
			else {
				state.afterWriteTickInfo = { count: 1, callback: callback, stream: stream, state: state };
				nextTick(afterWriteTick, state.afterWriteTickInfo);
			}
		} else afterWrite(stream, state, 1, callback);
	}
	function onWriteError(stream, state, error, callback) {
		--state.pendingcb;
		callback(error);
		errorBuffer(state);
		errorOrDestroy(stream, error);
	}
	function afterWriteTick(info) { info.state.afterWriteTickInfo = null; afterWrite(info.stream, info.state, info.count, info.callback); }
	function afterWrite(stream, state, count, callback) {
		var needDrain = !state.ending && !stream.destroyed && state.length === 0 && state.needDrain;
		if (needDrain) { state.needDrain = false; stream.emit('drain'); }
		while (count-- > 0) { state.pendingcb--; callback(); }
		if (state.destroyed) errorBuffer(state);
		finishMaybe(stream, state);
	}
	function errorBuffer(state) {
		if (state.writing) return;
		var buffered = state.buffered;
		state.buffered = [];
		buffered.forEach(function (entry) {
			state.length -= state.objectMode ? 1 : entry.chunk.length;
			entry.callback(state.errored || codeError(Error, 'ERR_STREAM_DESTROYED', 'Cannot call write after a stream was destroyed'));
		});
	}
	function clearBuffer(stream, state) {
		if (state.corked || state.bufferProcessing || state.destroyed || !state.constructed) return;
		var buffered = state.buffered;
		if (buffered.length === 0) return;
		state.bufferProcessing = true;
		if (buffered.length > 1 && stream._writev) {
			state.pendingcb -= buffered.length - 1;
			var callbacks = buffered.map(function (entry) { return entry.callback; });
			var chunks = buffered.map(function (entry) { return { chunk: entry.chunk, encoding: entry.encoding }; });
			chunks.allBuffers = chunks.every(function (entry) { return entry.encoding === 'buffer'; });
			state.buffered = [];
			var total = 0;
			chunks.forEach(function (entry) { total += state.objectMode ? 1 : entry.chunk.length; });
			doWrite(stream, state, true, total, chunks, '', function (error) { callbacks.forEach(function (callback) { callback(error); }); });
		} else {
			do {
				var entry = buffered.shift();
				var length = state.objectMode ? 1 : entry.chunk.length;
				doWrite(stream, state, false, length, entry.chunk, entry.encoding, entry.callback);
			} while (buffered.length > 0 && !state.writing);
		}
		state.bufferProcessing = false;
	}
	Writable.prototype.cork = function () { this._writableState.corked++; };
	Writable.prototype.uncork = function () {
		var state = this._writableState;
		if (state.corked) { state.corked--; if (!state.writing) clearBuffer(this, state); }
	};
	Writable.prototype.setDefaultEncoding = function (encoding) {
		if (typeof encoding === 'string') encoding = encoding.toLowerCase();
		if (!Buffer.isEncoding(encoding)) throw codeError(TypeError, 'ERR_UNKNOWN_ENCODING', 'Unknown encoding: ' + encoding);
		this._writableState.defaultEncoding = encoding;
		return this;
	};
	Writable.prototype.end = function (chunk, encoding, callback) {
		var state = this._writableState;
		if (typeof chunk === 'function') { callback = chunk; chunk = null; encoding = null; }
		else if (typeof encoding === 'function') { callback = encoding; encoding = null; }
		var error;
		if (chunk !== null && chunk !== undefined) {
			var written = this.write(chunk, encoding);
			if (written instanceof Error) error = written;
		}
		if (state.corked) { state.corked = 1; this.uncork(); }
		if (!error) {
			if (!state.errored && !state.ending) {
				state.ending = true;
				finishMaybe(this, state, true);
				state.ended = true;
			} else if (state.finished) error = codeError(Error, 'ERR_STREAM_ALREADY_FINISHED', 'Cannot call end after a stream was finished');
			else if (state.destroyed) error = codeError(Error, 'ERR_STREAM_DESTROYED', 'Cannot call end after a stream was destroyed');
		}
		if (typeof callback === 'function') {
			if (error || state.finished) nextTick(callback, error);
			else {
				var stream = this;
				var onFinish = function (err) { stream.removeListener('finish', onFinish); stream.removeListener('error', onFinish); callback(err); };
				this.once('finish', function () { onFinish(); });
				this.once('error', onFinish);
			}
		}
		return this;
	};
	function needFinish(state) {
		return state.ending && !state.destroyed && state.constructed && state.length === 0 && !state.errored && state.buffered.length === 0 && !state.finished && !state.writing && !state.errorEmitted && !state.closeEmitted;
	}
	function prefinish(stream, state) {
		if (!state.prefinished && !state.finalCalled) {
			if (typeof stream._final === 'function' && !state.destroyed) {
				state.finalCalled = true;
				state.sync = true;
				state.pendingcb++;
				var called = false;
				var onFinal = function (error) {
					if (called) { errorOrDestroy(stream, codeError(Error, 'ERR_MULTIPLE_CALLBACK', 'Callback called multiple times')); return; }
					called = true;
					state.pendingcb--;
					if (error) {
						errorBuffer(state);
						errorOrDestroy(stream, error, state.sync);
					} else if (needFinish(state)) {
						state.prefinished = true;
						stream.emit('prefinish');
						state.pendingcb++;
						nextTick(finish, stream, state);
					}
				};
				try { stream._final(onFinal); } catch (error) { onFinal(error); }
				state.sync = false;
			} else {
				state.prefinished = true;
				stream.emit('prefinish');
			}
		}
	}
	function finishMaybe(stream, state, sync) {
		if (needFinish(state)) {
			prefinish(stream, state);
			if (state.pendingcb === 0) {
				if (sync) { state.pendingcb++; nextTick(function () { if (needFinish(state)) finish(stream, state); else state.pendingcb--; }); }
				else if (needFinish(state)) { state.pendingcb++; finish(stream, state); }
			}
		}
	}
	function finish(stream, state) {
		state.pendingcb--;
		state.finished = true;
		stream.emit('finish');
		if (state.autoDestroy) {
			var r = stream._readableState;
			if (!r || (r.autoDestroy && (r.endEmitted || r.readable === false))) stream.destroy();
		}
	}
	Object.defineProperty(Writable.prototype, 'writable', {
		get: function () { var w = this._writableState; return !!w && w.writable !== false && !w.destroyed && !w.errored && !w.ending && !w.ended; },
		set: function (value) { if (this._writableState) this._writableState.writable = !!value; },
		configurable: true
	});
	getter(Writable, 'writableFinished', function () { return this._writableState ? this._writableState.finished : false; });
	getter(Writable, 'writableObjectMode', function () { return this._writableState ? this._writableState.objectMode : false; });
	getter(Writable, 'writableBuffer', function () { return this._writableState && this._writableState.getBuffer(); });
	getter(Writable, 'writableEnded', function () { return this._writableState ? this._writableState.ending : false; });
	getter(Writable, 'writableNeedDrain', function () { var w = this._writableState; return w ? !w.destroyed && !w.ending && w.needDrain : false; });
	getter(Writable, 'writableHighWaterMark', function () { return this._writableState && this._writableState.highWaterMark; });
	getter(Writable, 'writableCorked', function () { return this._writableState ? this._writableState.corked : 0; });
	getter(Writable, 'writableLength', function () { return this._writableState && this._writableState.length; });
	getter(Writable, 'errored', function () { return this._writableState ? this._writableState.errored : null; });
	getter(Writable, 'closed', function () { return this._writableState ? this._writableState.closed : false; });
	getter(Writable, 'writableAborted', function () { var w = this._writableState; return !!(w.destroyed || w.errored) && !w.finished; });
	Object.defineProperty(Writable.prototype, 'destroyed', {
		get: function () { return this._writableState ? this._writableState.destroyed : false; },
		set: function (value) { if (this._writableState) this._writableState.destroyed = value; },
		configurable: true
	});

	// ---- Duplex, Transform, PassThrough ----
	function Duplex(options) {
		if (!(this instanceof Duplex)) return new Duplex(options);
		Readable.call(this, options);
		Writable.call(this, options);
		if (options) {
			this.allowHalfOpen = options.allowHalfOpen !== false;
			if (options.readable === false) { this._readableState.readable = false; this._readableState.ended = true; this._readableState.endEmitted = true; }
			if (options.writable === false) { this._writableState.writable = false; this._writableState.ending = true; this._writableState.ended = true; this._writableState.finished = true; }
			if (options.signal) addAbortSignal(options.signal, this);
		} else this.allowHalfOpen = true;
	}
	inherits(Duplex, Readable);
	['write', 'cork', 'uncork', 'end', 'setDefaultEncoding', '_write', '_undestroy'].forEach(function (name) {
		if (!Object.prototype.hasOwnProperty.call(Duplex.prototype, name)) Duplex.prototype[name] = Writable.prototype[name];
	});
	Duplex.prototype._writev = null;
	Duplex.prototype.destroy = Writable.prototype.destroy;
	Duplex.prototype._undestroy = function () { Readable.prototype._undestroy.call(this); Writable.prototype._undestroy.call(this); };
	['writable', 'writableFinished', 'writableObjectMode', 'writableBuffer', 'writableEnded', 'writableNeedDrain', 'writableHighWaterMark', 'writableCorked', 'writableLength', 'writableAborted'].forEach(function (name) {
		Object.defineProperty(Duplex.prototype, name, Object.getOwnPropertyDescriptor(Writable.prototype, name));
	});
	Object.defineProperty(Duplex.prototype, 'destroyed', {
		get: function () { return !!(this._readableState && this._writableState && this._readableState.destroyed && this._writableState.destroyed); },
		set: function (value) { if (this._readableState) this._readableState.destroyed = value; if (this._writableState) this._writableState.destroyed = value; },
		configurable: true
	});
	Duplex.prototype._construct = undefined;
	var kCallback = Symbol('kCallback');
	function Transform(options) {
		if (!(this instanceof Transform)) return new Transform(options);
		var readableHighWaterMark = options ? highWaterMarkOf(options, !!(options.objectMode || options.readableObjectMode), 'readableHighWaterMark') : null;
		if (readableHighWaterMark === 0) options = Object.assign({}, options, { highWaterMark: null, readableHighWaterMark: readableHighWaterMark, writableHighWaterMark: options.writableHighWaterMark || 0 });
		Duplex.call(this, options);
		this._readableState.sync = false;
		this[kCallback] = null;
		if (options) {
			if (typeof options.transform === 'function') this._transform = options.transform;
			if (typeof options.flush === 'function') this._flush = options.flush;
		}
		this.on('prefinish', transformPrefinish);
	}
	inherits(Transform, Duplex);
	function transformFinal(callback) {
		var self = this;
		if (typeof this._flush === 'function' && !this.destroyed) {
			this._flush(function (error, data) {
				if (error) { if (callback) callback(error); else self.destroy(error); return; }
				if (data !== null && data !== undefined) self.push(data);
				self.push(null);
				if (callback) callback();
			});
		} else {
			this.push(null);
			if (callback) callback();
		}
	}
	function transformPrefinish() { if (this._final !== transformFinal) transformFinal.call(this); }
	Transform.prototype._final = transformFinal;
	Transform.prototype._transform = function () { throw codeError(Error, 'ERR_METHOD_NOT_IMPLEMENTED', 'The _transform() method is not implemented'); };
	Transform.prototype._write = function (chunk, encoding, callback) {
		var readableState = this._readableState;
		var writableState = this._writableState;
		var length = readableState.length;
		var self = this;
		this._transform(chunk, encoding, function (error, value) {
			if (error) { callback(error); return; }
			if (value !== null && value !== undefined) self.push(value);
			if (writableState.ended || length === readableState.length || readableState.length < readableState.highWaterMark) callback();
			else self[kCallback] = callback;
		});
	};
	Transform.prototype._read = function () {
		if (this[kCallback]) { var callback = this[kCallback]; this[kCallback] = null; callback(); }
	};
	function PassThrough(options) {
		if (!(this instanceof PassThrough)) return new PassThrough(options);
		Transform.call(this, options);
	}
	inherits(PassThrough, Transform);
	PassThrough.prototype._transform = function (chunk, encoding, callback) { callback(null, chunk); };

	// ---- finished, pipeline, addAbortSignal ----
	function isReadableStream(stream) { return !!(stream && typeof stream.pipe === 'function' && typeof stream.on === 'function' && (!stream._writableState || (stream._readableState && stream._readableState.readable !== false))); }
	function isWritableStream(stream) { return !!(stream && typeof stream.write === 'function' && typeof stream.on === 'function' && (!stream._readableState || (stream._writableState && stream._writableState.writable !== false))); }
	function finished(stream, options, callback) {
		if (typeof options === 'function') { callback = options; options = {}; }
		options = options || {};
		var called = false;
		function done(error) { if (called) return; called = true; cleanup(); callback.call(stream, error); }
		var r = stream._readableState;
		var w = stream._writableState;
		var readable = options.readable !== undefined ? options.readable : isReadableStream(stream) || !!(r && r.readable !== false && !w);
		var writable = options.writable !== undefined ? options.writable : isWritableStream(stream);
		if (r && r.readable === false) readable = false;
		if (w && w.writable === false) writable = false;
		var readableFinished = !!(r && r.endEmitted);
		var writableFinished = !!(w && w.finished);
		function onfinish() { writableFinished = true; if (!readable || readableFinished) done(); }
		function onend() { readableFinished = true; if (!writable || writableFinished) done(); }
		function onerror(error) { done(error); }
		function onclose() {
			if (readable && !readableFinished && !(r && r.endEmitted)) { done(prematureClose()); return; }
			if (writable && !writableFinished && !(w && w.finished)) { done(prematureClose()); return; }
			done((r && r.errored) || (w && w.errored) || undefined);
		}
		function prematureClose() { return codeError(Error, 'ERR_STREAM_PREMATURE_CLOSE', 'Premature close'); }
		stream.on('end', onend);
		stream.on('finish', onfinish);
		if (options.error !== false) stream.on('error', onerror);
		stream.on('close', onclose);
		function cleanup() {
			stream.removeListener('end', onend);
			stream.removeListener('finish', onfinish);
			stream.removeListener('error', onerror);
			stream.removeListener('close', onclose);
			if (options.signal && onAbort) options.signal.removeEventListener('abort', onAbort);
		}
		var onAbort = null;
		if (options.signal) {
			onAbort = function () { done(events.abortError(options.signal)); };
			if (options.signal.aborted) nextTick(onAbort); else options.signal.addEventListener('abort', onAbort);
		}
		var errored = (r && r.errored) || (w && w.errored);
		var isClosed = (r && r.closeEmitted) || (w && w.closeEmitted);
		if (errored && ((r && r.errorEmitted) || (w && w.errorEmitted))) nextTick(function () { done(errored); });
		else if (isClosed) nextTick(onclose);
		else if ((!readable || readableFinished) && (!writable || writableFinished) && (readableFinished || writableFinished)) nextTick(function () { done(); });
		return cleanup;
	}
	function destroyer(stream, error) {
		if (!stream) return;
		if (typeof stream.destroy === 'function') stream.destroy(error);
		else if (typeof stream.close === 'function') stream.close();
	}
	function pipeline() {
		var streams = Array.prototype.slice.call(arguments);
		var callback = typeof streams[streams.length - 1] === 'function' && streams.length > 1 && !(isReadableStream(streams[streams.length - 1]) || isWritableStream(streams[streams.length - 1])) ? streams.pop() : null;
		if (streams.length === 1 && Array.isArray(streams[0])) streams = streams[0];
		var pipelineOptions = streams.length && streams[streams.length - 1] && !isReadableStream(streams[streams.length - 1]) && !isWritableStream(streams[streams.length - 1]) && typeof streams[streams.length - 1] === 'object' && !streams[streams.length - 1][Symbol.asyncIterator] && !streams[streams.length - 1][Symbol.iterator] ? streams.pop() : null;
		if (!callback) throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "streams[stream.length - 1]" argument must be of type function');
		if (streams.length < 2) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "streams" argument must be specified');
		var finishedOnce = false;
		var error = null;
		var cleanups = [];
		var pending = 0;
		var lastValue;
		var resolved = [];
		function finish(err, final) {
			if (err && (!error || error.code === 'ERR_STREAM_PREMATURE_CLOSE')) error = err;
			if (!error && !final) return;
			while (cleanups.length) cleanups.shift()();
			if (finishedOnce) return;
			if (error) resolved.forEach(function (stream) { destroyer(stream, error); });
			if (final || error) { finishedOnce = true; nextTick(callback, error, lastValue); }
		}
		if (pipelineOptions && pipelineOptions.signal) {
			var signal = pipelineOptions.signal;
			var onAbort = function () { finish(events.abortError(signal)); };
			if (signal.aborted) nextTick(onAbort); else { signal.addEventListener('abort', onAbort); cleanups.push(function () { signal.removeEventListener('abort', onAbort); }); }
		}
		var previous = null;
		streams.forEach(function (stream, index) {
			var isLast = index === streams.length - 1;
			if (typeof stream === 'function') {
				var source = index === 0 ? undefined : previous;
				var result = stream(index === 0 ? { signal: pipelineOptions && pipelineOptions.signal } : toIterable(source), { signal: pipelineOptions && pipelineOptions.signal });
				if (isLast) {
					if (result && typeof result.then === 'function') {
						pending++;
						result.then(function (value) { lastValue = value; pending--; finish(null, pending === 0); }, function (err) { finish(err, true); });
					}
					previous = result;
					return;
				}
				stream = Readable.from(result, { objectMode: true });
			} else if (index === 0 && !isReadableStream(stream) && stream && (stream[Symbol.asyncIterator] || stream[Symbol.iterator] || typeof stream === 'string')) {
				stream = Readable.from(stream);
			}
			resolved.push(stream);
			if (previous && typeof previous.pipe === 'function' && isWritableStream(stream)) previous.pipe(stream);
			var reading = !isLast;
			var writing = index > 0;
			if (isLast || reading || writing) {
				pending++;
				cleanups.push(finished(stream, { readable: reading, writable: writing }, function (err) {
					pending--;
					if (err && err.code === 'ERR_STREAM_PREMATURE_CLOSE' && reading && isLast) err = null;
					finish(err, pending === 0);
				}));
			}
			if (!isLast && stream.on) stream.on('error', function () {});
			previous = stream;
		});
		return previous;
	}
	function toIterable(source) {
		if (source && typeof source[Symbol.asyncIterator] === 'function') return source;
		return Readable.from(source);
	}
	function addAbortSignal(signal, stream) {
		if (!signal || typeof signal.aborted !== 'boolean') throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "signal" argument must be an instance of AbortSignal');
		var onAbort = function () { stream.destroy(events.abortError(signal)); };
		if (signal.aborted) onAbort();
		else {
			signal.addEventListener('abort', onAbort, { once: true });
			finished(stream, function () { signal.removeEventListener('abort', onAbort); });
		}
		return stream;
	}
	function compose() { throw codeError(Error, 'ERR_NOT_SUPPORTED', 'stream.compose is not available in the offline runtime'); }

	var promises = {
		pipeline: function () {
			var args = Array.prototype.slice.call(arguments);
			return new Promise(function (resolve, reject) { pipeline.apply(undefined, args.concat([function (error, value) { if (error) reject(error); else resolve(value); }])); });
		},
		finished: function (stream, options) {
			return new Promise(function (resolve, reject) { finished(stream, options || {}, function (error) { if (error) reject(error); else resolve(); }); });
		}
	};

	Stream.Stream = Stream;
	Stream.Readable = Readable;
	Stream.Writable = Writable;
	Stream.Duplex = Duplex;
	Stream.Transform = Transform;
	Stream.PassThrough = PassThrough;
	Stream.pipeline = pipeline;
	Stream.finished = finished;
	Stream.addAbortSignal = addAbortSignal;
	Stream.compose = compose;
	Stream.promises = promises;
	Stream.isDisturbed = Readable.isDisturbed;
	Stream.isErrored = function (stream) { return !!(stream && (stream.errored || (stream._readableState && stream._readableState.errored) || (stream._writableState && stream._writableState.errored))); };
	Stream.isReadable = function (stream) { return !!(stream && stream.readable && !stream.destroyed); };
	Stream.getDefaultHighWaterMark = defaultHighWaterMark;
	Stream.setDefaultHighWaterMark = function () {};
	Stream.destroy = destroyer;
	Object.defineProperty(pipeline, Symbol.for('nodejs.util.promisify.custom'), { value: promises.pipeline });
	Object.defineProperty(finished, Symbol.for('nodejs.util.promisify.custom'), { value: promises.finished });
	// fs streams over the synchronous file calls (the workspace snapshot): a ReadStream reads its
	// file once, in highWaterMark chunks; a WriteStream writes (appends) each chunk as it comes.
	var fs = builtin('fs');
	function ReadStream(file, options) {
		if (!(this instanceof ReadStream)) return new ReadStream(file, options);
		options = typeof options === 'string' ? { encoding: options } : options || {};
		Readable.call(this, { highWaterMark: options.highWaterMark || 65536, encoding: options.encoding, emitClose: options.emitClose, autoDestroy: options.autoClose !== false });
		this.path = typeof file === 'string' ? file : String(file);
		this.fd = null;
		this.bytesRead = 0;
		this.pending = true;
		this._start = options.start || 0;
		this._end = options.end === undefined ? Infinity : options.end;
		this._data = null;
		var self = this;
		nextTick(function () {
			try {
				self._data = fs.readFileSync(file);
				self.fd = 3;
				self.pending = false;
				self.emit('open', self.fd);
				self.emit('ready');
			} catch (error) { self.destroy(error); }
		});
	}
	inherits(ReadStream, Readable);
	ReadStream.prototype._read = function (size) {
		if (!this._data) { var self = this; this.once('ready', function () { self._read(size); }); return; }
		var end = Math.min(this._data.length, this._end + 1);
		var start = this._start + this.bytesRead;
		if (start >= end) { this.push(null); return; }
		var chunk = this._data.subarray(start, Math.min(end, start + size));
		this.bytesRead += chunk.length;
		this.push(Buffer.from(chunk));
	};
	ReadStream.prototype.close = function (callback) { this.destroy(null, callback); };
	function WriteStream(file, options) {
		if (!(this instanceof WriteStream)) return new WriteStream(file, options);
		options = typeof options === 'string' ? { encoding: options } : options || {};
		Writable.call(this, { highWaterMark: options.highWaterMark, decodeStrings: true, emitClose: options.emitClose, autoDestroy: options.autoClose !== false });
		this.path = typeof file === 'string' ? file : String(file);
		this.bytesWritten = 0;
		this.pending = false;
		var append = options.flags === 'a' || options.flags === 'a+';
		try { if (!append) fs.writeFileSync(file, ''); } catch (error) { var self = this; nextTick(function () { self.destroy(error); }); }
		this.fd = 3;
		var stream = this;
		nextTick(function () { stream.emit('open', stream.fd); stream.emit('ready'); });
	}
	inherits(WriteStream, Writable);
	WriteStream.prototype._write = function (chunk, encoding, callback) {
		try { fs.appendFileSync(this.path, chunk); this.bytesWritten += chunk.length; callback(); } catch (error) { callback(error); }
	};
	WriteStream.prototype.close = function (callback) { this.end(callback); };
	fs.ReadStream = ReadStream;
	fs.WriteStream = WriteStream;
	fs.createReadStream = function (file, options) { return new ReadStream(file, options); };
	fs.createWriteStream = function (file, options) { return new WriteStream(file, options); };

	define('stream', function () { return Stream; });
	define('stream/promises', function () { return promises; });
})();
`;
