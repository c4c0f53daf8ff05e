import { ApiError, type FieldProblem, validationError } from '../../core/errors.js';
import type { WhatsappTemplate } from '../../core/ports.js';
import type { TemplateComponentInput, TemplateParameterInput } from './send-whatsapp.js';
import { MEDIA_PARAMETER, parameterTextOf } from './template-components.js';
import { placeholdersOf } from './templates.js';

/**
 * A template send's components checked against the template (matchParameters) and written as the
 * Cloud API takes them (cloudParameter): the one check a send and its preview make.
 */

/** `header`, `body`, or `button:<index>`: which part of a template a set of parameters fills. */
const slotOf = (component: { type: string }, buttonIndex: number | undefined): string =>
  component.type === 'button' ? `button:${buttonIndex}` : component.type;
const describeSlot = (slot: string): string => (slot.startsWith('button:') ? `button ${slot.slice(7)}` : slot);
const parameters = (n: number): string => `${n} parameter${n === 1 ? '' : 's'}`;

const MEDIA_TYPES: ReadonlySet<string> = new Set(['image', 'video', 'document']);

/** What one given component carries, once its shape is checked. */
interface GivenSlot {
  /** Its text parameters, in order (none for a payload, coupon code or file). */
  texts: string[];
  sub_type: string | undefined;
  /** The file's parameter type of a media header (`image`...), when that is what it carries. */
  media: string | undefined;
  /** A copy-code button's code was given. */
  coupon: boolean;
}

/**
 * The shape of each given component, as the Cloud API would refuse it (VALIDATION_ERROR on the
 * field): a button names its index and sub_type; a quick_reply takes one payload, a copy_code one
 * coupon_code, a header text or one file, the rest text; nothing is given twice.
 */
function givenSlots(components: readonly TemplateComponentInput[]): Map<string, GivenSlot> {
  const given = new Map<string, GivenSlot>();
  const problems: FieldProblem[] = [];
  components.forEach((component, i) => {
    const params = component.parameters ?? [];
    if (component.type === 'button') {
      // The Cloud API refuses a button component without its index or sub_type: refused here, before any credit is held.
      if (component.index === undefined) problems.push({ field: `components.${i}.index`, message: 'is required for a button component' });
      if (component.sub_type === undefined) {
        problems.push({ field: `components.${i}.sub_type`, message: 'is required for a button component: quick_reply, url or copy_code' });
      }
      if (component.index === undefined || component.sub_type === undefined) return;
    }
    const slot = slotOf(component, component.index);
    if (given.has(slot)) {
      problems.push({ field: `components.${i}`, message: `repeats the ${describeSlot(slot)} component` });
      return;
    }
    const one = (type: string, field: 'payload' | 'coupon_code', example: string): boolean => {
      const [only, ...more] = params;
      const ok = only !== undefined && more.length === 0 && only.type === type && only[field] !== undefined;
      if (!ok)
        problems.push({
          field: `components.${i}.parameters`,
          message: `a ${component.sub_type} button takes exactly one parameter: ${example}`,
        });
      return ok;
    };
    const entry: GivenSlot = { texts: [], sub_type: component.sub_type, media: undefined, coupon: false };
    given.set(slot, entry);
    // A quick-reply button carries the payload returned when it is tapped, a copy-code button its code: not text for a {{n}}.
    if (component.type === 'button' && component.sub_type === 'quick_reply') {
      one('payload', 'payload', '{"type": "payload", "payload": "..."}');
      return;
    }
    if (component.type === 'button' && component.sub_type === 'copy_code') {
      entry.coupon = one('coupon_code', 'coupon_code', '{"type": "coupon_code", "coupon_code": "..."}');
      return;
    }
    const [first] = params;
    if (component.type === 'header' && first && MEDIA_TYPES.has(first.type)) {
      const link = first[first.type as 'image' | 'video' | 'document']?.link;
      if (params.length !== 1 || link === undefined) {
        problems.push({
          field: `components.${i}.parameters`,
          message: `a media header takes exactly one parameter: {"type": "${first.type}", "${first.type}": {"link": "https://..."}}`,
        });
      } else entry.media = first.type;
      return;
    }
    params.forEach((param, j) => {
      if (param.type !== 'text') {
        problems.push({
          field: `components.${i}.parameters.${j}.type`,
          message: `must be 'text' here: a payload is only a quick_reply button's, a coupon_code a copy_code button's, a file a media header's`,
        });
      } else if (param.text === undefined) {
        problems.push({ field: `components.${i}.parameters.${j}.text`, message: 'is required for a text parameter' });
      } else entry.texts.push(param.text);
    });
  });
  if (problems.length > 0) throw validationError(problems);
  return given;
}

