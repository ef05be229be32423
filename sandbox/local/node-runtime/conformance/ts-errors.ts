interface Account {
	balance: number;
}

function withdraw(account: Account, amount: number): number {
	if (amount > account.balance) {
		throw new Error(`insufficient funds: ${amount} > ${account.balance}`);
	}
	return account.balance - amount;
}

console.log(withdraw({ balance: 10 }, 3));
try {
	withdraw({ balance: 1 }, 5);
} catch (error) {
	const line = String((error as Error).stack)
		.split('\n')
		.find((frame) => frame.includes('ts-errors'));
	console.log((error as Error).message, /ts-errors\.ts:7:/.test(line ?? ''));
}
