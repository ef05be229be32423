/** A session as the panels name it, e.g. `{ id: 'session-2', name: 'Builder' }`. */
export interface SessionName {
	id: string;
	name: string;
}
