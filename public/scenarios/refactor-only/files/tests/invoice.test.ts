import { formatInvoice, invoiceTotal, type Invoice } from '../src/invoice.js';
import { formatCents } from '../src/money.js';
import { check, checkEqual } from './check.js';

const invoice: Invoice = {
	number: '2024-017',
	customer: 'Lovelace Ltd',
	taxRate: 0.23,
	items: [
		{ description: 'Notebook', unitPriceCents: 1250, quantity: 3 },
		{ description: 'Pen', unitPriceCents: 199, quantity: 10, discount: 0.15 }
	]
};

// 3 × 12.50 = 37.50; 10 × 1.99 × 0.85 = 16.915 → 16.92; subtotal 54.42; VAT 12.5166 → 12.52.
checkEqual(invoiceTotal(invoice), 6694, 'total in cents');
checkEqual(
	formatInvoice(invoice),
	[
		'Invoice 2024-017 for Lovelace Ltd',
		'3 × Notebook: €37.50',
		'10 × Pen: €16.92',
		'Subtotal: €54.42',
		'Tax: €12.52',
		'Total: €66.94'
	].join('\n'),
	'the printed invoice'
);
checkEqual(invoiceTotal({ ...invoice, items: [] }), 0, 'an empty invoice');
checkEqual(formatCents(-5), '-€0.05', 'negative amounts');
let refused = false;
try {
	formatCents(0.5);
} catch {
	refused = true;
}
check(refused, 'fractions of a cent are refused');
