import { describe, expect, it } from 'vitest';
import type { HandOverGate, OutboundMessage, Provider, SendOutcome } from './provider.js';
import { createRoutedProvider } from './routed-provider.js';

const message: OutboundMessage = {
  id: 'msg_sms_01routed',
  accountId: 'acc_01',
  channel: 'sms',
  to: '+447700900123',
  sender: null,
  body: 'hi',
  payload: null,
  segments: 1,
  attempt: 1,
};
const signal = new AbortController().signal;

const NOT_BOUND: SendOutcome = {
  ok: false,
  retryable: true,
  unavailable: true,
  code: 'SMPP_NOT_BOUND',
  message: 'down',
  retryAfterMs: 4_000,
};
const SYSERR: SendOutcome = { ok: false, retryable: true, code: 'ESME_RSYSERR', message: 'try later', retryAfterMs: 1_000 };
const REFUSED: SendOutcome = { ok: false, retryable: false, code: 'ESME_RINVDSTADR', message: 'bad number' };
const PARTLY: SendOutcome = { ok: false, retryable: true, maybeAccepted: true, code: 'SMPP_NOT_BOUND', message: 'part 2 not sent' };

/** A route answering each send with the next of `answers` (a thrown Error for an Error), calling the gate first. */
function route(name: string, answers: Array<SendOutcome | Error>, gatesHandOver = true) {
  const sends: string[] = [];
  const provider: Provider = {
    name,
    channel: 'sms',
    recovery: 'hold',
    gatesHandOver,
    connected: () => true,
    async send(sent: OutboundMessage, _signal: AbortSignal, handOver?: HandOverGate) {
      if (handOver && !(await handOver())) return { ok: false, retryable: true, code: 'HANDOVER_WITHDRAWN', message: 'withdrawn' };
      sends.push(sent.id);
      const answer = answers.shift() ?? { ok: true, providerMessageId: `${name}-id` };
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return { name, provider, sends };
}

function routed(...routes: Array<ReturnType<typeof route>>) {
  return createRoutedProvider({ name: 'smpp', channel: 'sms', routes, choose: () => routes.map((r) => r.name) });
}

/** A gate that counts its calls and answers as HandOverMarks does: the first answer, every time. */
function countedGate(answer: boolean | Error = true) {
  let calls = 0;
  const gate: HandOverGate = async () => {
    calls++;
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { gate, calls: () => calls };
}

describe('a provider over several routes', () => {
  it('sends on the first route and records it', async () => {
    const [a, b] = [route('a', []), route('b', [])];
    expect(await routed(a, b).send(message, signal)).toEqual({ ok: true, providerMessageId: 'a-id', route: 'a' });
    expect(b.sends).toEqual([]);
  });

  it('fails over at once when a route is unbound or answers a temporary error, the gate asked once for all', async () => {
    const [a, b, c] = [route('a', [NOT_BOUND]), route('b', [SYSERR]), route('c', [])];
    const { gate, calls } = countedGate();
    expect(await routed(a, b, c).send(message, signal, gate)).toMatchObject({ ok: true, route: 'c' });
    expect([a.sends, b.sends, c.sends]).toEqual([[message.id], [message.id], [message.id]]);
    expect(calls()).toBe(3); // each route asks; HandOverMarks answers the later calls as the first
  });

  it('never fails over after a permanent refusal', async () => {
    const [a, b] = [route('a', [REFUSED]), route('b', [])];
    expect(await routed(a, b).send(message, signal)).toBe(REFUSED);
    expect(b.sends).toEqual([]);
  });

  it('never fails over a hand-over in doubt, and keeps the message on its route in this process', async () => {
    const [a, b] = [route('a', [new Error('no submit_sm_resp within 10000 ms'), PARTLY, NOT_BOUND]), route('b', [])];
    const provider = routed(a, b);
    await expect(provider.send(message, signal)).rejects.toThrow('no submit_sm_resp');
    expect(b.sends).toEqual([]);
    // Pinned to a: its retry goes there alone, even when a answers "not bound".
    expect(await provider.send(message, signal)).toBe(PARTLY);
    expect(await provider.send(message, signal)).toBe(NOT_BOUND);
    expect(b.sends).toEqual([]);
    // Once a takes it, the pin goes.
    expect(await provider.send(message, signal)).toMatchObject({ ok: true, route: 'a' });
    expect(await provider.send(Object.assign({}, message, { id: 'msg_sms_02' }), signal)).toMatchObject({ ok: true, route: 'a' });
  });

  it('stops when the dispatcher withdraws the hand-over or cannot record it', async () => {
    const [a, b] = [route('a', [SYSERR]), route('b', [])];
    expect(await routed(a, b).send(message, signal, countedGate(false).gate)).toMatchObject({ ok: false, code: 'HANDOVER_WITHDRAWN' });
    // A route that does not gate itself: the routed provider asks, and a failure to record stops it there.
    const [c, d] = [route('c', [SYSERR], false), route('d', [], false)];
    expect(await routed(c, d).send(message, signal, countedGate(new Error('database is locked')).gate)).toMatchObject({
      code: 'HANDOVER_WITHDRAWN',
    });
    expect([b.sends, c.sends, d.sends]).toEqual([[], [], []]);
  });

  it('passes the gate itself before a route that does not gate its hand-overs', async () => {
    const [a, b] = [route('a', [NOT_BOUND]), route('b', [], false)];
    const { gate, calls } = countedGate();
    expect(await routed(a, b).send(message, signal, gate)).toMatchObject({ ok: true, route: 'b' });
    expect(calls()).toBe(2);
  });

  it('stops when the worker stops', async () => {
    const controller = new AbortController();
    const a = route('a', [SYSERR]);
    const b = route('b', []);
    const provider = routed(a, b);
    const sending = a.provider.send.bind(a.provider);
    a.provider.send = async (...args) => {
      const outcome = await sending(...args);
      controller.abort();
      return outcome;
    };
    expect(await provider.send(message, controller.signal)).toBe(SYSERR);
    expect(b.sends).toEqual([]);
  });

  it('when every route refuses for now: waits as an outage only if each was one, back at the soonest', async () => {
    const down = await routed(route('a', [NOT_BOUND]), route('b', [Object.assign({}, NOT_BOUND, { retryAfterMs: 1_000 })])).send(
      message,
      signal,
    );
    expect(down).toMatchObject({ ok: false, retryable: true, unavailable: true, code: 'SMPP_NOT_BOUND', retryAfterMs: 1_000 });
    expect(!down.ok && down.message).toBe('route a: down route b: down');
    // Each route's own words (a host, a bind error) are the operator's: in `detail`, not `message`.
    const hosts = await routed(
      route('a', [Object.assign({}, NOT_BOUND, { detail: 'connect ECONNREFUSED 10.0.0.1:2775' })]),
      route('b', [SYSERR]),
    ).send(message, signal);
    expect(hosts).toMatchObject({
      message: 'route a: down route b: try later',
      detail: 'route a: connect ECONNREFUSED 10.0.0.1:2775 route b: try later',
    });
    const mixed = await routed(route('a', [NOT_BOUND]), route('b', [SYSERR])).send(message, signal);
    expect(mixed).toMatchObject({ ok: false, retryable: true, code: 'ESME_RSYSERR', retryAfterMs: 1_000 });
    expect(mixed).not.toHaveProperty('unavailable');
    // A single route's answer is passed on as it was.
    expect(await routed(route('a', [NOT_BOUND])).send(message, signal)).toBe(NOT_BOUND);
  });

  it('is connected while one route is, and shows each', () => {
    const a = route('a', []);
    const b = route('b', []);
    b.provider.connected = () => false;
    b.provider.lastError = () => ({ code: 'SMPP_CONNECTION_FAILED', text: 'connect ECONNREFUSED' });
    b.provider.links = () => ({ up: 0, total: 2 });
    const provider = routed(a, b);
    expect(provider.connected?.()).toBe(true);
    expect(provider.links?.()).toEqual({ up: 1, total: 3 });
    expect(provider.lastError?.()).toEqual({ code: 'SMPP_CONNECTION_FAILED', text: 'b: connect ECONNREFUSED' });
    expect(provider.routes?.()).toEqual([
      { name: 'a', connected: true, last_error: null, last_error_code: null },
      {
        name: 'b',
        connected: false,
        links: { up: 0, total: 2 },
        last_error: 'SMPP_CONNECTION_FAILED: connect ECONNREFUSED',
        last_error_code: 'SMPP_CONNECTION_FAILED',
      },
    ]);
    expect(provider.recovery).toBe('hold');
    expect(provider.gatesHandOver).toBe(true);
  });
});
