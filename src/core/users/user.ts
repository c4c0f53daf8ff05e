/**
 * People who sign in to the dashboard (docs/dashboard.md). A user belongs to one account and has
 * one role; what each role may do is the table below, the one the dashboard asks.
 */
export const ROLES = ['owner', 'developer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

export interface User {
  id: string;
  accountId: string;
  /** Lower-cased: an address signs in to one account. */
  email: string;
  role: Role;
  /** Whether sign-in asks for a code from an authenticator app too (TOTP). */
  twoStep: boolean;
  createdAt: number;
}

/** Everything that changes an account through the dashboard, and the roles allowed to do it. */
export const PERMISSIONS = {
  /** Regenerate the API client secret. */
  'credentials.manage': ['owner', 'developer'],
  /** Create, change, delete webhooks; rotate their secret; replay deliveries. */
  'webhooks.manage': ['owner', 'developer'],
  /** Send test messages from the dashboard. */
  'messages.send': ['owner', 'developer'],
  /** Add recipients to the suppression list and remove them. */
  'suppressions.manage': ['owner', 'developer'],
  /** The IP allow-list, users and invitations. */
  'security.manage': ['owner'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

/** Whether `role` may do `permission`. Every role may read every page of its own account. */
export const can = (role: Role, permission: Permission): boolean => (PERMISSIONS[permission] as readonly Role[]).includes(role);

export interface Invitation {
  accountId: string;
  email: string;
  role: Role;
  /** `usr_...` of the owner who invited, `opr_...` of the operator who did on the operator pages, or null for the CLI. */
  invitedBy: string | null;
  createdAt: number;
  expiresAt: number;
  acceptedAt: number | null;
}

export interface UserSession {
  userId: string;
  accountId: string;
  ip: string;
  userAgent: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
}

/** One change to an account: who (`usr_...` or `operator`), what (`client_secret.rotated`), on what, from where. */
export interface AuditEntry {
  id: string;
  accountId: string;
  actor: string;
  /**
   * The actor's address as it was when the change was made (a user's or an operator's), so the log
   * names them after they are removed; null for the CLI (`operator`) or an API client.
   */
  actorEmail: string | null;
  action: string;
  target: string | null;
  ip: string | null;
  at: number;
}
