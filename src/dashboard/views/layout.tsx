import type { ComponentChildren } from 'preact';
import type { Role } from '../../core/users/user.js';

/** What every page of a signed-in user shows around its content. */
export interface Frame {
  accountName: string;
  email: string;
  role: Role;
  /** The CSRF token for the page's forms (sign-out included). */
  csrf: string;
  /** The path of the page, to mark its link in the navigation. */
  current: string;
  /** The account is suspended: every page says so, before anyone fills a form that would be refused. */
  suspended?: boolean;
}

const NAV: ReadonlyArray<[path: string, label: string]> = [
  ['/dashboard', 'Overview'],
  ['/dashboard/messages', 'Messages'],
  ['/dashboard/received', 'Received'],
  ['/dashboard/send', 'Send a test message'],
  // Served wherever WhatsApp is, which main/channels.ts always lists; elsewhere the page answers 404.
  ['/dashboard/templates', 'WhatsApp templates'],
  ['/dashboard/suppressions', 'Suppression list'],
  ['/dashboard/credits', 'Credits'],
  ['/dashboard/credentials', 'API credentials'],
  ['/dashboard/webhooks', 'Webhooks'],
  ['/dashboard/security', 'Security'],
];

/** The HTML document: every asset from this server (no CDN), no inline script or style (the CSP forbids both). */
export function Document({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} · Herald`}</title>
        <link rel="stylesheet" href="/dashboard/assets/dashboard.css" />
        <link rel="icon" href="/dashboard/assets/icon.svg" type="image/svg+xml" />
        <script src="/dashboard/assets/dashboard.js" defer />
      </head>
      <body>{children}</body>
    </html>
  );
}

/**
 * The frame of a signed-in page: the bar (brand, whose area, who is signed in, sign-out), the
 * navigation with the current page marked, and the content under its title. Account users' pages
 * (Page) and the operator's (operator/operator-layout.tsx) differ only in what they put in it.
 */
export function Shell({
  title,
  documentTitle,
  area,
  who,
  signOut,
  csrf,
  nav,
  current,
  operator,
  children,
}: {
  title: string;
  /** The browser tab's title, when it says more than the page's heading. */
  documentTitle?: string;
  /** Whose pages these are: the account's name, or "Operator". */
  area: string;
  who: ComponentChildren;
  signOut: string;
  csrf: string;
  nav: { label: string; links: ReadonlyArray<readonly [path: string, label: string]> };
  current: string;
  operator?: boolean;
  children: ComponentChildren;
}) {
  return (
    <Document title={documentTitle ?? title}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class={operator ? 'top operator' : 'top'}>
        <span class="brand">Herald</span>
        <span class="account">{area}</span>
        <span class="who">{who}</span>
        <form method="post" action={signOut}>
          <input type="hidden" name="_csrf" value={csrf} />
          <button type="submit" class="link">
            Sign out
          </button>
        </form>
      </header>
      <div class="frame">
        <nav aria-label={nav.label}>
          <ul>
            {nav.links.map(([path, label]) => (
              <li key={path}>
                <a href={path} aria-current={current === path ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main">
          <h1>{title}</h1>
          {children}
        </main>
      </div>
    </Document>
  );
}

/** A page of a signed-in user: the account's name, the navigation, who is signed in, and the content. */
export function Page({ title, frame, children }: { title: string; frame: Frame; children: ComponentChildren }) {
  return (
    <Shell
      title={title}
      area={frame.accountName}
      who={
        <>
          {frame.email} <span class="role">{frame.role}</span>
        </>
      }
      signOut="/dashboard/sign-out"
      csrf={frame.csrf}
      nav={{ label: 'Dashboard', links: NAV }}
      current={frame.current}
    >
      {frame.suspended && (
        <Notice kind="error">
          This account is suspended: its API access is stopped, and no message, client or webhook can be sent or changed from here. You can
          still look at its pages and manage your own sign-in. Contact the operator of this service to have it reinstated.
        </Notice>
      )}
      {children}
    </Shell>
  );
}

/** A message for the person, in words: what happened and what to do. */
export function Notice({ kind, children }: { kind: 'error' | 'success' | 'info'; children: ComponentChildren }) {
  return (
    <p class={`notice ${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  );
}

/** A page for someone not signed in (sign-in, an invitation): the brand and a narrow card. */
export function Card({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <Document title={title}>
      <main id="main" class="card">
        <p class="brand">Herald</p>
        <h1>{title}</h1>
        {children}
      </main>
    </Document>
  );
}
