import type { ComponentChildren } from 'preact';
import { Shell } from '../views/layout.js';

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
    <Shell
      title={title}
      documentTitle={`${title} · operator`}
      area="Operator"
      who={frame.email}
      signOut="/dashboard/operator/sign-out"
      csrf={frame.csrf}
      nav={{ label: 'Operator', links: NAV }}
      current={frame.current}
      operator
    >
      {children}
    </Shell>
  );
}
