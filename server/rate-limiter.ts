/**
 * Token buckets keyed by learner, class or address: `ratePerSecond` sustained, `burst` at once.
 * In memory, per app instance (with several instances each enforces its own share).
 */
export class RateLimiter {
	readonly #buckets = new Map<string, { tokens: number; updatedMs: number }>();

	constructor(
		readonly ratePerSecond: number,
		readonly burst: number,
		private readonly nowMs: () => number = () => performance.now()
	) {}

	/** Whether `key`'s bucket holds `cost` tokens now; takes nothing. */
	has(key: string, cost = 1): boolean {
		const bucket = this.#buckets.get(key);
		if (!bucket) return this.burst >= cost;
		const refilled =
			bucket.tokens + ((this.nowMs() - bucket.updatedMs) / 1000) * this.ratePerSecond;
		return Math.min(this.burst, refilled) >= cost;
	}

	/** Takes `cost` tokens from `key`'s bucket; false (and nothing taken) when it has too few. */
	take(key: string, cost = 1): boolean {
		const now = this.nowMs();
		const bucket = this.#buckets.get(key) ?? { tokens: this.burst, updatedMs: now };
		bucket.tokens = Math.min(
			this.burst,
			bucket.tokens + ((now - bucket.updatedMs) / 1000) * this.ratePerSecond
		);
		bucket.updatedMs = now;
		this.#buckets.set(key, bucket);
		if (this.#buckets.size > 100_000) this.#forgetFull(now);
		if (bucket.tokens < cost) return false;
		bucket.tokens -= cost;
		return true;
	}

	/** Seconds until `cost` tokens are there again, for Retry-After. */
	retryAfterSeconds(key: string, cost = 1): number {
		const bucket = this.#buckets.get(key);
		if (!bucket) return 0;
		return Math.max(1, Math.ceil((cost - bucket.tokens) / this.ratePerSecond));
	}

	/** Buckets that refilled completely hold no information: drop them so memory stays bounded. */
	#forgetFull(now: number): void {
		for (const [key, bucket] of this.#buckets) {
			if (bucket.tokens + ((now - bucket.updatedMs) / 1000) * this.ratePerSecond >= this.burst) {
				this.#buckets.delete(key);
			}
		}
	}
}
