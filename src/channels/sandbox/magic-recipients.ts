import type { Channel } from '../../core/ids.js';

/**
 * What the sandbox carrier does with a recipient (docs/how-it-works.md, "The sandbox"). Magic recipients make every path
 * of the lifecycle reachable without a real carrier; everyone else is sent, then delivered.
 */
export type SandboxBehaviour =
  | { kind: 'reject'; code: string; message: string }
  | { kind: 'fail-first-attempt'; code: string; message: string }
  | {
      kind: 'accept';
      receipt: 'delivered' | 'none' | { failed: string; message: string };
      thenComplaint?: boolean;
      /** Delivered, then the recipient answers with this text (docs/inbound.md). */
      thenReply?: string;
    };

/** What a replying magic recipient answers. */
export const SANDBOX_REPLY = 'Yes, that works for me.';

const DELIVERED: SandboxBehaviour = { kind: 'accept', receipt: 'delivered' };

const PHONE: Record<string, SandboxBehaviour> = {
  '+15005550001': { kind: 'reject', code: 'INVALID_DESTINATION', message: 'The destination number is not reachable (sandbox).' },
  '+15005550002': { kind: 'accept', receipt: { failed: 'UNDELIVERABLE', message: 'The handset could not be reached (sandbox).' } },
  '+15005550003': { kind: 'accept', receipt: 'none' },
  '+15005550004': { kind: 'fail-first-attempt', code: 'TEMPORARY_FAILURE', message: 'The carrier is temporarily unavailable (sandbox).' },
  '+15005550006': { kind: 'accept', receipt: 'delivered', thenReply: SANDBOX_REPLY },
  // Answers STOP: the account's suppression list gets them, and a confirmation goes out.
  '+15005550007': { kind: 'accept', receipt: 'delivered', thenReply: 'STOP' },
};

const EMAIL: Record<string, SandboxBehaviour> = {
  'bounce@sandbox.test': {
    kind: 'accept',
    receipt: { failed: 'BOUNCED', message: 'The receiving server rejected the address (sandbox).' },
  },
  // Delivered, then the recipient marks it as spam: a complaint receipt follows the delivery one.
  'complaint@sandbox.test': { kind: 'accept', receipt: 'delivered', thenComplaint: true },
  'reply@sandbox.test': { kind: 'accept', receipt: 'delivered', thenReply: SANDBOX_REPLY },
};

const TELEGRAM: Record<string, SandboxBehaviour> = {
  '403': { kind: 'reject', code: 'TELEGRAM_BLOCKED', message: 'Forbidden: bot was blocked by the user (sandbox).' },
  '1006': { kind: 'accept', receipt: 'delivered', thenReply: SANDBOX_REPLY },
};

export function sandboxBehaviour(channel: Channel, recipient: string): SandboxBehaviour {
  switch (channel) {
    case 'sms':
    case 'whatsapp':
      return PHONE[recipient] ?? DELIVERED;
    case 'email':
      return EMAIL[recipient.toLowerCase()] ?? DELIVERED;
    case 'telegram':
      return TELEGRAM[recipient] ?? DELIVERED;
    default:
      return DELIVERED;
  }
}
