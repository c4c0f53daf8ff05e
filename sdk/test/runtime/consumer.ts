// A user's TypeScript against the built package's declarations (strict, NodeNext): compiled by the
// test with tsc and checked with `deno check`, so types that do not ship or do not resolve fail it.
import { type Herald, HeraldError, isHeraldError, type Schemas, verifyWebhook, type WebhookEvent } from '@herald/sdk';

export async function use(herald: Herald, body: string, headers: Record<string, string>, secret: string): Promise<string> {
  const preview: Schemas['SmsPreview'] = await herald.sms.preview({ message: 'hi', to: '+14155552671' });
  const sent = await herald.sms.send({ to: '+14155552671', message: 'hi' });
  const segments: number = sent.segments;
  try {
    const event: WebhookEvent = await verifyWebhook(body, headers, secret);
    return `${preview.segments} ${segments} ${event.type}`;
  } catch (error) {
    if (isHeraldError(error, 'WEBHOOK_SIGNATURE_INVALID')) return error.code;
    if (error instanceof HeraldError) return String(error.status);
    throw error;
  }
}
