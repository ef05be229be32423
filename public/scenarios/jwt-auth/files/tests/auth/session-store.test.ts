import { SessionStore } from '../../src/auth/session-store.js';
import { check, checkEqual } from '../check.js';

let now = 1_000;
const store = new SessionStore(() => now, 60_000);
const session = store.create('u1');
checkEqual(store.get(session.id)?.userId, 'u1', 'a new session can be read back');
check(store.create('u1').id !== session.id, 'every session gets its own id');

now += 60_000;
checkEqual(store.get(session.id), null, 'a session expires after its lifetime');
checkEqual(store.size, 1, 'an expired session is dropped when read');

const other = store.create('u2');
check(store.revoke(other.id), 'revoke says it removed the session');
checkEqual(store.get(other.id), null, 'a revoked session is gone');
