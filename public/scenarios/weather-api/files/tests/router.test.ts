import { handle } from '../src/handlers/router.js';
import { checkEqual } from './check.js';

checkEqual(handle({ method: 'GET', path: '/health', query: {} }).status, 200, 'GET /health');
checkEqual(handle({ method: 'GET', path: '/nowhere', query: {} }).status, 404, 'unknown path');
checkEqual(handle({ method: 'POST', path: '/health', query: {} }).status, 404, 'wrong method');
