import { login } from '../../src/auth/login.js';
import { SessionStore } from '../../src/auth/session-store.js';
import { requireSession } from '../../src/middleware/require-session.js';
import { check, checkEqual } from '../check.js';

const store = new SessionStore();
const session = await login('ada', 'analytical-engine', store);
check(session !== null, 'ada logs in with her password');
checkEqual(await login('ada', 'wrong', store), null, 'a wrong password is refused');
checkEqual(await login('nobody', 'analytical-engine', store), null, 'an unknown user is refused');

const allowed = requireSession({ headers: { cookie: `theme=dark; session=${session.id}` } }, store);
check(allowed.ok && allowed.user.name === 'ada', 'the session cookie identifies ada');
const refused = requireSession({ headers: {} }, store);
check(!refused.ok && refused.status === 401, 'no cookie gives a 401');
