import { AggregatorRegistry, Gauge, type MetricObjectWithValues, type MetricValue, Registry } from 'prom-client';
import type { Clock } from '../core/clock.js';
import { JOB_KINDS } from '../core/delivery/job-kinds.js';
import type { ProviderHealth } from '../core/delivery/provider.js';
import type { JobBacklog, Store } from '../core/ports.js';
import type { PrometheusMeter } from './prometheus-meter.js';

/** A registry's metrics as JSON (`getMetricsAsJSON`): how a thread hands its metrics to the one that serves them. */
export type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

/** The job queue is read from the store at most this often (ms); scrapes in between show the last read. */
const READ_EVERY_MS = 5_000;

export interface ScrapeSources {
  /** This thread's counters, with the process's own metrics. */
  meter: PrometheusMeter;
  /** The counters of the process's other threads (its dispatch thread), asked at each scrape. */
  others?: (() => Promise<MetricsJson[]>) | undefined;
  /** The queue's state is read from here at each scrape. */
  store: Store;
  clock: Clock;
  /** The providers' links, where this process dispatches (undefined on an API-only node). */
  providers?: (() => Promise<ProviderHealth[]>) | undefined;
}

export interface Scraper {
  contentType: string;
  /** The Prometheus text exposition of everything at this moment. */
  scrape(): Promise<string>;
}

/**
 * What a scrape answers: the counters of every thread of the process, summed (prom-client's
 * aggregation: a series that two threads count, such as webhook attempts made by either, is one
 * series), and gauges read at the moment from the store (the job queue by kind) and from the
 * providers (links up, hand-overs under way). The queue is the store's, the same seen from every
 * node: aggregate it across nodes with max, not sum.
 */
export function scraperOf(sources: ScrapeSources): Scraper {
  const state = new Registry();
  const registers = [state];
  const jobs = new Gauge({
    name: 'herald_jobs',
    help: "Jobs stored, by kind and state: due (may run now), held (a worker runs it now), stored (all, scheduled ones too). The store's, the same on every node.",
    labelNames: ['kind', 'state'],
    registers,
  });
  const oldest = new Gauge({
    name: 'herald_jobs_oldest_due_age_seconds',
    help: "How long the oldest due job of each kind has been due (0: none is due). The store's, the same on every node.",
    labelNames: ['kind'],
    registers,
  });
  const providerGauge = (name: string, help: string) => new Gauge({ name, help, labelNames: ['channel', 'provider'], registers });
  const linksUp = providerGauge(
    'herald_provider_links_up',
    'Provider links up (SMPP binds), of herald_provider_links; a provider without links counts 1 once its last hand-over reached it.',
  );
  const links = providerGauge('herald_provider_links', 'Provider links configured (SMPP binds; 1 for a provider without links).');
  const inFlight = providerGauge('herald_provider_in_flight', 'Hand-overs under way now (for SMPP, the windows in use).');

  // The queue is read with one scan of the jobs table (on SQLite, on the API thread): at most
  // every READ_EVERY_MS, however often it is scraped, and never twice at once.
  let backlogRead: { at: number; rows: Promise<JobBacklog[]> } | undefined;
  const readBacklog = (now: number): Promise<JobBacklog[]> => {
    if (!backlogRead || now - backlogRead.at >= READ_EVERY_MS) {
      const rows = sources.store.jobs.backlog(now);
      backlogRead = { at: now, rows };
      // A failed read is not kept: the next scrape reads again.
      rows.catch(() => {
        if (backlogRead?.rows === rows) backlogRead = undefined;
      });
    }
    return backlogRead.rows;
  };

  /** Reads the queue and the providers once, into the gauges. */
  const read = async () => {
    const now = sources.clock.now();
    const [backlog, health] = await Promise.all([readBacklog(now), sources.providers?.() ?? Promise.resolve(undefined)]);
    jobs.reset();
    oldest.reset();
    // Every kind is reported, 0 when none is stored: an alert on a series that vanishes when the
    // queue empties would never resolve.
    for (const kind of Object.values(JOB_KINDS)) {
      for (const state of ['stored', 'due', 'held']) jobs.set({ kind, state }, 0);
      oldest.set({ kind }, 0);
    }
    for (const row of backlog) {
      jobs.set({ kind: row.kind, state: 'stored' }, row.jobs);
      jobs.set({ kind: row.kind, state: 'due' }, row.due);
      jobs.set({ kind: row.kind, state: 'held' }, row.held);
      oldest.set({ kind: row.kind }, row.oldestDueAt === undefined ? 0 : Math.max(0, now - row.oldestDueAt) / 1000);
    }
    if (!health) return;
    for (const gauge of [linksUp, links, inFlight]) gauge.reset();
    for (const provider of health) {
      const labels = { channel: provider.channel, provider: provider.provider };
      inFlight.set(labels, provider.in_flight);
      links.set(labels, provider.links?.total ?? 1);
      if (provider.links) linksUp.set(labels, provider.links.up);
      else if (provider.connected !== null) linksUp.set(labels, provider.connected ? 1 : 0);
    }
  };

  return {
    contentType: state.contentType,
    async scrape() {
      const [others] = await Promise.all([sources.others ? sources.others() : Promise.resolve([]), read()]);
      const [own, gauges] = await Promise.all([sources.meter.registry.getMetricsAsJSON(), state.getMetricsAsJSON()]);
      return AggregatorRegistry.aggregate([own, gauges, ...others] as Parameters<typeof AggregatorRegistry.aggregate>[0]).metrics();
    },
  };
}
