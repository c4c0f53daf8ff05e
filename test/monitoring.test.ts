import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PrometheusMeter } from '../src/metrics/prometheus-meter.js';
import { scraperOf } from '../src/metrics/scrape.js';
import { createTestApp, type TestApp } from './app-harness.js';

/**
 * The alert rules and the Grafana dashboard shipped in deploy/ name only metrics Herald serves
 * (a renamed metric would leave an alert that never fires), and the rules are valid Prometheus
 * rules (`promtool check rules`, from Debian's prometheus package, where it is installed).
 */
const RULES = fileURLToPath(new URL('../deploy/prometheus/herald-alerts.yml', import.meta.url));
const DASHBOARD = fileURLToPath(new URL('../deploy/grafana/herald-dashboard.json', import.meta.url));
const PROMTOOL = '/usr/bin/promtool';

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

const rules = (): Rule[] => (parse(readFileSync(RULES, 'utf8')) as { groups: Array<{ rules: Rule[] }> }).groups.flatMap((g) => g.rules);
const dashboardExprs = (): string[] =>
  (JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: Array<{ targets: Array<{ expr: string }> }> }).panels.flatMap((panel) =>
    panel.targets.map((target) => target.expr),
  );

/** Metric names an expression reads (functions, label names and keywords are not followed by `{` or a range). */
function metricsIn(expr: string): string[] {
  const names = expr.match(/\b(herald_[a-z_]+|process_[a-z_]+|nodejs_[a-z0-9_]+|up)(?=\s*[{[)]|\s*$|\s*[-/*+<>=])/g) ?? [];
  return [...new Set(names)];
}

describe('monitoring files in deploy/', () => {
  let t: TestApp;
  let served: Set<string>;

  beforeAll(async () => {
    const meter = new PrometheusMeter({ process: true });
    t = await createTestApp('sqlite', { meter });
    const token = await t.tokenFor(await t.createAccount());
    // Something of every family, so histograms and labelled counters have series.
    await t.call('POST', '/v1/sms/send', token, { to: '+14155552671', message: 'hi' });
    await t.drain();
    meter.webhookAttempt('delivered', 0.01);
    meter.shed('send');
    const providers = async () => [
      {
        channel: 'sms',
        provider: 'smpp',
        connected: true,
        last_error: null,
        last_error_code: null,
        last_error_at: null,
        in_flight: 0,
        sent_last_minute: 0,
        unmatched_receipts: 0,
        links: { up: 1, total: 2 },
      },
    ];
    const text = await scraperOf({ meter, store: t.store, clock: t.clock, providers }).scrape();
    served = new Set(
      text
        .split('\n')
        .filter((line) => line !== '' && !line.startsWith('#'))
        .map((line) => (line.match(/^[a-zA-Z_:][a-zA-Z0-9_:]*/) as RegExpMatchArray)[0]),
    );
    served.add('up'); // Prometheus's own, per target
  });
  afterAll(() => t?.close());

  it('every alert has a summary, a severity and an expression on metrics Herald serves', () => {
    const all = rules();
    expect(all.map((rule) => rule.alert)).toEqual(
      expect.arrayContaining([
        'HeraldDown',
        'HeraldMessageFailureRateHigh',
        'HeraldQueueBehind',
        'HeraldWebhookFailures',
        'HeraldProviderLinksDown',
      ]),
    );
    for (const rule of all) {
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
      expect(['warning', 'critical'], rule.alert).toContain(rule.labels?.severity);
      const names = metricsIn(rule.expr);
      expect(names.length, rule.alert).toBeGreaterThan(0);
      for (const name of names) expect(served, `${rule.alert} reads ${name}`).toContain(name);
    }
  });

  it('every dashboard panel reads metrics Herald serves', () => {
    const exprs = dashboardExprs();
    expect(exprs.length).toBeGreaterThanOrEqual(10);
    for (const expr of exprs) {
      const names = metricsIn(expr);
      expect(names.length, expr).toBeGreaterThan(0);
      for (const name of names) expect(served, `${expr} reads ${name}`).toContain(name);
    }
  });

  it.runIf(existsSync(PROMTOOL))(
    'the rules pass promtool check rules, and fire as their unit tests say (queue behind, a bind down, failures)',
    () => {
      const output = execFileSync(PROMTOOL, ['check', 'rules', RULES], { encoding: 'utf8' });
      expect(output).toMatch(/SUCCESS: \d+ rules found/);
      // Run from deploy/prometheus: the test file names its rules relative to itself.
      const tested = execFileSync(PROMTOOL, ['test', 'rules', 'herald-alerts.test.yml'], { encoding: 'utf8', cwd: dirname(RULES) });
      expect(tested).toMatch(/SUCCESS/);
    },
  );
});
