import type { FailureReasonCount, MessageActivity, MessageActivityPeriod } from '../../core/ports.js';

/**
 * The overview's charts, drawn on the server as SVG: no script, and no style attribute (the CSP
 * allows neither); dashboard.css colours them by class. Each SVG is one image to assistive
 * technology (role="img") named by a sentence of its totals, and the same numbers follow in a table
 * inside <details>, for whoever cannot see the bars or wants the figures.
 */

const DAY_MS = 24 * 3600_000;

/** The bars' drawing, in SVG units; the SVG scales to the width of its box. */
export const BARS_SIZE = { width: 720, height: 240, top: 12, right: 24, bottom: 32, left: 56 } as const;
export type ChartSize = { readonly [K in keyof typeof BARS_SIZE]: number };

/** The series stacked in each bar, bottom first; the key is the class dashboard.css colours. */
export const SERIES = [
  { key: 'delivered', label: 'Delivered' },
  { key: 'failed', label: 'Failed' },
  { key: 'pending', label: 'Pending (queued or sent)' },
  { key: 'canceled', label: 'Canceled' },
] as const;
export type SeriesKey = (typeof SERIES)[number]['key'];

/** A period's messages as the charts show them. */
export interface PeriodFigures extends Record<SeriesKey, number> {
  start: number;
  created: number;
}

export const figuresOf = (period: MessageActivityPeriod): PeriodFigures => ({
  start: period.start,
  created: period.created,
  delivered: period.delivered,
  failed: period.failed,
  pending: period.byStatus.queued + period.byStatus.sent,
  canceled: period.byStatus.canceled,
});

/** An axis from 0 to a round top at or above `max` (steps of 1, 2 or 5 times a power of ten), with its ticks. */
export function axisOf(max: number): { top: number; ticks: number[] } {
  const rough = Math.max(1, max / 4);
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  const top = Math.max(step, Math.ceil(max / step) * step);
  return { top, ticks: Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step) };
}

export interface BarLayout {
  axis: { top: number; ticks: Array<{ value: number; y: number }> };
  /** Where each period's bar stands; its segments bottom first, empty ones left out. */
  bars: Array<{ start: number; x: number; width: number; segments: Array<{ key: SeriesKey; value: number; y: number; height: number }> }>;
}

const round = (n: number) => Math.round(n * 100) / 100;

/** The stacked bars of `periods` in a drawing of `size`: heights in proportion, the tallest bar within the axis. */
export function layoutBars(periods: readonly PeriodFigures[], size: ChartSize = BARS_SIZE): BarLayout {
  const plotWidth = size.width - size.left - size.right;
  const plotHeight = size.height - size.top - size.bottom;
  const base = size.top + plotHeight;
  const totals = periods.map((p) => SERIES.reduce((sum, s) => sum + p[s.key], 0));
  const { top, ticks } = axisOf(Math.max(0, ...totals));
  const scale = (value: number) => (value / top) * plotHeight;
  const band = periods.length === 0 ? 0 : plotWidth / periods.length;
  const width = Math.min(band * 0.7, 48);
  return {
    axis: { top, ticks: ticks.map((value) => ({ value, y: round(base - scale(value)) })) },
    bars: periods.map((period, i) => {
      let stacked = 0;
      const segments = SERIES.filter((s) => period[s.key] > 0).map(({ key }) => {
        const value = period[key];
        const y = base - scale(stacked + value);
        const height = scale(value);
        stacked += value;
        return { key, value, y: round(y), height: round(height) };
      });
      return { start: period.start, x: round(size.left + i * band + (band - width) / 2), width: round(width), segments };
    }),
  };
}

const count = (n: number) => n.toLocaleString('en-US');
/** The share of finished messages (delivered or failed) that were delivered, or a dash while none has finished. */
export const deliveryRate = (delivered: number, failed: number): string =>
  delivered + failed === 0 ? '—' : `${((delivered / (delivered + failed)) * 100).toFixed(1)} %`;
const reasonName = (code: string | null) => code ?? 'no reason given';

/** A period's name: its day, or its hour, in UTC (the server cannot know the reader's zone). */
function periodName(start: number, periodMs: number, form: 'short' | 'full'): string {
  const iso = new Date(start).toISOString();
  if (periodMs >= DAY_MS)
    return form === 'full'
      ? iso.slice(0, 10)
      : new Date(start).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
  return form === 'full' ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : iso.slice(11, 16);
}

/** The totals of every period, in one sentence: what the bars say, for those who cannot see them. */
export function activitySummary(periods: readonly PeriodFigures[], span: string): string {
  const sum = (key: SeriesKey | 'created') => periods.reduce((total, p) => total + p[key], 0);
  const [created, delivered, failed, pending, canceled] = [
    sum('created'),
    sum('delivered'),
    sum('failed'),
    sum('pending'),
    sum('canceled'),
  ];
  const rate = deliveryRate(delivered, failed);
  return (
    `Messages in the ${span}: ${count(created)} created, ${count(delivered)} delivered, ${count(failed)} failed, ` +
    `${count(pending)} pending, ${count(canceled)} canceled. ` +
    (rate === '—' ? 'None has been delivered or failed yet.' : `${rate} of those delivered or failed were delivered.`)
  );
}

