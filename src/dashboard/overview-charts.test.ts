import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app-harness.js';
import { signedIn, type Visitor } from '../../test/dashboard-visitor.js';
import { describeEachDialect } from '../../test/databases.js';
import type { CreatedAccount } from '../core/accounts/manage-accounts.js';
import { queuedMessage } from '../core/messages/accept-messages.js';
import type { MessageStatus } from '../core/messages/message.js';
import type { MessageActivityPeriod } from '../core/ports.js';
import { CONTENT_SECURITY_POLICY } from './dashboard.plugin.js';
import { ActivityChart, axisOf, layoutBars, type PeriodFigures } from './views/charts.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Wednesday 20 May 2026, 15:30 UTC: the 14 days are 7 to 20 May, the 48 hours 18 May 16:00 to 20 May 16:00. */
const NOW = Date.UTC(2026, 4, 20, 15, 30);
const TODAY = Date.UTC(2026, 4, 20);

/** What each seeded message becomes; a failure's code, or null for one that failed without a reason. */
type Fate = MessageStatus | { failed: string | null };

/** The (quite a few) messages of the first account, created at known times. */
const SEEDS: Array<[at: number, fates: Fate[]]> = [
  // This hour: today's day, the 48 hours' last hour.
  [
    NOW - 10 * MINUTE,
    ['delivered', 'delivered', 'read', { failed: 'UNDELIV' }, { failed: 'UNDELIV' }, { failed: 'EXPIRED' }, 'queued', 'sent'],
  ],
  // 13:05 today: the 48 hours' 46th hour.
  [TODAY + 13 * HOUR + 5 * MINUTE, ['delivered', { failed: 'REJECTD' }, 'canceled']],
  // The 48 hours' first instant (18 May, 16:00).
  [NOW + 30 * MINUTE - 48 * HOUR, [{ failed: 'UNDELIV' }]],
  // 17 May, 01:00: in the 14 days, before the 48 hours.
  [TODAY - 3 * DAY + HOUR, ['delivered', 'delivered', 'delivered', { failed: 'UNDELIV' }, { failed: null }]],
  // The 14 days' first instant, and the instant before it (not counted).
  [TODAY - 13 * DAY, ['delivered']],
  [TODAY - 13 * DAY - 1, ['delivered']],
];

const period = (
  start: number,
  byStatus: Partial<Record<MessageStatus, number>> = {},
  reasons: Array<[string | null, number]> = [],
): MessageActivityPeriod => {
  const all = { queued: 0, sent: 0, delivered: 0, read: 0, failed: 0, canceled: 0, ...byStatus };
  return {
    start,
    created: Object.values(all).reduce((a, b) => a + b, 0),
    byStatus: all,
    delivered: all.delivered + all.read,
    failed: all.failed,
    failureReasons: reasons.map(([code, count]) => ({ code, count })),
  };
};

