import { type Command, InvalidArgumentError } from 'commander';
import { toIso } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import { audit, inviteUser, normalizeEmail } from '../core/users/manage-users.js';
import { isRole, ROLES } from '../core/users/user.js';
import type { CommandKit } from './whatsapp.commands.js';

const parseRole = (text: string) => {
  if (!isRole(text)) throw new InvalidArgumentError(`expected one of ${ROLES.join(', ')}`);
  return text;
};

/** `herald users invite`: the operator invites a person (an account's first owner) to the dashboard. */
export function addUsersCommands(program: Command, kit: CommandKit): void {
  const { withServices, out, usageError } = kit;
  const users = program.command('users').description("manage the people who sign in to an account's dashboard");
  users
    .command('invite')
    .description('invite a person to the dashboard: prints a one-time link, valid 24 hours')
    .argument('<account>', 'account id (acc_...) or client id (cli_...)')
    .argument('<email>', 'their email address; they sign in with it')
    .requiredOption('--role <role>', `${ROLES.join(', ')} (docs/dashboard.md, "Roles")`, parseRole)
    .option('--json', 'print JSON')
    .action((reference: string, email: string, options: { role: (typeof ROLES)[number]; json?: boolean }) =>
      withServices(async (services) => {
        const account = await services.store.accounts.findAccountByReference(reference);
        if (!account) throw usageError(`no account ${reference}`);
        let invited: Awaited<ReturnType<typeof inviteUser>>;
        try {
          invited = await inviteUser(services.store, services.clock, {
            accountId: account.id,
            email,
            role: options.role,
            invitedBy: null,
            ip: null,
          });
        } catch (error) {
          if (error instanceof ApiError)
            throw usageError(error.details?.[0] ? `${error.details[0].field} ${error.details[0].message}` : error.message);
          throw error;
        }
        const link = `${services.config.publicUrl}/dashboard/invitations/${invited.token}`;
        if (options.json) {
          return out(
            JSON.stringify({
              account_id: account.id,
              email: invited.invitation.email,
              role: invited.invitation.role,
              link,
              expires_at: toIso(invited.invitation.expiresAt),
            }),
          );
        }
        out(
          `Invited ${invited.invitation.email} to ${account.name} as ${invited.invitation.role}. Send them this link (it works once, until ${toIso(invited.invitation.expiresAt)}):`,
        );
        out(link);
      }),
    );
  users
    .command('two-step-off')
    .description('turn off two-step sign-in for a person who lost their authenticator app (they sign in with the password alone)')
    .argument('<email>', 'the address they sign in with')
    .action((email: string) =>
      withServices(async (services) => {
        const user = await services.store.users.findUserByEmail(normalizeEmail(email));
        if (!user) throw usageError(`no user signs in as ${email}`);
        await services.store.transaction(async (tx) => {
          await tx.users.setTotpSecret(user.id, null);
          await audit(tx, {
            accountId: user.accountId,
            actor: 'operator',
            action: 'user.two_step_off',
            target: user.email,
            ip: null,
            at: services.clock.now(),
          });
        });
        out(`Two-step sign-in is off for ${user.email}; they can turn it on again from the Security page.`);
      }),
    );
}