/** What the template's part at a slot needs: text parameters, one file of a type, or one coupon code. */
interface ExpectedSlot {
  texts: number;
  /** The button's kind (template-components.ts); undefined for a header, a body, or a button stored without one. */
  sub_type: string | undefined;
  media: string | undefined;
  coupon: boolean;
}

function expectedSlots(template: WhatsappTemplate): Map<string, ExpectedSlot> {
  const expected = new Map<string, ExpectedSlot>();
  let buttons = 0;
  for (const component of template.components) {
    const format = component.format ?? 'TEXT';
    const media = component.type === 'header' && format !== 'TEXT' ? MEDIA_PARAMETER[format as keyof typeof MEDIA_PARAMETER] : undefined;
    const entry: ExpectedSlot = {
      texts: placeholdersOf(parameterTextOf(component)).length,
      sub_type: component.sub_type,
      media,
      coupon: component.sub_type === 'copy_code',
    };
    if (component.type === 'button') expected.set(slotOf(component, buttons++), entry);
    else if (component.type === 'header' || component.type === 'body') expected.set(component.type, entry);
  }
  return expected;
}

/** How a given slot differs from what the template's part needs ('' when it fits). */
function slotMismatch(slot: string, want: ExpectedSlot, got: GivenSlot | undefined): string {
  const where = describeSlot(slot);
  if (got && want.sub_type !== undefined && got.sub_type !== want.sub_type) {
    return want.sub_type === 'phone_number'
      ? `the ${where} is a phone_number button, which takes no parameters`
      : `the ${where} is a ${want.sub_type} button, not ${got.sub_type}`;
  }
  if (want.media)
    return got?.media === want.media ? '' : `the ${where} expects one ${want.media} parameter (its file), ${got?.media ?? 'none'} given`;
  if (want.coupon) return got?.coupon ? '' : `the ${where} expects one coupon_code parameter, none given`;
  const n = got?.texts.length ?? 0;
  return n === want.texts ? '' : `the ${where} expects ${parameters(want.texts)}, ${n} given`;
}

/**
 * Checks the given parameters against the template: each header, body and url button needs
 * exactly as many text parameters as it has distinct `{{n}}` placeholders, a media header its file
 * and a copy-code button its code, and each button is given as the kind it is
 * (TEMPLATE_PARAMS_MISMATCH, saying expected and given). Returns the body's parameters, in order.
 */
export function matchParameters(template: WhatsappTemplate, components: readonly TemplateComponentInput[]): string[] {
  const given = givenSlots(components);
  const expected = expectedSlots(template);
  const mismatches: string[] = [];
  for (const [slot, values] of given) {
    if (!expected.has(slot)) {
      const n = values.texts.length;
      mismatches.push(`it has no ${describeSlot(slot)}, but ${parameters(n)} ${n === 1 ? 'was' : 'were'} given for one`);
    }
  }
  for (const [slot, want] of expected) {
    const mismatch = slotMismatch(slot, want, given.get(slot));
    if (mismatch) mismatches.push(mismatch);
  }
  if (mismatches.length > 0) {
    throw new ApiError('TEMPLATE_PARAMS_MISMATCH', `Template '${template.name}' (${template.language}): ${mismatches.join('; ')}.`);
  }
  return given.get('body')?.texts ?? [];
}

/** A parameter as the Cloud API takes it: its type and its own field only. */
export function cloudParameter(p: TemplateParameterInput): Record<string, unknown> {
  switch (p.type) {
    case 'payload':
      return { type: p.type, payload: p.payload };
    case 'coupon_code':
      return { type: p.type, coupon_code: p.coupon_code };
    case 'image':
    case 'video':
    case 'document':
      return { type: p.type, [p.type]: { link: p[p.type]?.link } };
    default:
      return { type: p.type, text: p.text };
  }
}
