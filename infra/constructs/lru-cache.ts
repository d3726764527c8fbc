/**
 * Stands in for `mnemonist/lru-cache` in every function bundle (an esbuild alias, see `bundling.ts`). Its one user is
 * the DynamoDB client's endpoint-discovery cache (`@aws-sdk/endpoint-cache`), which every DynamoDB client builds with
 * room for 1,000 entries (no command of the SDK version installed adds the discovery middleware that reads it);
 * mnemonist's cache (typed pointer arrays, its iterator helpers) was 7 KB of every function. This is the same least-recently-used cache on a
 * `Map`, whose order is the order of use: the methods the endpoint cache calls (`get`, `set`, `has`, `peek`,
 * `clear`), held to mnemonist's answers by `test/infra/unit/bundle-aliases.test.ts`.
 */
export default class LRUCache<K, V> {
  readonly #capacity: number;
  readonly #entries = new Map<K, V>();

  constructor(capacity: number) {
    if (typeof capacity !== 'number' || capacity <= 0) throw new Error('lru-cache: capacity should be positive number.');
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#entries.size;
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /** The value, without making it the most recently used. */
  peek(key: K): V | undefined {
    return this.#entries.get(key);
  }

  /** The value, made the most recently used. */
  get(key: K): V | undefined {
    if (!this.#entries.has(key)) return undefined;
    const value = this.#entries.get(key) as V;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  /** Sets the value, the most recently used; past the capacity the least recently used entry leaves. */
  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.#capacity) this.#entries.delete(this.#entries.keys().next().value as K);
  }

  clear(): void {
    this.#entries.clear();
  }
}
