import type { HandOverGate } from '../core/delivery/provider.js';
import type { Message } from '../core/messages/message.js';
import type { Store } from '../core/ports.js';

/** Where one message's gate is: not yet called, recorded in flight, refused, or not recordable. */
export type GateState = 'unasked' | 'passed' | 'refused' | 'failed';

interface Request {
  claim: { messageId: string; attempts: number };
  resolve(moved: boolean): void;
  reject(error: unknown): void;
}

/**
 * Moves claimed messages to `in_flight` right before they leave the process. Marks asked for in
 * the same turn of the event loop are written in one grouped transaction: a window of submits
 * opening at once costs one commit, not one each (the same coalescing as the dispatcher's record
 * of outcomes).
 */
export class HandOverMarks {
  #pending: Request[] = [];

  constructor(private readonly store: Store) {}

  /**
   * A gate for `message` (as `markInFlight` returned it, before its claim), and what became of it.
   * The gate may be called once; a second call answers as the first did.
   */
  gateFor(message: Message): { gate: HandOverGate; state(): GateState } {
    // Already in flight (a provider resuming what it knows it took, see Provider.resumable): the
    // mark is there, and it stays.
    if (message.dispatchState === 'in_flight') return { gate: async () => true, state: () => 'passed' };
    let state: GateState = 'unasked';
    let answer: Promise<boolean> | undefined;
    const gate: HandOverGate = () => {
      answer ??= this.#mark({ messageId: message.id, attempts: message.attempts + 1 }).then(
        (moved) => {
          state = moved ? 'passed' : 'refused';
          return moved;
        },
        (error: unknown) => {
          state = 'failed';
          throw error;
        },
      );
      return answer;
    };
    return { gate, state: () => state };
  }

  #mark(claim: Request['claim']): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ claim, resolve, reject });
      if (this.#pending.length === 1) setImmediate(() => void this.#flush());
    });
  }

  async #flush(): Promise<void> {
    const requests = this.#pending;
    this.#pending = [];
    try {
      const moved = await this.store.groupedTransaction((tx) => tx.messages.markHandedOver(requests.map((r) => r.claim)));
      for (const request of requests) request.resolve(moved.has(request.claim.messageId));
    } catch (error) {
      for (const request of requests) request.reject(error);
    }
  }
}
