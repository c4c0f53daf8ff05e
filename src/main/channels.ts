import type { AnyChannelModule, ConfiguredChannel } from '../channels/channel-module.js';
import { emailModule } from '../channels/email/email.module.js';
import { smsModule } from '../channels/sms/sms.module.js';
import { telegramModule } from '../channels/telegram/telegram.module.js';
import { whatsappModule } from '../channels/whatsapp/whatsapp.module.js';
import { ChannelCatalogue } from '../core/channels.js';
import type { ProviderRegistry } from '../core/delivery/provider.js';
import type { Channel } from '../core/ids.js';
import { readScopeOf, sendScopeOf } from '../core/scopes.js';
import type { TestMessageChannel } from '../dashboard/pages/send.pages.js';
import type { ChannelRoutes } from '../http/channel-routes.js';
import { bodyValidator } from '../http/error-handler.js';
import type { ChannelReference } from '../http/openapi.js';

/**
 * The channels Herald serves, in the order of the API reference and of the scopes: the one list. Config reads each
 * one's settings and prices, services build each one's provider, http registers each one's
 * routes, and the store carries the catalogue (names, scopes, status hooks) to every use case.
 * A new channel is a folder under src/channels/ exporting its ChannelModule, and a line here.
 */
export const CHANNEL_MODULES: readonly AnyChannelModule[] = [smsModule, whatsappModule, emailModule, telegramModule];

/** The catalogue core and the store see, of the channels this process runs. */
export const catalogueOf = (channels: readonly ConfiguredChannel[]): ChannelCatalogue =>
  new ChannelCatalogue(channels.map((channel) => channel.module));

/** What the API reference says of each channel: its tag, and what its scopes allow ('sms:send': 'Send SMS'). */
export const channelReference = (channels: readonly ConfiguredChannel[]): ChannelReference => ({
  tags: channels.map(({ module }) => ({ name: module.title, description: module.description })),
  scopes: Object.fromEntries(
    channels.flatMap(({ module }) => [
      [sendScopeOf(module.name), module.scopes.send],
      [readScopeOf(module.name), module.scopes.read],
    ]),
  ),
});

/** Every channel's routes, for http/ to register. */
export const channelRoutes = (channels: readonly ConfiguredChannel[]): readonly ChannelRoutes[] =>
  channels.map(({ module, settings }) => module.routes(settings));

/**
 * Every channel's test-message form, for the dashboard, each with the API's own check of its body:
 * of the request the fields stand for, where the form maps them into one.
 */
export const testMessageChannels = (channels: readonly ConfiguredChannel[]): readonly TestMessageChannel[] =>
  channels.flatMap(({ module }) => {
    const form = module.testMessage;
    if (!form) return [];
    const validate = bodyValidator(form.schema);
    const check = (values: Record<string, string>) => validate(form.request ? form.request(values) : values);
    return [{ channel: module.name, title: module.title, form, check }];
  });

/** The channels the embedded sandbox carries here: only they take made-up inbound messages (the API's and the CLI's). */
export const sandboxChannels = (providers: ProviderRegistry): Channel[] =>
  Object.values(providers)
    .filter((provider) => provider.name === 'sandbox')
    .map((provider) => provider.channel);
