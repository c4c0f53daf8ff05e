import type { Command } from 'commander';
import { toIso } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import { addressKey, assignAddress, releaseAddress } from '../core/inbound/addresses.js';
import type { CommandKit } from './whatsapp.commands.js';

/**
 * `herald addresses`: which account each inbound address belongs to (docs/inbound.md): an SMS
 * number or short code, a WhatsApp business number, a Telegram bot (@username), an email address
 * or a whole @domain. A message a recipient sends to an address no account has is dropped.
 */
export function addAddressesCommands(program: Command, kit: CommandKit): void {
  const { withServices, out, usageError } = kit;
  const addresses = program
    .command('addresses')
    .description('give numbers, bots and email addresses to accounts, for the messages recipients send');
  addresses
    .command('add')
    .description('give an address to an account: inbound messages to it become the account’s')
    .argument('<account>', 'the account id (acc_...) or one of its client ids (cli_...)')
    .argument('<channel>', 'sms, whatsapp, telegram or email')
    .argument('<address>', 'an E.164 number or short code, @bot_username, name@example.com or @example.com')
    .action((reference: string, channel: string, address: string) =>
      withServices(async (services) => {
        const account = await services.store.accounts.findAccountByReference(reference);
        if (!account) throw usageError(`no account ${reference}`);
        try {
          const entry = await assignAddress(services.store, { accountId: account.id, channel, address, at: services.clock.now() });
          out(`${entry.channel} ${entry.address} now belongs to ${account.id} (${account.name}).`);
        } catch (error) {
          if (error instanceof ApiError) throw usageError(error.details?.[0]?.message ?? error.message);
          throw error;
        }
      }),
    );
  addresses
    .command('list')
    .description('list the addresses, every account’s or one’s')
    .argument('[account]', 'only this account’s (acc_... or cli_...)')
    .option('--json', 'print JSON')
    .action((reference: string | undefined, options: { json?: boolean }) =>
      withServices(async (services) => {
        let accountId: string | undefined;
        if (reference !== undefined) {
          const account = await services.store.accounts.findAccountByReference(reference);
          if (!account) throw usageError(`no account ${reference}`);
          accountId = account.id;
        }
        const list = await services.store.inbound.listAddresses(accountId);
        const rows = list.map((a) => ({ channel: a.channel, address: a.address, account_id: a.accountId, created_at: toIso(a.createdAt) }));
        if (options.json) return out(JSON.stringify(rows));
        if (rows.length === 0) return out('no addresses');
        for (const row of rows) out(`${row.channel.padEnd(9)} ${row.address.padEnd(32)} ${row.account_id}  since ${row.created_at}`);
      }),
    );
  addresses
    .command('remove')
    .description('take an address from its account: messages to it are dropped from then on')
    .argument('<channel>', 'sms, whatsapp, telegram or email')
    .argument('<address>', 'as listed')
    .action((channel: string, address: string) =>
      withServices(async (services) => {
        const key = addressKey(address);
        const had = await releaseAddress(services.store, { channel, address, at: services.clock.now() });
        if (!had) throw usageError(`no ${channel} address ${key}`);
        out(`Removed ${channel} ${key} from ${had}.`);
      }),
    );
}
