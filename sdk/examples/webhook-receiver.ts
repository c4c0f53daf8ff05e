// A webhook receiver on node:http that verifies each delivery before trusting it. It sends itself an
// SMS with a callback_url pointing here, prints the events of its life, and exits once delivered.
//   HERALD_URL=... HERALD_CLIENT_ID=... HERALD_CLIENT_SECRET=... npx tsx sdk/examples/webhook-receiver.ts
// (Herald must be allowed to reach this address: WEBHOOKS_ALLOW_PRIVATE_NETWORKS=true for localhost.)
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Herald, isHeraldError, verifyWebhook } from '../src/index.js';

const herald = new Herald({
  baseUrl: process.env.HERALD_URL ?? 'http://localhost:3000',
  clientId: process.env.HERALD_CLIENT_ID ?? '',
  clientSecret: process.env.HERALD_CLIENT_SECRET ?? '',
});
// The account's signing secret; during a rotation pass [new, old].
const { secret } = await herald.webhooks.secret();

let messageId: string | undefined;
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', async () => {
    try {
      // The raw body, as received: verified before it is parsed.
      const event = await verifyWebhook(Buffer.concat(chunks), request.headers, secret);
      response.writeHead(204).end();
      console.log(`${event.id} ${event.type}`);
      if (event.type === 'message.delivered' && event.data.message_id === messageId) server.close();
    } catch (error) {
      console.error(isHeraldError(error) ? `refused: ${error.message}` : error);
      response.writeHead(400).end();
    }
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', async () => {
  const { port } = server.address() as AddressInfo;
  const sent = await herald.sms.send({ to: '+14155552671', message: 'Hello', callback_url: `http://127.0.0.1:${port}/herald` });
  messageId = sent.message_id;
  console.log(`listening on ${port}; sent ${messageId}`);
});
setTimeout(() => {
  console.error('no delivery within 30 s');
  process.exit(1);
}, 30_000).unref();
