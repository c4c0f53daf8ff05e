// Sends an SMS and waits until it is delivered (or failed), printing each status it passes.
//   HERALD_URL=http://localhost:3000 HERALD_CLIENT_ID=... HERALD_CLIENT_SECRET=... npx tsx sdk/examples/send-and-wait.ts +14155552671
import { Herald, isHeraldError } from '../src/index.js';

const herald = new Herald({
  baseUrl: process.env.HERALD_URL ?? 'http://localhost:3000',
  clientId: process.env.HERALD_CLIENT_ID ?? '',
  clientSecret: process.env.HERALD_CLIENT_SECRET ?? '',
});

try {
  const sent = await herald.sms.send({ to: process.argv[2] ?? '+14155552671', message: 'Your code is 123456' });
  console.log(`${sent.message_id} ${sent.status} (${sent.segments} segment, ${sent.credits_used} credits)`);
  let status: string = sent.status;
  const deadline = Date.now() + 30_000;
  while (status === 'queued' || status === 'sent') {
    if (Date.now() > deadline) throw new Error(`still ${status} after 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
    const message = await herald.messages.get(sent.message_id);
    // An id of a sent message names a sent message; received ones (direction 'inbound') have no status.
    if (message.direction !== 'outbound') break;
    if (message.status !== status) console.log(`${sent.message_id} ${message.status}`);
    status = message.status;
  }
  process.exitCode = status === 'delivered' ? 0 : 1;
} catch (error) {
  // Every error the API answers is a HeraldError, with the code of the catalogue and the request id.
  if (isHeraldError(error)) console.error(`${error.code} (${error.status}): ${error.message} [request ${error.requestId}]`);
  else console.error(error);
  process.exitCode = 1;
}
