import type { Store } from '../ports.js';
import type { KeywordReplies } from './inbound-message.js';

/** What an inbound keyword asks for: to hear nothing more (STOP), or to hear again (START). */
export type KeywordAction = 'stop' | 'start';

interface Language {
  stop: readonly string[];
  start: readonly string[];
  replies: { stop: string; start: string };
}

/**
 * The opt-out keywords Herald honours on channels that take them (SMS, WhatsApp), by language, with
 * the confirmation a carrier expects. English's are the CTIA's (and Twilio's) set; each account may
 * replace a language's confirmations or silence them (PUT /v1/keyword-replies/{language}). A message
 * is a keyword when it is one of these words alone, whatever its case, spaces and final punctuation.
 */
export const KEYWORD_LANGUAGES: Readonly<Record<string, Language>> = {
  en: {
    stop: ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'REVOKE'],
    start: ['START', 'UNSTOP', 'SUBSCRIBE'],
    replies: {
      stop: 'You have been unsubscribed and will receive no further messages. Reply START to resubscribe.',
      start: 'You have been resubscribed and will receive messages again. Reply STOP to unsubscribe.',
    },
  },
  es: {
    stop: ['BAJA', 'ALTO', 'PARAR', 'CANCELAR'],
    start: ['ALTA', 'INICIAR'],
    replies: {
      stop: 'Se ha dado de baja y no recibirá más mensajes. Responda ALTA para volver a suscribirse.',
      start: 'Se ha suscrito de nuevo y volverá a recibir mensajes. Responda BAJA para darse de baja.',
    },
  },
  fr: {
    stop: ['ARRET', 'ARRÊT', 'DESABONNER', 'DÉSABONNER'],
    start: ['REPRISE', 'ABONNER'],
    replies: {
      stop: 'Vous êtes désabonné et ne recevrez plus de messages. Répondez REPRISE pour vous réabonner.',
      start: 'Vous êtes réabonné et recevrez de nouveau des messages. Répondez ARRET pour vous désabonner.',
    },
  },
  de: {
    stop: ['STOPP', 'ABMELDEN', 'ABBESTELLEN'],
    start: ['ANMELDEN', 'WEITER'],
    replies: {
      stop: 'Sie wurden abgemeldet und erhalten keine weiteren Nachrichten. Antworten Sie ANMELDEN, um sich wieder anzumelden.',
      start: 'Sie wurden wieder angemeldet und erhalten wieder Nachrichten. Antworten Sie STOPP, um sich abzumelden.',
    },
  },
};

export const KEYWORD_LANGUAGE_CODES = Object.keys(KEYWORD_LANGUAGES);

const byWord = new Map<string, { action: KeywordAction; language: string }>();
for (const [language, { stop, start }] of Object.entries(KEYWORD_LANGUAGES)) {
  for (const word of stop) if (!byWord.has(word)) byWord.set(word, { action: 'stop', language });
  for (const word of start) if (!byWord.has(word)) byWord.set(word, { action: 'start', language });
}

/** The keyword a text is, with the language it is a word of; undefined for any other text. */
export function keywordOf(text: string): { action: KeywordAction; language: string } | undefined {
  const word = text
    .trim()
    .replace(/[.!¡?¿\s]+$/u, '')
    .replace(/^[¡¿\s]+/u, '')
    .toUpperCase();
  if (word.length === 0 || word.length > 16) return undefined;
  return byWord.get(word);
}

/** The confirmation of `action` in `language`: the account's own text where it set one ('' for none), else Herald's. */
export function confirmationOf(action: KeywordAction, language: string, own: KeywordReplies | undefined): string {
  if (own) return action === 'stop' ? own.stopReply : own.startReply;
  const builtIn = KEYWORD_LANGUAGES[language] ?? KEYWORD_LANGUAGES.en;
  return builtIn ? builtIn.replies[action] : '';
}

/** A language's keywords and the confirmations an account sends for them. */
export interface KeywordLanguageView {
  language: string;
  stopKeywords: readonly string[];
  startKeywords: readonly string[];
  stopReply: string;
  startReply: string;
  /** Whether the account set its own confirmations (else Herald's are sent). */
  custom: boolean;
}

/** Every language Herald knows keywords of, with the account's confirmations in it. */
export async function keywordLanguagesOf(store: Store, accountId: string): Promise<KeywordLanguageView[]> {
  const own = new Map((await store.inbound.keywordReplies(accountId)).map((r) => [r.language, r]));
  return Object.entries(KEYWORD_LANGUAGES).map(([language, { stop, start }]) => {
    const mine = own.get(language);
    return {
      language,
      stopKeywords: stop,
      startKeywords: start,
      stopReply: confirmationOf('stop', language, mine),
      startReply: confirmationOf('start', language, mine),
      custom: mine !== undefined,
    };
  });
}
