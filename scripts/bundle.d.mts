/** Types of scripts/bundle.mjs for the tests' global setup (test/global-bundle.ts). */
export function bundle(options?: { readable?: boolean }): Promise<void>;
