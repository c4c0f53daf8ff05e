import type { ComponentChildren } from 'preact';
import { Document } from '../views/layout.js';

/** What every operator page shows around its content. */
export interface OperatorFrame {
  email: string;
  csrf: string;
  current: string;
}

const NAV: ReadonlyArray<[path: string, label: string]> = [
  ['/dashboard/operator', 'Accounts'],
  ['/dashboard/operator/system', 'Providers and queue'],
];

/** A page of a signed-in operator: marked as the operator's area, its own navigation and sign-out. */
export function OperatorPage({ title, frame, children }: { title: string; frame: OperatorFrame; children: ComponentChildren }) {
  return (
    <Document title={`${title} · operator`}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top operator">
        <span class="brand">Herald</span>
        <span class="account">Operator</span>
        <span class="who">{frame.email}</span>
        <form method="post" action="/dashboard/operator/sign-out">
          <input type="hidden" name="_csrf" value={frame.csrf} />
          <button type="submit" class="link">
            Sign out
          </button>
        </form>
      </header>
      <div class="frame">
        <nav aria-label="Operator">
          <ul>
            {NAV.map(([path, label]) => (
              <li key={path}>
                <a href={path} aria-current={frame.current === path ? 'page' : undefined}>
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
