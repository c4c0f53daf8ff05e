import type { Channel } from '../ids.js';
import { listedChannels } from '../messages/list-messages.js';
import type { Store } from '../ports.js';
import type { Scope } from '../scopes.js';
import type { InboundMessage } from './inbound-message.js';

/** The messages recipients sent to the account, newest first, of the channels the caller may read (as the list of sent ones). */
export async function listReceivedMessages(
  store: Store,
  accountId: string,
  scopes: ReadonlySet<Scope>,
  input: { channel?: Channel | undefined; from?: number | undefined; to?: number | undefined; limit: number; offset: number },
): Promise<{ messages: InboundMessage[]; total: number }> {
  const channels = listedChannels(store, scopes, input);
  return store.inbound.list({ accountId, channels, from: input.from, to: input.to, limit: input.limit, offset: input.offset });
}
