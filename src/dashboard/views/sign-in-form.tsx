import type { ComponentChildren } from 'preact';
import { Card, Notice } from './layout.js';

/** The sign-in card: email and password (and, for account users, the code of two-step sign-in), posted to `action`. */
export function SignInForm({
  title = 'Sign in',
  action,
  csrf,
  email,
  problem,
  notice,
  withCode,
  next,
  children,
}: {
  title?: string;
  action: string;
  csrf: string;
  email?: string;
  problem?: string | undefined;
  notice?: string | undefined;
  /** Ask for the code of an authenticator app (account users who turned two-step sign-in on). */
  withCode?: boolean;
  /** The page to go back to once signed in (return-path.ts checks it again when the form comes back). */
  next?: string | undefined;
  /** Words above the form. */
  children?: ComponentChildren;
}) {
  return (
    <Card title={title}>
      {children}
      {problem && <Notice kind="error">{problem}</Notice>}
      {notice && <Notice kind="success">{notice}</Notice>}
      <form method="post" action={action} class="stack">
        <input type="hidden" name="_csrf" value={csrf} />
        {next && <input type="hidden" name="next" value={next} />}
        <label>
          Email
          <input type="email" name="email" autocomplete="username" required value={email ?? ''} autofocus />
        </label>
        <label>
          Password
          <input type="password" name="password" autocomplete="current-password" required />
        </label>
        {withCode && (
          <label>
            Code from your authenticator app (only if you turned on two-step sign-in)
            <input type="text" name="code" autocomplete="one-time-code" inputMode="numeric" pattern="[0-9 ]{6,7}" maxLength={7} />
          </label>
        )}
        <button type="submit">Sign in</button>
      </form>
    </Card>
  );
}
