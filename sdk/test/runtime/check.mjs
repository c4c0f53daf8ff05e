// The built package, imported by its name as a user's project imports it, under Node, Bun or Deno:
// a token, a send, a preview, a typed error and a real webhook delivery verified. Prints one JSON
// line for sdk/test/runtimes.e2e.test.ts to compare across runtimes.
import { readFileSync } from 'node:fs';
import { Herald, isHeraldError, verifyWebhook } from '@herald/sdk';

const env = (name) => globalThis.process?.env[name] ?? globalThis.Deno?.env.get(name);
const herald = new Herald({ baseUrl: env('HERALD_URL'), clientId: env('HERALD_CLIENT_ID'), clientSecret: env('HERALD_CLIENT_SECRET') });

const sent = await herald.sms.send({ to: '+14155550142', message: `from ${env('RUNTIME')}` });
const read = await herald.messages.get(sent.message_id);
const preview = await herald.sms.preview({ message: 'Don’t' });
let refused = 'not refused';
try {
  await herald.sms.send({ to: '12', message: 'x' });
} catch (error) {
  refused = isHeraldError(error, 'INVALID_PHONE') ? `${error.status} ${error.code}` : String(error);
}
const delivery = JSON.parse(readFileSync(env('DELIVERY_FILE'), 'utf8'));
const event = await verifyWebhook(delivery.body, delivery.headers, delivery.secret);
let tampered = 'accepted';
try {
  await verifyWebhook(`${delivery.body} `, delivery.headers, delivery.secret);
} catch (error) {
  tampered = isHeraldError(error) ? error.code : String(error);
}
console.log(
  JSON.stringify({
    sent: read.message_id === sent.message_id && read.to === '+14155550142',
    preview: `${preview.encoding} ${preview.non_gsm_characters.map((c) => `${c.character}@${c.position}`).join(',')}`,
    refused,
    event: event.type,
    tampered,
  }),
);