/** Messages per period as stacked bars (delivered, failed, pending, canceled), with their table. */
export function ActivityChart({ activity, periodMs, span }: { activity: MessageActivity; periodMs: number; span: string }) {
  const periods = activity.periods.map(figuresOf);
  const { axis, bars } = layoutBars(periods);
  const size = BARS_SIZE;
  const summary = activitySummary(periods, span);
  const unit = periodMs >= DAY_MS ? 'day' : 'hour';
  // About a dozen labels whatever the number of bars, the latest always labelled.
  const every = Math.ceil(periods.length / 16);
  return (
    <figure class="chart">
      <svg class="chart-bars" viewBox={`0 0 ${size.width} ${size.height}`} role="img" aria-label={summary} data-testid="activity-chart">
        <title>{summary}</title>
        <g class="grid">
          {axis.ticks.map(({ value, y }) => (
            <g key={value}>
              <line x1={size.left} x2={size.width - size.right} y1={y} y2={y} />
              <text x={size.left - 6} y={y + 4}>
                {count(value)}
              </text>
            </g>
          ))}
        </g>
        {bars.map((bar) => (
          <g key={bar.start}>
            {bar.segments.map((s) => (
              <rect key={s.key} class={`bar ${s.key}`} x={bar.x} y={s.y} width={bar.width} height={s.height}>
                <title>{`${periodName(bar.start, periodMs, 'full')}: ${count(s.value)} ${s.key}`}</title>
              </rect>
            ))}
          </g>
        ))}
        <g class="x-axis">
          {bars.map((bar, i) =>
            (bars.length - 1 - i) % every === 0 ? (
              <text key={bar.start} x={round(bar.x + bar.width / 2)} y={size.height - size.bottom + 18}>
                {periodName(bar.start, periodMs, 'short')}
              </text>
            ) : null,
          )}
        </g>
      </svg>
      <figcaption>
        <ul class="legend">
          {SERIES.map((s) => (
            <li key={s.key}>
              <span class={`swatch ${s.key}`} aria-hidden="true" /> {s.label}
            </li>
          ))}
        </ul>
        Messages by the {unit} they were created (UTC), and what became of them.
      </figcaption>
      <details>
        <summary>
          The numbers, {unit} by {unit}
        </summary>
        <table data-testid="activity-table">
          <thead>
            <tr>
              <th scope="col">{unit === 'day' ? 'Day (UTC)' : 'Hour (UTC)'}</th>
              <th scope="col" class="number">
                Created
              </th>
              {SERIES.map((s) => (
                <th key={s.key} scope="col" class="number">
                  {s.label}
                </th>
              ))}
              <th scope="col" class="number">
                Delivered of finished
              </th>
              <th scope="col">Most frequent failure</th>
            </tr>
          </thead>
          <tbody>
            {periods.map((p, i) => {
              const reason = activity.periods[i]?.failureReasons[0];
              return (
                <tr key={p.start}>
                  <th scope="row">{periodName(p.start, periodMs, 'full')}</th>
                  <td class="number">{count(p.created)}</td>
                  {SERIES.map((s) => (
                    <td key={s.key} class="number">
                      {count(p[s.key])}
                    </td>
                  ))}
                  <td class="number">{deliveryRate(p.delivered, p.failed)}</td>
                  <td>{reason ? `${reasonName(reason.code)} (${count(reason.count)})` : '—'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

/** The reasons failed messages gave, most frequent first, as bars; those past the top ones are summed as other reasons. */
export function FailureReasonsChart({ reasons, failed, span }: { reasons: readonly FailureReasonCount[]; failed: number; span: string }) {
  const other = failed - reasons.reduce((sum, r) => sum + r.count, 0);
  const rows = [
    ...reasons.map((r) => ({ name: reasonName(r.code), count: r.count })),
    ...(other > 0 ? [{ name: 'other reasons', count: other }] : []),
  ];
  const row = 28;
  const [labelWidth, barsWidth] = [200, 440];
  const largest = Math.max(1, ...rows.map((r) => r.count));
  const summary = `Why messages failed in the ${span}: ${rows.map((r) => `${r.name} ${count(r.count)}`).join(', ')}.`;
  return (
    <figure class="chart">
      <svg
        class="chart-reasons"
        viewBox={`0 0 ${labelWidth + barsWidth + 80} ${rows.length * row}`}
        role="img"
        aria-label={summary}
        data-testid="reasons-chart"
      >
        <title>{summary}</title>
        {rows.map((r, i) => (
          <g key={r.name}>
            <text class="reason" x={labelWidth - 8} y={i * row + 18}>
              {r.name}
            </text>
            <rect
              class="bar failed"
              x={labelWidth}
              y={i * row + 5}
              width={round(Math.max(1, (r.count / largest) * barsWidth))}
              height={row - 10}
            />
            <text x={round(labelWidth + (r.count / largest) * barsWidth + 6)} y={i * row + 18}>
              {count(r.count)}
            </text>
          </g>
        ))}
      </svg>
      <details>
        <summary>The numbers</summary>
        <table data-testid="reasons-table">
          <thead>
            <tr>
              <th scope="col">Reason (error code)</th>
              <th scope="col" class="number">
                Failed messages
              </th>
              <th scope="col" class="number">
                Share of failures
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.name}>
                <th scope="row">{r.name}</th>
                <td class="number">{count(r.count)}</td>
                <td class="number">{`${((r.count / Math.max(1, failed)) * 100).toFixed(1)} %`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
