import { greet, type Greeting } from './greet.js';
import { Shape, area } from './shapes';

enum Level {
	Low = 1,
	High = 2
}
const greeting: Greeting = greet('typescript');
console.log(greeting.text, Level.High, area({ kind: Shape.Square, size: 3 }));
