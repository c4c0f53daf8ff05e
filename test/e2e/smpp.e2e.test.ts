import { afterAll, beforeAll, expect, it } from 'vitest';
import { allocateDatabase, describeEachDialect, type TestDatabaseLocation } from '../databases.js';
import { TEST_PROVIDER_SECRETS } from '../logs.js';
import { type HeraldServer, heraldEnv, killLeftoverProcesses, type ProcessEnv, runCliOk, startServer } from '../process.js';
import { type FakeSmsc, startFakeSmsc } from '../smsc/fake-smsc.js';
import { api, fetchToken } from './api.js';

const PASSWORD = TEST_PROVIDER_SECRETS.smppPassword;

async function until<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describeEachDialect('herald serve with SMS_PROVIDER=smpp', (dialect) => {
  let location: TestDatabaseLocation;
  let env: ProcessEnv;
  let smsc: FakeSmsc;
  let server: HeraldServer;
  let token: string;

  beforeAll(async () => {
    smsc = await startFakeSmsc({ systemId: 'herald', password: PASSWORD });
    smsc.receiptsFor(() => ({ stat: 'DELIVRD' }));
    location = allocateDatabase(dialect);
    env = heraldEnv(location, {
      DEMO_ACCOUNT: 'false',
      SMS_PROVIDER: 'smpp',
      SMPP_URL: `smpp://herald:${encodeURIComponent(PASSWORD)}@127.0.0.1:${smsc.port}`,
      SMPP_RECONNECT_MIN_MS: '100',
      SMPP_RECONNECT_MAX_MS: '500',
      SMPP_SYSTEM_TYPE: 'HERALD',
    });
    server = await startServer(env);
    const account = JSON.parse(
      (await runCliOk(['accounts', 'create', '--name', 'SMPP user', '--email', 'smpp@example.com', '--credits', '20', '--json'], env))
        .stdout,
    );
    token = (await fetchToken(server.url, { clientId: account.client_id, clientSecret: account.client_secret }, 'client_secret_post'))
      .access_token;
  });
  afterAll(async () => {
    try {
      if (server) expect(await server.stop()).toEqual({ code: 0, signal: null });
    } finally {
      await smsc?.close();
      await killLeftoverProcesses();
      await location?.drop();
    }
  });

  const smsHealth = async () => {
    const ready = await api(server.url, 'GET', '/readyz');
    return { status: ready.status, sms: ready.body.providers?.find((p: { channel: string }) => p.channel === 'sms'), body: ready.body };
  };
  const statusOf = async (id: string) => (await api(server.url, 'GET', `/v1/messages/${id}`, token)).body.data.status as string;

  it('binds, delivers an SMS through the SMSC, and /readyz shows the provider connected with what it sent', async () => {
    await until(async () => (await smsHealth()).sms?.connected, 'the bind');
    expect(smsc.binds.at(-1)).toEqual({ systemId: 'herald', systemType: 'HERALD', status: 0 });
    const sent = await api(server.url, 'POST', '/v1/sms/send', token, { to: '+14155552671', message: 'Through SMPP', sender: 'Herald' });
    expect(sent.status).toBe(200);
    await until(async () => (await statusOf(sent.body.data.message_id)) === 'delivered', 'the delivery');
    const { status, sms, body } = await smsHealth();
    expect(status).toBe(200);
    expect(sms).toMatchObject({
      provider: 'smpp',
      connected: true,
      last_error: null,
      in_flight: 0,
      sent_last_minute: 1,
      unmatched_receipts: 0,
    });
    expect(body.providers.map((p: { channel: string; provider: string }) => `${p.channel}:${p.provider}`).sort()).toEqual([
      'email:sandbox',
      'sms:smpp',
      'telegram:sandbox',
      'whatsapp:sandbox',
    ]);
  });

  it('with the SMSC gone: /readyz stays 200 and says why, the log says the link was lost, SMS wait while Telegram goes on; back, it delivers', async () => {
    const port = smsc.port;
    await smsc.close();
    await until(async () => (await smsHealth()).sms?.connected === false, '/readyz to show the link down');
    const { status, sms } = await smsHealth();
    expect(status).toBe(200);
    expect(sms.last_error).toMatch(/^SMPP_CONNECTION_(FAILED|LOST|CLOSED)$/);
    await server.waitForStdout((out) => out.includes('smpp link lost; rebinding'), { what: 'the link-lost log line' });

    const waiting = await api(server.url, 'POST', '/v1/sms/send', token, { to: '+14155552672', message: 'Waits for the SMSC' });
    const telegram = await api(server.url, 'POST', '/v1/telegram/send', token, { chat_id: '12345', message: 'Not held up' });
    await until(async () => (await statusOf(telegram.body.data.message_id)) === 'delivered', 'the Telegram delivery');
    expect(await statusOf(waiting.body.data.message_id)).toBe('queued');

    smsc = await startFakeSmsc({ systemId: 'herald', password: PASSWORD }, port);
    smsc.receiptsFor(() => ({ stat: 'DELIVRD' }));
    await until(async () => (await smsHealth()).sms?.connected, 'the rebind');
    await until(async () => (await statusOf(waiting.body.data.message_id)) === 'delivered', 'the waiting SMS to be delivered', 90_000);
    await server.waitForStdout((out) => out.includes('smpp bound'), { what: 'the bound log line' });
    // The SMPP password never reaches the log.
    expect(server.stdout()).not.toContain(PASSWORD);
    expect(server.stdout()).not.toContain(encodeURIComponent(PASSWORD));
  }, 150_000);
});
