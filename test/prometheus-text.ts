/** Reading a Prometheus text exposition in tests (what a scraper would see). */

/** The value of the series `name{labels...}` in a Prometheus text exposition (undefined when absent). */
export function sampleOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || !line.startsWith(name)) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    const given = Object.entries(labels);
    if (given.every(([key, value]) => found[key] === value) && Object.keys(found).length === given.length) return Number(match[3]);
  }
  return undefined;
}

/** How many series the exposition holds (its sample lines). */
export const seriesIn = (text: string): number => text.split('\n').filter((line) => line !== '' && !line.startsWith('#')).length;
