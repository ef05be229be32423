// The task, as a test: it fails until src/auth/jwt.ts and requireUser exist (INT-001).
import { signToken } from '../../src/auth/jwt.js';
import { SessionStore } from '../../src/auth/session-store.js';
import { requireUser } from '../../src/middleware/require-session.js';
import { check } from '../check.js';

const secret = 'bearer-test-secret';
const now = 1_700_000_000;
const store = new SessionStore();

const token = await signToken('u1', secret, now);
const viaToken = await requireUser({ headers: { authorization: `Bearer ${token}` } }, store, secret, now);
check(viaToken.ok && viaToken.user.name === 'ada', 'an Authorization: Bearer token identifies its user');

const session = store.create('u2');
const viaCookie = await requireUser({ headers: { cookie: `session=${session.id}` } }, store, secret, now);
check(viaCookie.ok && viaCookie.user.name === 'grace', 'without a token, the session cookie still works');

const otherSecret = await signToken('u1', 'another-secret', now);
const forged = await requireUser({ headers: { authorization: `Bearer ${otherSecret}` } }, store, secret, now);
check(!forged.ok && forged.status === 401, 'a token signed with another secret gives a 401');
