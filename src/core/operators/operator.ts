/**
 * The operator's own people: they run the Herald installation, not an account. They sign in to the
 * operator pages of the dashboard (docs/dashboard.md) with a session of their own kind, made with
 * the CLI (`herald operators add`), and act on every account; each change they make to an account is
 * in that account's audit log under their id (`opr_...`).
 */
export interface Operator {
  id: string;
  /** Lower-cased. */
  email: string;
  createdAt: number;
}

export interface OperatorSession {
  operatorId: string;
  ip: string;
  userAgent: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
}
