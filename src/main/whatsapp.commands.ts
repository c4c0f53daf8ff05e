import { readFileSync } from 'node:fs';
import { type Command, InvalidArgumentError, Option } from 'commander';
import {
  type AddTemplateInput,
  addTemplate,
  listTemplates,
  recordInboundMessage,
  removeTemplate,
} from '../channels/whatsapp/manage-templates.js';
import {
  componentsOfMeta,
  HEADER_FORMATS,
  type HeaderFormat,
  parameterTextOf,
  parseButtonSpec,
} from '../channels/whatsapp/template-components.js';
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
import { TEMPLATE_CATEGORIES, TEMPLATE_STATUSES, type TemplateComponentRecord, type WhatsappTemplate } from '../core/ports.js';
import { sandboxChannels } from './channels.js';
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

const parseInboundText = (text: string): string => {
  if (text.length < 1 || text.length > 4096) throw new InvalidArgumentError('expected 1 to 4096 characters');
  return text;
};

const collectButton = (spec: string, buttons: TemplateComponentRecord[]): TemplateComponentRecord[] => {
  const button = parseButtonSpec(spec);
  if (typeof button === 'string') throw new InvalidArgumentError(button);
  return [...buttons, button];
};

interface TemplateAddOptions {
  name: string;
  language: string;
  category: TemplateCategory;
  status: TemplateStatus;
  body?: string;
  headerText?: string;
  headerFormat?: HeaderFormat;
  footer?: string;
  button: TemplateComponentRecord[];
  componentsFile?: string;
  json?: boolean;
}

/** The options of `templates add` as the use case takes them; a file of components excludes the other parts. */
function templateInputOf(options: TemplateAddOptions, usageError: (message: string) => Error): AddTemplateInput {
  const { name, language, category, status } = options;
  if (options.componentsFile !== undefined) {
    if (
      options.body !== undefined ||
      options.headerText !== undefined ||
      options.headerFormat !== undefined ||
      options.footer !== undefined ||
      options.button.length > 0
    )
      throw usageError('--components-file holds the whole template: give no --body, --header-*, --footer or --button with it');
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(options.componentsFile, 'utf8'));
    } catch (error) {
      throw usageError(`cannot read --components-file ${options.componentsFile}: ${(error as Error).message}`);
    }
    const components = componentsOfMeta(parsed);
    if (typeof components === 'string') throw usageError(`invalid --components-file: ${components}`);
    return { name, language, category, status, components };
  }
  if (options.body === undefined) throw usageError('--body is required (or --components-file)');
  const format = options.headerFormat ?? (options.headerText !== undefined ? 'TEXT' : undefined);
  if (format !== undefined && format !== 'TEXT' && options.headerText !== undefined)
    throw usageError(`--header-text is for a TEXT header; an ${format} header has no text`);
  if (format === 'TEXT' && options.headerText === undefined) throw usageError('--header-format TEXT needs --header-text');
  return {
    name,
    language,
    category,
    status,
    body: options.body,
    header: format === undefined ? undefined : { format, text: options.headerText },
    footer: options.footer,
    buttons: options.button,
  };
}

/** "UTILITY, APPROVED, 2 parameters" and, where it has them, its header and buttons. */
function summaryOf(template: WhatsappTemplate): string {
  const count = template.components.reduce((n, c) => n + placeholdersOf(parameterTextOf(c)).length, 0);
  const parts = [template.category, template.status, `${count} parameter${count === 1 ? '' : 's'}`];
  const header = template.components.find((c) => c.type === 'header');
  if (header) parts.push(`${header.format ?? 'TEXT'} header`);
  const buttons = template.components.filter((c) => c.type === 'button').map((c) => c.sub_type ?? 'button');
  if (buttons.length > 0) parts.push(`buttons ${buttons.join(', ')}`);
  return parts.join(', ');
}

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
    .option('--body <text>', 'body text with parameters {{1}}, {{2}}, ... (up to 1024 characters); required without --components-file')
    .option('--header-text <text>', 'a text header (up to 60 characters, at most one parameter {{1}})')
    .addOption(
      new Option('--header-format <format>', 'a media header whose file is given at each send (or TEXT, with --header-text)').choices(
        HEADER_FORMATS,
      ),
    )
    .option('--footer <text>', 'a footer (up to 60 characters, no parameters)')
    .option(
      '--button <spec>',
      'a button, repeatable, in order: quick_reply:<label>, url:<label>:<url ending in {{1}} or not>, phone:<label>:<+number>, copy_code:<example>',
      collectButton,
      [] as TemplateComponentRecord[],
    )
    .option(
      '--components-file <file>',
      "the template's components as JSON in Meta's shape (HEADER, BODY, FOOTER, BUTTONS), instead of the options above",
    )
    .option('--json', 'print the template as JSON')
    .action((reference: string, options: TemplateAddOptions) =>
      withServices(async (services) => {
        let added: Awaited<ReturnType<typeof addTemplate>>;
        try {
          added = await addTemplate(services.store, services.clock, reference, templateInputOf(options, usageError));
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          const problems = (error.details ?? []).map((d) => `--${d.field} ${d.message}`).join('; ');
          throw usageError(`invalid template: ${problems || error.message}`);
        }
        if (!added) throw noAccount(reference);
        const { template, replaced } = added;
        if (options.json) return out(JSON.stringify(presentTemplate(template)));
        out(`${replaced ? 'replaced' : 'added'} ${template.name} (${template.language}) on ${added.account.id}: ${summaryOf(template)}`);
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
    .description(
      "take a message from <number> to the account now, as a provider's webhook would: stored, STOP/START applied, " +
        'message.received fired, the 24 h session window opened',
    )
    .argument(...ACCOUNT_ARGUMENT)
    .argument('<number>', 'the sender, in E.164 (e.g. +14155552671)', parsePhone)
    .option('--text <text>', 'what they wrote (1 to 4096 characters)', parseInboundText, 'Hi')
    .action((reference: string, phone: string, options: { text: string }) =>
      withServices(async (services) => {
        // As POST /v1/sandbox/inbound: a made-up message only where WhatsApp is the sandbox's. With
        // the Cloud API it would reach customers' webhooks, and a STOP would stop a real number.
        if (!sandboxChannels(services.providers).includes('whatsapp')) {
          throw usageError(
            'simulate-inbound works where WhatsApp goes through the sandbox (WHATSAPP_PROVIDER=sandbox, the default); here inbound messages come from the provider',
          );
        }
        const recorded = await recordInboundMessage(
          { store: services.store, clock: services.clock, prices: services.config.prices },
          reference,
          phone,
          options.text,
        );
        if (!recorded) throw noAccount(reference);
        out(
          `${phone} wrote to ${recorded.account.id} (${recorded.message.id}): session messages allowed until ${toIso(recorded.openUntil)}`,
        );
      }),
    );
}
