import type { Command } from 'commander';
import { toIso } from '../core/clock.js';
import { currentSigningSecret, rotateSigningSecret, type SigningSecretView } from '../webhooks/signing-secret.js';
import type { Services } from './services.js';
import type { CommandKit } from './whatsapp.commands.js';

const ACCOUNT_ARGUMENT = ['<account>', 'account id (acc_...) or client id (cli_...)'] as const;

/** `herald webhooks secret|rotate-secret`: the account signing secret, as GET /v1/webhooks/secret shows it. */
export function addWebhooksCommands(program: Command, kit: CommandKit): void {
  const { withServices, out, usageError } = kit;

  const print = (accountId: string, view: SigningSecretView, json: boolean | undefined) => {
    const expires = view.previousSecretExpiresAt === null ? undefined : toIso(view.previousSecretExpiresAt);
    if (json)
      return out(
        JSON.stringify({ account_id: accountId, secret: view.secret, ...(expires ? { previous_secret_expires_at: expires } : {}) }),
      );
    out(`account_id  ${accountId}`);
    out(`secret      ${view.secret}`);
    if (expires) out(`The previous secret keeps signing beside this one until ${expires}.`);
  };

  /** Runs `work` for the account named by account id or client id; an unknown one is a usage error. */
  const withAccount = (reference: string, work: (services: Services, accountId: string) => Promise<void>) =>
    withServices(async (services) => {
      const account = await services.store.accounts.findAccountByReference(reference);
      if (!account) throw usageError(`no account ${reference}`);
      await work(services, account.id);
    });

  const webhooks = program.command('webhooks').description("manage an account's webhook signing secret");
  webhooks
    .command('secret')
    .description('print the secret deliveries are signed with (made on first use)')
    .argument(...ACCOUNT_ARGUMENT)
    .option('--json', 'print JSON')
    .action((reference: string, options: { json?: boolean }) =>
      withAccount(reference, async (services, accountId) =>
        print(accountId, await currentSigningSecret(services, accountId), options.json),
      ),
    );
  webhooks
    .command('rotate-secret')
    .description('make a new signing secret; the old one keeps signing beside it for 24 hours')
    .argument(...ACCOUNT_ARGUMENT)
    .option('--json', 'print JSON')
    .action((reference: string, options: { json?: boolean }) =>
      withAccount(reference, async (services, accountId) => print(accountId, await rotateSigningSecret(services, accountId), options.json)),
    );
}
