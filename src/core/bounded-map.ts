/**
 * A Map that keeps at most `max` entries: setting a new one when full forgets the entry set
 * longest ago, and setting a key again makes it the newest. With `max` 0 nothing is kept. For
 * memos and caches that must not grow with traffic.
 *
 * A cache marks the entries it reads with `touch` (least-recently-used eviction, approximately):
 * when the map is full, the oldest entry is forgotten only if it was not touched since it was set
 * or last spared; a touched one is spared once and moved to the newest end (the "second chance"
 * or CLOCK policy). A read does not move its entry: deleting a key and setting it again on every
 * hit, as a strict LRU does, made V8 rebuild the Map's hash table every few hundred hits, and the
 * table of a long-lived Map is rebuilt in the old generation: at 15,000 statement-cache hits a
 * second that was most of the old generation's growth and its full collections under load. A set
 * on a full map whose entries are all marked moves each of them once (a burst of `max` moves),
 * which is still no more than one move per hit over time.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  /** Keys touched since they were set or last spared. */
  readonly #touched = new Set<K>();

  constructor(readonly max: number) {
    super();
  }

  override set(key: K, value: V): this {
    this.delete(key);
    if (this.max <= 0) return this;
    while (this.size >= this.max) this.#forgetOldest();
    return super.set(key, value);
  }

  /** Marks `key`, if present, as used: it is spared once when it is the oldest of a full map. */
  touch(key: K): void {
    if (super.has(key)) this.#touched.add(key);
  }

  override delete(key: K): boolean {
    this.#touched.delete(key);
    return super.delete(key);
  }

  override clear(): void {
    this.#touched.clear();
    super.clear();
  }

  /** Forgets the oldest entry not touched since it was set or spared, sparing the touched ones before it. */
  #forgetOldest(): void {
    for (;;) {
      const oldest = this.keys().next().value as K;
      if (!this.#touched.delete(oldest)) {
        super.delete(oldest);
        return;
      }
      const value = super.get(oldest) as V;
      super.delete(oldest);
      super.set(oldest, value);
    }
  }
}
