export enum Shape {
	Square = 'square',
	Circle = 'circle'
}
export function area(shape: { kind: Shape; size: number }): number {
	return shape.kind === Shape.Square ? shape.size ** 2 : Math.round(Math.PI * shape.size ** 2);
}
