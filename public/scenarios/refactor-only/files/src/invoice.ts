import { formatCents } from './money.js';

export interface LineItem {
	description: string;
	unitPriceCents: number;
	quantity: number;
	/** 0 to 1, e.g. 0.15 for 15 % off this line. */
	discount?: number;
}

export interface Invoice {
	number: string;
	customer: string;
	items: LineItem[];
	/** e.g. 0.23 for 23 % VAT. */
	taxRate: number;
}

export function invoiceTotal(inv: Invoice): number {
	let t = 0;
	for (const x of inv.items) {
		const d = x.discount ?? 0;
		t += Math.round(x.unitPriceCents * x.quantity * (1 - d));
	}
	return t + Math.round(t * inv.taxRate);
}

export function formatInvoice(inv: Invoice): string {
	const lines: string[] = [`Invoice ${inv.number} for ${inv.customer}`];
	let t = 0;
	for (const x of inv.items) {
		const d = x.discount ?? 0;
		const a = Math.round(x.unitPriceCents * x.quantity * (1 - d));
		t += a;
		lines.push(`${x.quantity} × ${x.description}: ${formatCents(a)}`);
	}
	const tax = Math.round(t * inv.taxRate);
	lines.push(`Subtotal: ${formatCents(t)}`, `Tax: ${formatCents(tax)}`, `Total: ${formatCents(t + tax)}`);
	return lines.join('\n');
}
