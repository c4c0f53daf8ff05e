/**
 * A Map that keeps at most `max` entries: setting a new one when full forgets the entry set
 * longest ago, and setting a key again makes it the newest. With `max` 0 nothing is kept. For
 * memos and caches that must not grow with traffic.
 *
 * A cache marks the entries it reads with `touch` (about least recently used): when the map is
 * full, the oldest entry goes only if it was not touched since it was set or last spared; a
 * touched one is spared once and moved to the newest end (the "second chance" policy). A hit moves
 * nothing: deleting and setting a key on every hit makes V8 rebuild the table of a long-lived Map
 * in the old generation every few hundred hits, which brought on full collections under load
 * (docs/performance.md, "Full collections under load"). A set on a full map whose entries are all
 * marked moves each once, no more than one move per hit over time.
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
