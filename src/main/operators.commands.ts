import type { Command } from 'commander';
import { toIso } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import { addOperator, removeOperator } from '../core/operators/manage-operators.js';
import type { CommandKit } from './whatsapp.commands.js';

/** Everything piped in, without its final line break (a password given with --password-stdin). */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** `herald operators`: the people who sign in to the operator pages of the dashboard (/dashboard/operator). */
export function addOperatorsCommands(program: Command, kit: CommandKit): void {
  const { withServices, out, usageError } = kit;
  const operators = program.command('operators').description('manage the people who sign in to the operator pages of the dashboard');
  operators
    .command('add')
    .description('add an operator; prints a generated password once, unless one is piped in with --password-stdin')
    .argument('<email>', 'their email address; they sign in with it at /dashboard/operator')
    .option('--password-stdin', 'read the password from standard input (at least 12 characters)')
    .action((email: string, options: { passwordStdin?: boolean }) =>
      withServices(async (services) => {
        const given = options.passwordStdin ? await readStdin() : undefined;
        try {
          const { operator, password } = await addOperator(services.store, services.clock, { email, password: given });
          out(`Added operator ${operator.email}. They sign in at ${services.config.publicUrl}/dashboard/operator/sign-in`);
          if (given === undefined) out(`password  ${password}\nThe password is shown only now.`);
        } catch (error) {
          if (error instanceof ApiError) throw usageError(error.details?.[0]?.message ?? error.message);
          throw error;
        }
      }),
    );
  operators
    .command('list')
    .description('list operators')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) =>
      withServices(async (services) => {
        const list = await services.store.operators.listOperators();
        if (options.json) return out(JSON.stringify(list.map((o) => ({ id: o.id, email: o.email, created_at: toIso(o.createdAt) }))));
        if (list.length === 0) return out('no operators');
        for (const o of list) out(`${o.id}  ${o.email}  since ${toIso(o.createdAt)}`);
      }),
    );
  operators
    .command('remove')
    .description('remove an operator; their sessions end at once')
    .argument('<email>', 'their email address')
    .action((email: string) =>
      withServices(async (services) => {
        if (!(await removeOperator(services.store, email))) throw usageError(`no operator ${email}`);
        out(`Removed operator ${email.trim().toLowerCase()}.`);
      }),
    );
}
