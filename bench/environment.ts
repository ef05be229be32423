import os from 'node:os';
import { chromiumExecutablePath } from '../e2e/chromium.js';

export interface BenchEnvironment {
	node: string;
	platform: string;
	cpu_model: string;
	cpu_count: number;
	/** 1, 5 and 15 minute load averages when the bench started: high values explain slow figures. */
	load_average_at_start: number[];
	/** The Chromium every browser figure ran in (the headless shell unless it is missing). */
	chromium: string;
	timestamp: string;
}

export function describeEnvironment(): BenchEnvironment {
	const cpus = os.cpus();
	return {
		node: process.version,
		platform: `${process.platform}-${process.arch}`,
		cpu_model: cpus[0]?.model.trim() ?? 'unknown',
		cpu_count: cpus.length,
		load_average_at_start: os.loadavg().map((load) => Math.round(load * 100) / 100),
		chromium: chromiumExecutablePath,
		timestamp: new Date().toISOString()
	};
}
