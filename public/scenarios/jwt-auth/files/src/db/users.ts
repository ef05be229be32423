export type Role = 'admin' | 'learner';

export interface User {
	id: string;
	name: string;
	role: Role;
	/** Random per user, so equal passwords do not give equal hashes. */
	salt: string;
	/** Hex SHA-256 of `${salt}:${password}` (see src/auth/password.ts). */
	passwordHash: string;
}

const table: User[] = [
	{
		id: 'u1',
		name: 'ada',
		role: 'admin',
		salt: '7f3a9c1e',
		passwordHash: '02a9d711f7f31787b1e2dc591c0ec36168de9370c527fb7100f48101af557a84'
	},
	{
		id: 'u2',
		name: 'grace',
		role: 'learner',
		salt: 'b24d6e80',
		passwordHash: '3d1e3445e7457f7abf9a19d506e2a304fa56f833e6b47e51dbc4e41d7885cbfe'
	},
	{
		id: 'u3',
		name: 'alan',
		role: 'learner',
		salt: 'e91c4f27',
		passwordHash: '80b1724786e0c2fa962859a5f9a2c6e4149737a94456ec0fb71a878377cc65c8'
	}
];

export function findUserByName(name: string): User | null {
	const found = table.find((row) => row.name === name);
	return found ?? null;
}

export function findUserById(id: string): User | null {
	const found = table.find((row) => row.id === id);
	return found ?? null;
}
