import { balanceOf } from '../accounts/account.js';
import { ApiError, notFound } from '../errors.js';
import type { Store } from '../ports.js';
import { insufficientCredits, type MessageDraft, refuseBeforeAccepting } from './accept-messages.js';

/** What acceptMessages would answer for some drafts now. */
export interface AcceptPreview {
  totalMicros: number;
  /** Credits available now (balance − reserved), in micro-credits. */
  availableMicros: number;
  /** Whether the available balance covers the drafts' total now: a send holds all or nothing. */
  affordable: boolean;
  /** The first refusal acceptMessages would answer, in its order; undefined when it would accept them. */
  refusal: ApiError | undefined;
}

/**
 * What acceptMessages would answer for `drafts` now, without writing or holding anything: its own
 * checks before writing (refuseBeforeAccepting), then whether the available balance covers their
 * total, which it checks as it holds the credits (with its words: insufficientCredits). The balance
 * may change before a send; a preview is an answer for now.
 */
export async function previewAccept(store: Store, accountId: string, drafts: readonly MessageDraft[]): Promise<AcceptPreview> {
  let refusal: ApiError | undefined;
  try {
    await refuseBeforeAccepting(store, accountId, drafts);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    refusal = error;
  }
  const account = await store.accounts.findAccount(accountId);
  if (!account) throw notFound('Account');
  const { availableMicros } = balanceOf(account);
  const totalMicros = drafts.reduce((sum, draft) => sum + draft.costMicros, 0);
  const affordable = totalMicros <= availableMicros;
  refusal ??= affordable ? undefined : insufficientCredits(drafts.length, totalMicros);
  return { totalMicros, availableMicros, affordable, refusal };
}
