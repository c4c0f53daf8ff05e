import type { ChannelDefinition } from '../core/channels.js';
import type { Clock } from '../core/clock.js';
import type { Provider, ProviderReceipt } from '../core/delivery/provider.js';
import type { HealthLogger } from '../core/delivery/provider-health.js';
import type { ReceivedMessage } from '../core/inbound/inbound-message.js';
import type { Reception } from '../core/inbound/receive-messages.js';
import type { TestMessageForm } from '../core/messages/test-message.js';
import type { Store } from '../core/ports.js';
import type { PriceSetting } from '../core/pricing.js';
import type { ChannelRoutes } from '../http/channel-routes.js';
import type { SandboxOptions } from './sandbox/sandbox.provider.js';

/**
 * Reads a channel's settings from the environment. The composition root implements it over its
 * one reading of the environment (main/config.ts), so a bad value fails at start, naming its variable.
 */
export interface SettingsReader {
  /** The raw value; undefined when unset or empty. */
  text(key: string): string | undefined;
  /** The value, or a start-up error saying it is required `why` ("with SMS_PROVIDER=smpp"). */
  required(key: string, why: string): string;
  integer(key: string, fallback: number, min: number, max: number): number;
  boolean(key: string, fallback: boolean): boolean;
  /** An absolute http(s) URL without trailing slashes. */
  url(key: string, fallback: string): string;
  /** The contents of the PEM file the variable names. */
  pemFile(key: string): string;
  /** Stops the start: `${key} ${problem}`. Never put a secret's value in `problem`. */
  fail(key: string, problem: string): never;
}

/** What a channel's provider is built from, besides its own settings. */
export interface ProviderDeps {
  store: Store;
  clock: Clock;
  logger: HealthLogger;
  /** The embedded carrier every channel uses until a real provider is configured. */
  sandbox: SandboxOptions;
  /** Where a provider that hears receipts on its own link (an SMSC's deliver_sm) hands them. */
  onReceipt: (receipt: ProviderReceipt) => Promise<void>;
  /**
   * Where a provider that hears recipients' messages on its own link (an SMSC's deliver_sm, Bot API
   * long polling, an SMTP listener) hands them; resolves once the message is stored (or found to
   * belong to no account), so the link can acknowledge it.
   */
  onInbound: (received: ReceivedMessage) => Promise<Reception>;
}

/**
 * One channel, whole: what core knows of it (its name and status hooks), its prices, its settings,
 * its provider and its routes. Each channel folder exports one (`<channel>.module.ts`); the list of
 * them in main/channels.ts is the only place channels are named. Adding a channel is a folder with
 * its module, plus one line in that list.
 */
export interface ChannelModule<Settings = unknown> extends ChannelDefinition {
  /** The channel as people write it ("SMS", "WhatsApp"): its tag in the API reference. */
  readonly title: string;
  /** What it offers, under its tag in the API reference. */
  readonly description?: string | undefined;
  /** What its scopes allow, for the API reference: `<name>:send` and `<name>:read`. */
  readonly scopes: { readonly send: string; readonly read: string };
  /** Its prices, each overridable by its variable. */
  readonly prices: readonly PriceSetting[];
  /** Reads its settings (its provider, its limits) once, at start. */
  settings(env: SettingsReader): Settings;
  /** Its provider: the sandbox unless the settings name a real one. */
  provider(settings: Settings, deps: ProviderDeps): Provider;
  /** Its endpoints. */
  routes(settings: Settings): ChannelRoutes;
  /**
   * The recovery policies (`<NAME>_RECOVERY`) its provider supports beyond resend and hold: `ask`
   * only where the provider can say whether it holds a message.
   */
  canBeAsked(settings: Settings): boolean;
  /** Its "send a test message" form on the dashboard, where a text message is what it sends. */
  readonly testMessage?: TestMessageForm | undefined;
}

/** A module with its settings type forgotten, as the list in main/ holds it. */
// biome-ignore lint/suspicious/noExplicitAny: the list holds modules of every settings type; each module's own functions are typed.
export type AnyChannelModule = ChannelModule<any>;

/** A channel this Herald runs, with its settings as read at start (main/config.ts). */
export interface ConfiguredChannel {
  module: AnyChannelModule;
  settings: unknown;
}

/**
 * A credentials URL's user and password, %-decoded (SMPP_URL, SMTP_URL...); a malformed escape stops
 * the start naming `key`, never echoing the value (it carries a password).
 */
export function urlCredentials(env: SettingsReader, key: string, url: URL): { user: string; password: string } {
  try {
    return { user: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
  } catch {
    env.fail(key, 'has a malformed %-escape in its user or password (write % itself as %25)');
  }
}
