import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { Clock } from '../../core/clock.js';
import { KEYWORD_LANGUAGE_CODES, type KeywordLanguageView, keywordLanguagesOf } from '../../core/inbound/keywords.js';
import type { Store } from '../../core/ports.js';
import { requirePrincipal } from '../auth.js';
import { commonErrors, Envelope, ErrorEnvelope } from '../envelope.js';

const SCOPE = { scope: 'suppressions:manage' } as const;
const SECURITY = [{ oauth2: ['suppressions:manage'] }];
const TAGS = ['Suppressions'];
/** Two GSM-7 segments (300 characters); a text needing UCS-2 takes up to five. */
const MAX_REPLY = 300;

const KeywordLanguage = Type.Object(
  {
    language: Type.String({ description: 'en, es, fr or de.' }),
    stop_keywords: Type.Array(Type.String(), {
      description: 'Messages that are one of these words alone put the writer on the suppression list.',
    }),
    start_keywords: Type.Array(Type.String(), { description: 'Messages that are one of these words alone take an opt-out off the list.' }),
    stop_reply: Type.String({ description: "The confirmation sent after a STOP keyword; '' sends none." }),
    start_reply: Type.String({ description: "The confirmation sent after a START keyword; '' sends none." }),
    custom: Type.Boolean({ description: "Whether the account set these confirmations (else they are Herald's)." }),
  },
  { title: 'KeywordLanguage' },
);

const present = (view: KeywordLanguageView) => ({
  language: view.language,
  stop_keywords: [...view.stopKeywords],
  start_keywords: [...view.startKeywords],
  stop_reply: view.stopReply,
  start_reply: view.startReply,
  custom: view.custom,
});

/** The opt-out keywords of SMS and WhatsApp and the account's confirmations of them (docs/inbound.md). */
export async function keywordRepliesRoutes(app: FastifyInstance, deps: { store: Store; clock: Clock }): Promise<void> {
  app.get(
    '/v1/keyword-replies',
    {
      config: SCOPE,
      schema: {
        summary: 'List opt-out keywords and their confirmations',
        operationId: 'listKeywordReplies',
        description:
          'For each language: the keywords that opt a recipient out (STOP...) or back in (START...) on SMS and WhatsApp, and the ' +
          'confirmation the account sends for each. The language of a keyword decides which confirmation is sent.',
        tags: TAGS,
        security: SECURITY,
        response: { 200: Envelope(Type.Object({ languages: Type.Array(KeywordLanguage) })), ...commonErrors },
      },
    },
    async (request) => ({
      success: true as const,
      data: { languages: (await keywordLanguagesOf(deps.store, requirePrincipal(request).accountId)).map(present) },
    }),
  );

  app.put<{ Params: { language: string }; Body: { stop_reply: string; start_reply: string } }>(
    '/v1/keyword-replies/:language',
    {
      config: SCOPE,
      schema: {
        summary: 'Set the confirmations of one language',
        operationId: 'setKeywordReplies',
        description:
          "Replaces the account's confirmations of STOP and START keywords in a language. An empty text sends no confirmation " +
          '(where the carrier or a law does not require one).',
        tags: TAGS,
        security: SECURITY,
        params: Type.Object({ language: Type.Union(KEYWORD_LANGUAGE_CODES.map((code) => Type.Literal(code))) }),
        body: Type.Object(
          {
            stop_reply: Type.String({ maxLength: MAX_REPLY }),
            start_reply: Type.String({ maxLength: MAX_REPLY }),
          },
          { additionalProperties: false },
        ),
        response: { 200: Envelope(KeywordLanguage), 422: ErrorEnvelope, ...commonErrors },
      },
    },
    async (request) => {
      const { accountId } = requirePrincipal(request);
      const { language } = request.params;
      const replies = { language, stopReply: request.body.stop_reply.trim(), startReply: request.body.start_reply.trim() };
      await deps.store.inbound.setKeywordReplies(accountId, replies, deps.clock.now());
      const view = (await keywordLanguagesOf(deps.store, accountId)).find((v) => v.language === language);
      return { success: true as const, data: present(view as KeywordLanguageView) };
    },
  );
}
