import { type Command, InvalidArgumentError, Option } from 'commander';
import { addTemplate, listTemplates, recordInboundMessage, removeTemplate } from '../channels/whatsapp/manage-templates.js';
import {
  placeholdersOf,
  TEMPLATE_LANGUAGE,
  TEMPLATE_NAME,
  type TemplateCategory,
  type TemplateStatus,
} from '../channels/whatsapp/templates.js';
import { presentTemplate } from '../channels/whatsapp/whatsapp.routes.js';
import { toIso } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import { isValidE164 } from '../core/phone.js';
import { TEMPLATE_CATEGORIES, TEMPLATE_STATUSES } from '../core/ports.js';
import type { Services } from './services.js';

/** What the WhatsApp commands borrow from the CLI that registers them. */
export interface CommandKit {
  withServices<T>(work: (services: Services) => Promise<T>): Promise<T>;
  out(line: string): void;
  /** An error the operator caused: printed as one line, exit code 1. */
  usageError(message: string): Error;
}

const ACCOUNT_ARGUMENT = ['<account>', 'account id (acc_...) or client id (cli_...)'] as const;

const parseTemplateName = (text: string): string => {
  if (!TEMPLATE_NAME.test(text)) throw new InvalidArgumentError('expected lower-case letters, digits and underscores (e.g. order_update)');
  return text;
};

const parseLanguage = (text: string): string => {
  if (!TEMPLATE_LANGUAGE.test(text)) throw new InvalidArgumentError('expected a language code such as en or en_US');
  return text;
};

const parsePhone = (text: string): string => {
  if (!isValidE164(text)) throw new InvalidArgumentError('expected a phone number in E.164 format, e.g. +14155552671');
  return text;
};

/** `herald templates ...` and `herald whatsapp simulate-inbound`: WhatsApp in the sandbox, from the shell. */
export function addWhatsappCommands(program: Command, kit: CommandKit): void {
  const { withServices, out, usageError } = kit;
  const noAccount = (reference: string) => usageError(`no account ${reference}`);

  const templates = program.command('templates').description("manage an account's WhatsApp message templates");
  templates
    .command('add')
    .description('add a template to an account, or replace the one with the same name and language')
    .argument(...ACCOUNT_ARGUMENT)
    .requiredOption('--name <name>', 'template name: lower-case letters, digits, underscores', parseTemplateName)
    .requiredOption('--language <language>', 'language code, e.g. en_US', parseLanguage)
    .addOption(new Option('--category <category>', 'template category').choices(TEMPLATE_CATEGORIES).makeOptionMandatory())
    .addOption(
      new Option('--status <status>', 'approval status; only APPROVED templates can be sent')
        .choices(TEMPLATE_STATUSES)
        .default('APPROVED'),
    )
    .requiredOption('--body <text>', 'body text with parameters {{1}}, {{2}}, ... (up to 1024 characters)')
    .option('--json', 'print the template as JSON')
    .action(
      (
        reference: string,
        options: { name: string; language: string; category: TemplateCategory; status: TemplateStatus; body: string; json?: boolean },
      ) =>
        withServices(async (services) => {
          let added: Awaited<ReturnType<typeof addTemplate>>;
          try {
            added = await addTemplate(services.store, services.clock, reference, options);
          } catch (error) {
            if (!(error instanceof ApiError)) throw error;
            const problems = (error.details ?? []).map((d) => `--${d.field} ${d.message}`).join('; ');
            throw usageError(`invalid template: ${problems || error.message}`);
          }
          if (!added) throw noAccount(reference);
          const { template, replaced } = added;
          if (options.json) return out(JSON.stringify(presentTemplate(template)));
          const count = placeholdersOf(options.body).length;
          out(
            `${replaced ? 'replaced' : 'added'} ${template.name} (${template.language}) on ${added.account.id}: ` +
              `${template.category}, ${template.status}, ${count} parameter${count === 1 ? '' : 's'}`,
          );
        }),
    );

  templates
    .command('list')
    .description("list an account's templates")
    .argument(...ACCOUNT_ARGUMENT)
    .option('--json', 'print JSON, as GET /v1/whatsapp/templates does')
    .action((reference: string, options: { json?: boolean }) =>
      withServices(async (services) => {
        const listed = await listTemplates(services.store, reference);
        if (!listed) throw noAccount(reference);
        if (options.json) return out(JSON.stringify(listed.templates.map(presentTemplate)));
        if (listed.templates.length === 0) return out('no templates');
        for (const t of listed.templates) {
          const body = t.components.find((c) => c.type === 'body')?.text ?? '';
          out(`${t.name}  ${t.language}  ${t.category}  ${t.status}  ${JSON.stringify(body)}`);
        }
      }),
    );

  templates
    .command('remove')
    .description('remove one language version of a template')
    .argument(...ACCOUNT_ARGUMENT)
    .requiredOption('--name <name>', 'template name', parseTemplateName)
    .requiredOption('--language <language>', 'language code, e.g. en_US', parseLanguage)
    .action((reference: string, options: { name: string; language: string }) =>
      withServices(async (services) => {
        const result = await removeTemplate(services.store, reference, options.name, options.language);
        if (!result) throw noAccount(reference);
        if (!result.removed) throw usageError(`account ${result.account.id} has no template ${options.name} in ${options.language}`);
        out(`removed ${options.name} (${options.language}) from ${result.account.id}`);
      }),
    );

  program
    .command('whatsapp')
    .description('WhatsApp in the sandbox')
    .command('simulate-inbound')
    .description("record a message from <number> to the account now, as a provider's webhook would; opens the 24 h session window")
    .argument(...ACCOUNT_ARGUMENT)
    .argument('<number>', 'the sender, in E.164 (e.g. +14155552671)', parsePhone)
    .action((reference: string, phone: string) =>
      withServices(async (services) => {
        const recorded = await recordInboundMessage(services.store, services.clock, reference, phone);
        if (!recorded) throw noAccount(reference);
        out(`${phone} wrote to ${recorded.account.id}: session messages allowed until ${toIso(recorded.openUntil)}`);
      }),
    );
}
