import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { takeReceipts } from '../../src/channels/providers.js';
import { createSmppProvider, type SmppProvider } from '../../src/channels/sms/smpp.provider.js';
import type { Dialect } from '../../src/storage/database.js';
import { createTestApp, type TestApp } from '../app-harness.js';
import { testLogger } from '../logs.js';
import { until } from '../wait.js';
import { smppSettings } from './fake-smsc.js';

export interface SmppSuite {
  readonly t: TestApp;
  /** Bound before each test to the suite's SMSC, closed after it. */
  provider: SmppProvider;
  /** A fresh token per test: tests move the manual clock on by minutes, past a token's hour. */
  readonly token: string;
  send(to: string, message: string): Promise<string>;
  view(id: string): Promise<{ status: string; error: { code: string; message: string } | null; status_history: Array<{ status: string }> }>;
  /** Drains (moving the clock on a second each time: overtaking receipts retry then) until `id` is `status`. */
  settle(id: string, status: string): Promise<Awaited<ReturnType<SmppSuite['view']>>>;
}

/**
 * The end-to-end SMPP suites' common ground: a test app on `dialect`, an account with credits, and
 * before each test a provider bound to the SMSC `smsc()` names (started by the suite itself).
 */
export function useSmppSuite(dialect: Dialect, smsc: () => { port: number }): SmppSuite {
  let account: Awaited<ReturnType<TestApp['createAccount']>>;
  const state = {} as { t: TestApp; provider: SmppProvider; token: string };
  const suite: SmppSuite = {
    get t() {
      return state.t;
    },
    get provider() {
      return state.provider;
    },
    set provider(provider) {
      state.provider = provider;
    },
    get token() {
      return state.token;
    },
    async send(to, message) {
      const response = await state.t.call('POST', '/v1/sms/send', state.token, { to, message, sender: 'Herald' });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data.message_id as string;
    },
    async view(id) {
      return (await state.t.call('GET', `/v1/messages/${id}`, state.token)).json().data;
    },
    settle(id, status) {
      return until(async () => {
        state.t.clock.advance(1_000);
        await state.t.drain();
        const current = await suite.view(id);
        return current?.status === status && current;
      }, `${id} to be ${status}`);
    },
  };

  beforeAll(async () => {
    state.t = await createTestApp(dialect);
    account = await state.t.createAccount({ credits: 1_000 });
  });
  afterAll(async () => {
    await state.t?.close();
  });
  beforeEach(async () => {
    state.token = await state.t.tokenFor(account);
    state.provider = createSmppProvider(smppSettings(smsc()), {
      onReceipt: takeReceipts(state.t.store, state.t.clock),
      clock: state.t.clock,
      logger: testLogger('smpp-suite'),
    });
    state.t.providers.sms = state.provider;
    state.provider.start?.();
    await until(async () => state.provider.connected?.(), 'the bind to the SMSC');
  });
  afterEach(async () => {
    await state.provider?.close?.();
  });
  return suite;
}
