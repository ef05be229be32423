import { findUserById, findUserByName } from '../../src/db/users.js';
import { check, checkEqual } from '../check.js';

checkEqual(findUserByName('ada')?.id, 'u1', 'ada is u1');
checkEqual(findUserById('u2')?.name, 'grace', 'u2 is grace');
checkEqual(findUserByName('nobody'), null, 'an unknown name gives null');
checkEqual(findUserById(''), null, 'an empty id gives null');
check(findUserByName('ADA') === null, 'names are case-sensitive');
