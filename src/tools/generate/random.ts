/**
 * The generator's only source of randomness: a seeded mulberry32 stream, so the same options give
 * byte-identical stores (no clock, no crypto). Each session draws from its own stream
 * (`Rng.derive(seed, index)`), so adding a session or a big file does not change the others.
 */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A stream for item `index` of the stream family `seed`. */
  static derive(seed: number, index: number): Rng {
    return new Rng(Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35));
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Lowercase hex digits. */
  hex(length: number): string {
    let out = '';
    while (out.length < length)
      out += Math.floor(this.next() * 0x10000)
        .toString(16)
        .padStart(4, '0');
    return out.slice(0, length);
  }

  /** Log-normal around `median` (a heavy tail, like real tool outputs), at least 1. */
  logNormal(median: number, sigma = 0.9): number {
    const u = Math.max(this.next(), 1e-12);
    const normal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
    return Math.max(1, Math.round(median * Math.exp(sigma * normal)));
  }

  /** A UUIDv7 whose time field is `ms` (pi's session ids). */
  uuidv7(ms: number): string {
    const time = Math.floor(ms).toString(16).padStart(12, '0').slice(-12);
    const variant = (8 + this.int(0, 3)).toString(16);
    return `${time.slice(0, 8)}-${time.slice(8)}-7${this.hex(3)}-${variant}${this.hex(3)}-${this.hex(12)}`;
  }
}
