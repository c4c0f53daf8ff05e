// The floor under any gateway written for Node: the least work the smsc case's job takes, on the
// same HTTP server, SMPP package and HTTP client Herald uses, with nothing Herald adds. Each send is
// parsed and answered 202, then forwarded as one submit_sm over one bind (window 100); each DELIVRD
// becomes one JSON POST to the receiver over keep-alive connections. No authentication, validation,
// store, fsync, ledger, status history, retries or signatures. Its rate on a machine is a ceiling
// for Herald's on that machine, and Herald's ratio to it moves less with the machine's speed than
// its absolute figures do (docs/performance.md, "A floor for Node").
//
// Plain JavaScript, started with `node` as Herald's build is. Environment: SMPP_PORT (the sink's),
// RECEIVER_URL (receipts: where callbacks go). Prints `listening <port>` once it is bound.
import http from 'node:http';
import smpp from 'smpp';

const WINDOW = 100;
const receiver = process.env.RECEIVER_URL ? new URL(process.env.RECEIVER_URL) : undefined;
const agent = new http.Agent({ keepAlive: true, maxSockets: 100 });
const waiting = [];
let inFlight = 0;
let sequence = 0;

const session = smpp.connect({ url: `smpp://127.0.0.1:${process.env.SMPP_PORT}` });
session.on('error', (error) => console.error('smpp', error.message));
session.on('deliver_sm', (pdu) => {
  session.send(pdu.response());
  if (!receiver) return;
  const text = Buffer.isBuffer(pdu.short_message) ? pdu.short_message.toString('latin1') : String(pdu.short_message?.message ?? '');
  const body = JSON.stringify({ type: 'message.delivered', data: { provider_message_id: /id:(\S+)/.exec(text)?.[1] ?? null } });
  const request = http.request(
    {
      host: receiver.hostname,
      port: receiver.port,
      path: receiver.pathname,
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    },
    (response) => response.resume(),
  );
  request.on('error', (error) => console.error('callback', error.message));
  request.end(body);
});

function pump() {
  while (inFlight < WINDOW && waiting.length > 0) {
    const send = waiting.shift();
    inFlight++;
    session.submit_sm(
      { source_addr: '12345', destination_addr: send.to, short_message: send.message, registered_delivery: receiver ? 1 : 0 },
      () => {
        inFlight--;
        pump();
      },
    );
  }
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    let send;
    try {
      send = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      res.writeHead(400).end();
      return;
    }
    waiting.push({ to: String(send.to), message: String(send.message) });
    pump();
    const body = JSON.stringify({ id: `msg_${++sequence}`, status: 'queued' });
    res.writeHead(202, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  });
});

session.bind_transceiver({ system_id: 'bench', password: 'bench' }, (pdu) => {
  if (pdu.command_status !== 0) throw new Error(`bind refused: ${pdu.command_status}`);
  server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
});
process.on('SIGTERM', () => {
  server.close();
  session.close();
  agent.destroy();
  process.exit(0);
});
