import type { Migration } from 'kysely';
import * as m0001 from './0001-initial.js';
import * as m0002 from './0002-dispatch.js';
import * as m0003 from './0003-channels.js';
import * as m0004 from './0004-webhooks.js';
import * as m0005 from './0005-message-parts.js';
import * as m0006 from './0006-idempotency-keys.js';
import * as m0007 from './0007-ip-allow-lists.js';
import * as m0008 from './0008-job-priority.js';
import * as m0009 from './0009-job-lease-index.js';
import * as m0010 from './0010-free-jobs-index.js';
import * as m0011 from './0011-leaner-writes.js';
import * as m0012 from './0012-whatsapp-recipient-index.js';
import * as m0013 from './0013-ascending-list-indexes.js';
import * as m0014 from './0014-message-job-ids.js';
import * as m0015 from './0015-job-failures.js';
import * as m0016 from './0016-message-counts.js';
import * as m0017 from './0017-message-origin.js';
import * as m0018 from './0018-dashboard-users.js';
import * as m0019 from './0019-clients-suspension-operators.js';
import * as m0020 from './0020-failed-messages-index.js';
import * as m0021 from './0021-suppressions.js';
import * as m0022 from './0022-inbound-messages.js';
import * as m0023 from './0023-message-route.js';
import * as m0024 from './0024-route-keys.js';
import * as m0025 from './0025-access-changes.js';
import * as m0026 from './0026-suppression-exempt.js';
import * as m0027 from './0027-shown-once.js';
import * as m0028 from './0028-audit-actor-email.js';

/**
 * Every migration, in order. Names are numbered so their sort order is the order they run in;
 * applied migrations are never edited, only followed by new ones.
 */
export const MIGRATIONS: Record<string, Migration> = {
  '0001-initial': m0001,
  '0002-dispatch': m0002,
  '0003-channels': m0003,
  '0004-webhooks': m0004,
  '0005-message-parts': m0005,
  '0006-idempotency-keys': m0006,
  '0007-ip-allow-lists': m0007,
  '0008-job-priority': m0008,
  '0009-job-lease-index': m0009,
  '0010-free-jobs-index': m0010,
  '0011-leaner-writes': m0011,
  '0012-whatsapp-recipient-index': m0012,
  '0013-ascending-list-indexes': m0013,
  '0014-message-job-ids': m0014,
  '0015-job-failures': m0015,
  '0016-message-counts': m0016,
  '0017-message-origin': m0017,
  '0018-dashboard-users': m0018,
  '0019-clients-suspension-operators': m0019,
  '0020-failed-messages-index': m0020,
  '0021-suppressions': m0021,
  '0022-inbound-messages': m0022,
  '0023-message-route': m0023,
  '0024-route-keys': m0024,
  '0025-access-changes': m0025,
  '0026-suppression-exempt': m0026,
  '0027-shown-once': m0027,
  '0028-audit-actor-email': m0028,
};
