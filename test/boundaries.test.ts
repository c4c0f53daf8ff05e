import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

/** The rules (.dependency-cruiser.cjs): which folder may import which. */
const config = createRequire(import.meta.url)('../.dependency-cruiser.cjs') as {
  forbidden: IForbiddenRuleType[];
  options: Record<string, unknown>;
};

/** Every import under `baseDir`/src that breaks a rule, as "rule: from → to", and how many modules were read. */
async function cruiseSrc(baseDir: string): Promise<{ violations: string[]; modules: number }> {
  const { output } = await cruise(['src'], {
    ruleSet: { forbidden: config.forbidden },
    exclude: { path: 'node_modules' },
    validate: true,
    baseDir,
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) },
    // Resolved as `npm run lint` resolves them (.tsx pages included).
    enhancedResolveOptions: config.options.enhancedResolveOptions as Record<string, unknown>,
  });
  const { summary } = output as ICruiseResult;
  return { violations: summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`), modules: summary.totalCruised };
}

describe('the import rules between folders (.dependency-cruiser.cjs)', () => {
  it('hold in src: core imports only core, channels and dispatch only ports, http no channel, auth no storage, the dashboard only core, only main composes', async () => {
    const { violations, modules } = await cruiseSrc(fileURLToPath(new URL('..', import.meta.url)));
    expect(modules).toBeGreaterThan(200); // the whole of src was read, not nothing
    expect(violations).toEqual([]);
  });

  it('name each import that breaks one (a fixture: a channel reaching into dispatch, core importing a channel, a page reading a store)', async () => {
    const { violations } = await cruiseSrc(fileURLToPath(new URL('./fixtures/boundaries', import.meta.url)));
    expect(violations.sort()).toEqual([
      'channels-use-ports: src/channels/sms/provider.ts → src/dispatch/worker.ts',
      'core-is-the-centre: src/core/ids.ts → src/channels/sms/provider.ts',
      'dashboard-uses-core: src/dashboard/pages/messages.pages.tsx → src/storage/stores/messages.store.ts',
    ]);
  });
});
