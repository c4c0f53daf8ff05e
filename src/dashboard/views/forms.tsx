import { ApiError } from '../../core/errors.js';

/** What a use case refused, as lines for the person who filled the form: each field's problem, or the message. */
export function problemsOf(error: unknown): string[] {
  if (!(error instanceof ApiError)) throw error;
  if (error.details?.length) return error.details.map((d) => `${d.field}: ${d.message}`);
  return [error.message];
}

/** A form that posts to `action` with the page's CSRF token, and one button. */
export function ActionButton({
  action,
  csrf,
  label,
  kind,
  fields,
  confirm,
}: {
  action: string;
  csrf: string;
  label: string;
  kind?: 'danger';
  fields?: Record<string, string>;
  /** Asked before the form is sent (assets/dashboard.js), for what cannot be undone. */
  confirm?: string;
}) {
  return (
    <form method="post" action={action} class="inline" data-confirm={confirm}>
      <input type="hidden" name="_csrf" value={csrf} />
      {Object.entries(fields ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" class={kind}>
        {label}
      </button>
    </form>
  );
}

/** A form field's text, or '' (a form sends strings; anything else is no answer). */
export const field = (body: unknown, name: string, max = 2048): string => {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value.slice(0, max) : '';
};

/** A form field sent several times (checkboxes of one name). */
export const fields = (body: unknown, name: string): string[] => {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
};

/**
 * A choice of "all" (radio `limit` = all) or "only these" (checkboxes `name`), as an API client's
 * scopes and a webhook's events are chosen: the boxes ticked, whichever radio is marked (ticking
 * some and leaving "all" marked granted everything), or undefined for all. `all` is a box that
 * means every item, not counted as a tick.
 */
export const tickedOrAll = (body: unknown, name: string, all?: string): string[] | undefined => {
  const ticked = fields(body, name).filter((item) => item !== all);
  return ticked.length > 0 || field(body, 'limit') === 'some' ? ticked : undefined;
};
