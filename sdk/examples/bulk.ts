// One SMS to many recipients: the valid numbers are queued under one batch id, the others come back
// in `rejected` with the reason; nothing is charged for them.
//   HERALD_URL=... HERALD_CLIENT_ID=... HERALD_CLIENT_SECRET=... npx tsx sdk/examples/bulk.ts
import { Herald } from '../src/index.js';

const herald = new Herald({
  baseUrl: process.env.HERALD_URL ?? 'http://localhost:3000',
  clientId: process.env.HERALD_CLIENT_ID ?? '',
  clientSecret: process.env.HERALD_CLIENT_SECRET ?? '',
});

const result = await herald.sms.bulk({
  recipients: ['+14155550101', '+14155550102', 'not-a-number', '+14155550101'],
  message: 'The store opens at 9 tomorrow.',
});
console.log(`batch ${result.batch_id}: ${result.messages.length} queued`);
for (const message of result.messages) console.log(`  ${message.message_id} ${message.to} ${message.status}`);
for (const rejected of result.rejected) console.log(`  rejected ${rejected.to}: ${rejected.error.code} (${rejected.error.message})`);
