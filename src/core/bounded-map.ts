/**
 * A Map that keeps at most `max` entries: setting a new one when full forgets the entry set
 * longest ago, and setting a key again makes it the newest (a reader that does so on every hit
 * gets least-recently-used eviction). With `max` 0 nothing is kept. For memos and caches that
 * must not grow with traffic.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(readonly max: number) {
    super();
  }

  override set(key: K, value: V): this {
    this.delete(key);
    if (this.max <= 0) return this;
    while (this.size >= this.max) this.delete(this.keys().next().value as K);
    return super.set(key, value);
  }
}
