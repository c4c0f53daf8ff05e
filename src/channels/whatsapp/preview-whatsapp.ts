import { balanceOf } from '../../core/accounts/account.js';
import { ApiError, notFound, validationError } from '../../core/errors.js';
import { insufficientCredits, type MessageDraft, type SendDeps } from '../../core/messages/accept-messages.js';
import { recipientSuppressed, suppressedAmong } from '../../core/suppressions/manage-suppressions.js';
import {
  requireValidPhone,
  type SendWhatsappTemplateInput,
  sessionDraft,
  sessionRefusal,
  templateDraft,
  templatePriceOf,
} from './send-whatsapp.js';
import { type SessionWindow, sessionWindowOf } from './session-window.js';

export interface PreviewWhatsappInput {
  to: string;
  /** A template send: its name, language and components, as POST /v1/whatsapp/send takes them. */
  template?: string | undefined;
  language?: string | undefined;
  components?: SendWhatsappTemplateInput['components'];
  /** A session send: its text, as POST /v1/whatsapp/session takes it. */
  message?: string | undefined;
}

/** What the same send would do, without doing it. */
export interface WhatsappPreview {
  type: 'template' | 'session';
  /** The text the message would carry (a template's body with its parameters), when the send's checks pass. */
  text: string | null;
  costMicros: number;
  window: SessionWindow;
  suppressed: boolean;
  availableMicros: number;
  affordable: boolean;
  /** What the send would answer instead of accepting it (a template check, the window, the suppression list, credits); null when it would accept it. */
  refusal: { code: string; message: string } | null;
}

/** Refusals a preview reports instead of answering them: the send's own checks of the message, not of the request's form. */
const REPORTED = new Set(['TEMPLATE_NOT_FOUND', 'TEMPLATE_NOT_APPROVED', 'TEMPLATE_PARAMS_MISMATCH', 'SESSION_WINDOW_CLOSED']);

const asRefusal = (error: ApiError) => ({ code: error.code, message: error.message });

/**
 * `POST /v1/whatsapp/preview` (docs/whatsapp.md, "Preview before sending"): the send's own checks
 * (templateDraft: the template, its status and parameters; sessionRefusal: the 24 h window), its
 * price, the suppression list and the balance, in the send's order; the first that would refuse
 * the send is `refusal`. A malformed request (a bad number, a template without language, both or
 * neither of template and message) is 422 as the send answers it. Writes and reserves nothing.
 */
export async function previewWhatsapp(deps: SendDeps, accountId: string, input: PreviewWhatsappInput): Promise<WhatsappPreview> {
  const type = kindOf(input);
  requireValidPhone(input.to);
  const window = await sessionWindowOf(deps.store, accountId, input.to, deps.clock.now());
  let draft: MessageDraft | undefined;
  let refusal: ApiError | undefined;
  if (type === 'template') {
    try {
      draft = await templateDraft(deps, accountId, {
        to: input.to,
        template: input.template as string,
        language: input.language as string,
        components: input.components,
      });
    } catch (error) {
      if (!(error instanceof ApiError) || !REPORTED.has(error.code)) throw error;
      refusal = error;
    }
  } else {
    refusal = sessionRefusal(window, input.to);
    draft = sessionDraft(deps.prices, input.to, input.message as string);
  }
  const costMicros = draft?.costMicros ?? templatePriceOf(deps.prices);
  const [entry] = (await suppressedAmong(deps.store, accountId, 'whatsapp', [input.to])).values();
  refusal ??= entry ? recipientSuppressed('whatsapp', entry.recipient, entry.reason) : undefined;
  const account = await deps.store.accounts.findAccount(accountId);
  if (!account) throw notFound('Account');
  const { availableMicros } = balanceOf(account);
  const affordable = costMicros <= availableMicros;
  const insufficient = affordable ? undefined : asRefusal(insufficientCredits(1, costMicros));
  return {
    type,
    text: refusal ? null : (draft?.body ?? null),
    costMicros,
    window,
    suppressed: entry !== undefined,
    availableMicros,
    affordable,
    refusal: refusal ? asRefusal(refusal) : (insufficient ?? null),
  };
}

/** A template send names `template` and `language`; a session send names `message`; never both. */
function kindOf(input: PreviewWhatsappInput): 'template' | 'session' {
  if (input.message !== undefined) {
    if (input.template !== undefined || input.language !== undefined || input.components !== undefined) {
      throw validationError([
        { field: 'message', message: 'must not be given with template: preview one template or one session message' },
      ]);
    }
    return 'session';
  }
  const problems = [];
  if (input.template === undefined) problems.push({ field: 'template', message: 'is required, or message for a session message' });
  if (input.language === undefined) problems.push({ field: 'language', message: 'is required with template' });
  if (problems.length > 0) throw validationError(problems);
  return 'template';
}
