import type { Figure } from './bench.js';
export interface ExtraContext { storeA: string; bigFile: string; rounds: number; log(text: string): void; measure(name: string, fn: () => unknown, n?: number): Promise<Figure>; median(v: number[]): number; fmt(ms: number): string }
export async function extraBenches(_ctx: ExtraContext): Promise<Record<string, unknown>> { return {}; }
