import type { Provider } from '../../core/delivery/provider.js';
import { createRoutedProvider } from '../../core/delivery/routed-provider.js';
import { type SettingsReader, urlCredentials } from '../channel-module.js';
import { createSmtpProvider, type SmtpSettings } from './smtp.provider.js';

/** SMTP_URL_2 ... SMTP_URL_9: the relays tried after SMTP_URL, in order. */
const MAX_RELAYS = 9;

/**
 * The fallback relays' URLs (SMTP_URL_2, SMTP_URL_3, ... up to SMTP_URL_9, without gaps), each
 * checked as SMTP_URL is, naming its variable and never echoing it (it holds a password).
 */
export function readFallbackRelays(env: SettingsReader): string[] {
  const urls: string[] = [];
  for (let n = 2; n <= MAX_RELAYS; n++) {
    const key = `SMTP_URL_${n}`;
    const url = env.text(key);
    if (url === undefined) {
      const later = Array.from({ length: MAX_RELAYS - n }, (_, i) => `SMTP_URL_${n + 1 + i}`).find((k) => env.text(k) !== undefined);
      if (later) env.fail(later, `is set without ${key}: relays are numbered from 2 without gaps`);
      break;
    }
    checkSmtpUrl(env, key, url);
    urls.push(url);
  }
  return urls;
}

/**
 * Refuses, naming `key` and never echoing the value (it carries a password), an SMTP relay's URL
 * that is not smtp:// or smtps://, or whose user or password has a malformed %-escape.
 */
export function checkSmtpUrl(env: SettingsReader, key: string, url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    env.fail(key, 'is not a valid URL');
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') env.fail(key, 'must start with smtp:// or smtps://');
  urlCredentials(env, key, parsed);
}

/**
 * Email through SMTP_URL, or through it and its fallback relays with failover (docs/routing.md,
 * "Email relays"): relays `relay1` (SMTP_URL), `relay2` (SMTP_URL_2)... tried in that order. A
 * message moves on when a relay could not be reached or broke off before the message's content left
 * (SMTP_UNREACHABLE), refused our credentials (SMTP_AUTH) or answered 4xx; never after a 5xx, nor
 * when the connection broke once the content began to leave, even after its final `.`
 * (PROVIDER_UNREACHABLE, in doubt), nor when a cc recipient was taken (smtp.provider.ts).
 * SMTP_MAX_PER_SECOND is for all relays together.
 */
export function createSmtpRelays(settings: SmtpSettings & { fallbacks?: readonly string[] | undefined }): Provider {
  const { fallbacks, ...smtp } = settings;
  if (!fallbacks || fallbacks.length === 0) return createSmtpProvider(smtp);
  const urls = [smtp.url, ...fallbacks];
  const routes = urls.map((url, i) => ({
    name: `relay${i + 1}`,
    provider: createSmtpProvider(Object.assign({}, smtp, { url, maxPerSecond: undefined })),
  }));
  const order = routes.map((route) => route.name);
  return createRoutedProvider({ name: 'smtp', channel: 'email', routes, choose: () => order, maxPerSecond: smtp.maxPerSecond });
}
