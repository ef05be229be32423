import { kind } from 'local-lib';
import extra from 'local-lib/extra';
console.log(kind, extra);