describeEachDialect('the overview charts', (dialect) => {
  let t: TestApp;
  let first: CreatedAccount;
  let other: CreatedAccount;
  let visitor: Visitor;

  /** Messages of `account` created at `at`, each moved to its fate as the dispatcher would. */
  async function seed(account: CreatedAccount, at: number, fates: Fate[]): Promise<void> {
    const messages = fates.map((_, i) =>
      queuedMessage({ channel: 'sms', to: `+1415555${String(i).padStart(4, '0')}`, body: 'hi', costMicros: 0 }, account.account.id, at),
    );
    await t.store.messages.insertQueued(messages.map((message) => ({ message, payload: null })));
    for (const [i, fate] of fates.entries()) {
      const messageId = messages[i]?.id as string;
      if (fate === 'queued') continue;
      const failed = typeof fate === 'object';
      const moved = await t.store.messages.transition({
        messageId,
        from: ['queued'],
        to: failed ? 'failed' : fate,
        at: at + 1,
        detail: null,
        ...(failed && fate.failed !== null ? { error: { code: fate.failed, message: 'The carrier said no.' } } : {}),
      });
      expect(moved).toBe(true);
    }
  }

  beforeAll(async () => {
    t = await createTestApp(dialect);
    t.clock.set(NOW);
    first = await t.createAccount();
    other = await t.createAccount();
    for (const [at, fates] of SEEDS) await seed(first, at, fates);
    await seed(other, NOW - 10 * MINUTE, [
      'delivered',
      'delivered',
      'delivered',
      'delivered',
      { failed: 'UNDELIV' },
      { failed: 'UNDELIV' },
      { failed: 'UNDELIV' },
    ]);
    ({ visitor } = await signedIn(t, first));
  });
  afterAll(() => t.close());

  describe('the store', () => {
    it('counts the 14 days by UTC day: each period by status, and the failures by reason, most first', async () => {
      const activity = await t.store.messages.activityByPeriod({
        accountId: first.account.id,
        from: TODAY - 13 * DAY,
        to: TODAY + DAY,
        periodMs: DAY,
        topReasons: 5,
      });
      const expected = Array.from({ length: 14 }, (_, i) => period(TODAY - (13 - i) * DAY));
      expected[0] = period(TODAY - 13 * DAY, { delivered: 1 });
      expected[10] = period(TODAY - 3 * DAY, { delivered: 3, failed: 2 }, [
        ['UNDELIV', 1],
        [null, 1],
      ]);
      expected[11] = period(TODAY - 2 * DAY, { failed: 1 }, [['UNDELIV', 1]]);
      expected[13] = period(TODAY, { queued: 1, sent: 1, delivered: 3, read: 1, failed: 4, canceled: 1 }, [
        ['UNDELIV', 2],
        ['EXPIRED', 1],
        ['REJECTD', 1],
      ]);
      expect(activity).toEqual({
        periods: expected,
        failureReasons: [
          { code: 'UNDELIV', count: 4 },
          { code: 'EXPIRED', count: 1 },
          { code: 'REJECTD', count: 1 },
          { code: null, count: 1 },
        ],
      });
    });

    it('counts the 48 hours by UTC hour, and gives only the top reasons asked for', async () => {
      const to = TODAY + 16 * HOUR;
      const activity = await t.store.messages.activityByPeriod({
        accountId: first.account.id,
        from: to - 48 * HOUR,
        to,
        periodMs: HOUR,
        topReasons: 1,
      });
      expect(activity.periods).toHaveLength(48);
      const busy = activity.periods.flatMap((p, i) => (p.created > 0 ? [[i, p] as const] : []));
      expect(busy).toEqual([
        [0, period(to - 48 * HOUR, { failed: 1 }, [['UNDELIV', 1]])],
        [45, period(TODAY + 13 * HOUR, { delivered: 1, failed: 1, canceled: 1 }, [['REJECTD', 1]])],
        [47, period(TODAY + 15 * HOUR, { queued: 1, sent: 1, delivered: 2, read: 1, failed: 3 }, [['UNDELIV', 2]])],
      ]);
      expect(activity.failureReasons).toEqual([{ code: 'UNDELIV', count: 3 }]);
    });

    it("counts only the account's own messages", async () => {
      const activity = await t.store.messages.activityByPeriod({
        accountId: other.account.id,
        from: TODAY - 13 * DAY,
        to: TODAY + DAY,
        periodMs: DAY,
        topReasons: 5,
      });
      expect(activity.periods.filter((p) => p.created > 0)).toEqual([period(TODAY, { delivered: 4, failed: 3 }, [['UNDELIV', 3]])]);
      expect(activity.failureReasons).toEqual([{ code: 'UNDELIV', count: 3 }]);
    });

    it('refuses a span that is not a whole number of periods, and answers an empty one with nothing', async () => {
      const query = { accountId: first.account.id, from: TODAY, periodMs: DAY, topReasons: 5 };
      await expect(t.store.messages.activityByPeriod({ ...query, to: TODAY + DAY + 1 })).rejects.toThrow(/whole periods/);
      await expect(t.store.messages.activityByPeriod({ ...query, to: TODAY + 1_001 * DAY })).rejects.toThrow(/at most 1,000/);
      expect(await t.store.messages.activityByPeriod({ ...query, to: TODAY })).toEqual({ periods: [], failureReasons: [] });
    });
  });

  describe('the page', () => {
    /** The rows of a table of the page (by its test id), each as its header cell then its cells' text. */
    const rowsOf = (body: string, testId: string): string[][] => {
      const table = new RegExp(`<table data-testid="${testId}">(.*?)</table>`, 's').exec(body)?.[1] ?? '';
      const tbody = /<tbody>(.*)<\/tbody>/s.exec(table)?.[1] ?? '';
      return [...tbody.matchAll(/<tr>(.*?)<\/tr>/gs)].map(([, row]) =>
        [...(row ?? '').matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/gs)].map(([, cell]) => cell ?? ''),
      );
    };
    const SUMMARY_14D =
      'Messages in the last 14 days: 18 created, 8 delivered, 7 failed, 2 pending, 1 canceled. 53.3 % of those delivered or failed were delivered.';

    it('charts the 14 days as an image named by its totals, with the numbers day by day in a table', async () => {
      const page = await visitor.get('/dashboard');
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(page.body).not.toMatch(/<script>|<style>| on\w+=|style="/);
      expect(page.body).toContain('<h2 id="activity">Messages in the last 14 days</h2>');
      expect(page.body).toContain(
        `<svg class="chart-bars" viewBox="0 0 720 240" role="img" aria-label="${SUMMARY_14D}" data-testid="activity-chart"><title>${SUMMARY_14D}</title>`,
      );
      const rows = rowsOf(page.body, 'activity-table');
      expect(rows.map((row) => row[0])).toEqual(Array.from({ length: 14 }, (_, i) => `2026-05-${String(7 + i).padStart(2, '0')}`));
      // Day, created, delivered, failed, pending, canceled, delivered of finished, most frequent failure.
      expect(rows[0]).toEqual(['2026-05-07', '1', '1', '0', '0', '0', '100.0 %', '—']);
      expect(rows[1]).toEqual(['2026-05-08', '0', '0', '0', '0', '0', '—', '—']);
      expect(rows[10]).toEqual(['2026-05-17', '5', '3', '2', '0', '0', '60.0 %', 'UNDELIV (1)']);
      expect(rows[11]).toEqual(['2026-05-18', '1', '0', '1', '0', '0', '0.0 %', 'UNDELIV (1)']);
      expect(rows[13]).toEqual(['2026-05-20', '11', '4', '4', '2', '1', '50.0 %', 'UNDELIV (2)']);
      // The figures by status are the same span's.
      expect(page.body).toMatch(/status=failed">failed<\/a><\/dt><dd>7<\/dd>/);
      expect(page.body).toMatch(/status=read">read<\/a><\/dt><dd>1<\/dd>/);
      // Why they failed, the top ones: an image with the same numbers in a table.
      expect(page.body).toContain(
        'aria-label="Why messages failed in the last 14 days: UNDELIV 4, EXPIRED 1, REJECTD 1, no reason given 1."',
      );
      expect(rowsOf(page.body, 'reasons-table')).toEqual([
        ['UNDELIV', '4', '57.1 %'],
        ['EXPIRED', '1', '14.3 %'],
        ['REJECTD', '1', '14.3 %'],
        ['no reason given', '1', '14.3 %'],
      ]);
      expect(page.body).toContain('<a href="/dashboard?range=14d" aria-current="page">14 days</a>');
    });

    it('charts the 48 hours by hour when asked', async () => {
      const page = await visitor.get('/dashboard?range=48h');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<h2 id="activity">Messages in the last 48 hours</h2>');
      expect(page.body).toContain(
        'aria-label="Messages in the last 48 hours: 12 created, 4 delivered, 5 failed, 2 pending, 1 canceled. 44.4 % of those delivered or failed were delivered."',
      );
      const rows = rowsOf(page.body, 'activity-table');
      expect(rows).toHaveLength(48);
      expect(rows[0]?.[0]).toBe('2026-05-18 16:00');
      expect(rows[47]).toEqual(['2026-05-20 15:00', '8', '3', '3', '2', '0', '50.0 %', 'UNDELIV (2)']);
      expect(page.body).toContain('<a href="/dashboard?range=48h" aria-current="page">48 hours</a>');
    });

    it('shows the default span for a range it does not know, never an error', async () => {
      const reference = await visitor.get('/dashboard');
      for (const url of [
        '/dashboard?range=bogus',
        '/dashboard?range=',
        '/dashboard?range=14d&range=48h',
        '/dashboard?range[]=48h',
        '/dashboard?range=__proto__',
      ]) {
        const page = await visitor.get(url);
        expect(page.statusCode, url).toBe(200);
        expect(page.body, url).toContain('<h2 id="activity">Messages in the last 14 days</h2>');
        expect(page.body, url).toContain(`aria-label="${SUMMARY_14D}"`);
        expect(rowsOf(page.body, 'activity-table'), url).toEqual(rowsOf(reference.body, 'activity-table'));
      }
    });

    it('says so when nothing was sent in the span, and draws no chart', async () => {
      const quiet = await t.createAccount();
      const { visitor: someone } = await signedIn(t, quiet);
      const page = await someone.get('/dashboard');
      expect(page.body).toContain('No messages in the last 14 days.');
      expect(page.body).not.toContain('<svg');
      expect((await someone.get('/dashboard?range=48h')).body).toContain('No messages in the last 48 hours.');
    });

    it('shows another account only its own messages', async () => {
      const { visitor: theirs } = await signedIn(t, other);
      const page = await theirs.get('/dashboard');
      expect(page.body).toContain(
        'aria-label="Messages in the last 14 days: 7 created, 4 delivered, 3 failed, 0 pending, 0 canceled. 57.1 % of those delivered or failed were delivered."',
      );
      expect(page.body).toContain('aria-label="Why messages failed in the last 14 days: UNDELIV 3."');
    });
  });
});

describe('the chart scale', () => {
  /** A drawing 100 × 100 inside margins of 10: the numbers read as percentages. */
  const SIZE = { width: 110, height: 120, top: 10, right: 0, bottom: 10, left: 10 };
  const figures = (start: number, values: Partial<PeriodFigures> = {}): PeriodFigures => ({
    start,
    created: 0,
    delivered: 0,
    failed: 0,
    pending: 0,
    canceled: 0,
    ...values,
  });

  it('rounds the axis up to 1, 2 or 5 times a power of ten, in about four steps', () => {
    expect(axisOf(0)).toEqual({ top: 1, ticks: [0, 1] });
    expect(axisOf(1)).toEqual({ top: 1, ticks: [0, 1] });
    expect(axisOf(7)).toEqual({ top: 8, ticks: [0, 2, 4, 6, 8] });
    expect(axisOf(100)).toEqual({ top: 100, ticks: [0, 50, 100] });
    expect(axisOf(1_234)).toEqual({ top: 1_500, ticks: [0, 500, 1_000, 1_500] });
    expect(axisOf(86_400)).toEqual({ top: 100_000, ticks: [0, 50_000, 100_000] });
  });

  it('draws no bar for no period, on an axis of 0 to 1', () => {
    expect(layoutBars([], SIZE)).toEqual({
      axis: {
        top: 1,
        ticks: [
          { value: 0, y: 110 },
          { value: 1, y: 10 },
        ],
      },
      bars: [],
    });
  });

  it('draws one period as one bar in the middle, its segments stacked bottom first up to the top', () => {
    const { axis, bars } = layoutBars([figures(0, { created: 4, delivered: 3, failed: 1 })], SIZE);
    expect(axis.top).toBe(4);
    // The band is the whole width: a bar 48 wide (the widest), centred.
    expect(bars).toEqual([
      {
        start: 0,
        x: 36,
        width: 48,
        segments: [
          { key: 'delivered', value: 3, y: 35, height: 75 },
          { key: 'failed', value: 1, y: 10, height: 25 },
        ],
      },
    ]);
  });

  it('draws many periods side by side, in proportion, an empty one as no bar', () => {
    const periods = [
      figures(0),
      figures(1, { created: 5, delivered: 5 }),
      figures(2, { created: 10, delivered: 4, failed: 2, pending: 3, canceled: 1 }),
      figures(3, { created: 2, pending: 2 }),
    ];
    const { axis, bars } = layoutBars(periods, SIZE);
    expect(axis.ticks.map((tick) => [tick.value, tick.y])).toEqual([
      [0, 110],
      [5, 60],
      [10, 10],
    ]);
    expect(bars.map((bar) => [bar.x, bar.width])).toEqual([
      [13.75, 17.5],
      [38.75, 17.5],
      [63.75, 17.5],
      [88.75, 17.5],
    ]);
    expect(bars.map((bar) => bar.segments.map((s) => [s.key, s.y, s.height]))).toEqual([
      [],
      [['delivered', 60, 50]],
      [
        ['delivered', 70, 40],
        ['failed', 50, 20],
        ['pending', 20, 30],
        ['canceled', 10, 10],
      ],
      [['pending', 90, 20]],
    ]);
  });

  it('renders with no script and no style attribute, its numbers in a table', () => {
    const activity = {
      periods: [period(Date.UTC(2026, 4, 19), { delivered: 2, failed: 1 }, [['UNDELIV', 1]]), period(Date.UTC(2026, 4, 20))],
      failureReasons: [{ code: 'UNDELIV', count: 1 }],
    };
    const html = renderToString(h(ActivityChart, { activity, periodMs: DAY, span: 'last 2 days' }));
    expect(html).not.toMatch(/<script|style=| on\w+=/);
    expect(html).toContain('role="img"');
    expect(html).toContain(
      'aria-label="Messages in the last 2 days: 3 created, 2 delivered, 1 failed, 0 pending, 0 canceled. 66.7 % of those delivered or failed were delivered."',
    );
    expect(html).toContain('<th scope="row">2026-05-19</th><td class="number">3</td>');
    expect(html).toContain('<text x="216" y="226">May 19</text>');
  });
});
