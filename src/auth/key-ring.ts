import { type CryptoKey, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import type { Clock } from '../core/clock.js';
import { newKeyId } from '../core/ids.js';
import type { Store, StoredSigningKey } from '../core/ports.js';
import { withChanges } from '../core/with-changes.js';

/** The one algorithm tokens are signed with; verification accepts no other. */
export const TOKEN_ALGORITHM = 'EdDSA';

/** How long a process keeps using the signing key it has before asking the store for a newer one. */
const ACTIVE_KEY_REFRESH_MS = 60_000;
/** At most one store look-up per this interval for a kid this process has never seen. */
const UNKNOWN_KID_RELOAD_MS = 1_000;

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
}

interface VerificationKey {
  publicKey: CryptoKey;
  retiredAt: number | null;
  loadedAt: number;
}

/**
 * Token signing keys, kept in the store so that every node signs with the same key and verifies
 * the others' tokens. A retired key stops signing but keeps verifying until the last token it
 * could have signed has expired (`tokenTtlMs` after its retirement, plus the refresh interval
 * during which other nodes may not yet have noticed the retirement).
 */
export class KeyRing {
  #active: { key: SigningKey; loadedAt: number } | undefined;
  readonly #verification = new Map<string, VerificationKey>();
  #lastUnknownReload = Number.NEGATIVE_INFINITY;

  constructor(
    /** The store the keys are kept in (its `signingKeys`), shared by every node. */
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly tokenTtlMs: number,
  ) {}

  /** The key new tokens are signed with; creates the first key when the store has none. */
  async signingKey(): Promise<SigningKey> {
    const now = this.clock.now();
    if (this.#active && now - this.#active.loadedAt < ACTIVE_KEY_REFRESH_MS) return this.#active.key;
    let row = await this.store.signingKeys.findActive();
    if (!row) {
      await this.store.signingKeys.insert(await createKey(now));
      // Two nodes starting together may both insert one; both then settle on the newest.
      row = await this.store.signingKeys.findActive();
    }
    if (!row) throw new Error('no signing key could be created');
    const key = { kid: row.kid, privateKey: await importPrivate(row) };
    this.#active = { key, loadedAt: now };
    this.#verification.set(row.kid, { publicKey: await importPublic(row), retiredAt: row.retiredAt, loadedAt: now });
    return key;
  }

  /**
   * The public key for a kid, or undefined when the kid is unknown or its key has been retired for
   * longer than any token it signed can live.
   */
  async verificationKey(kid: string): Promise<CryptoKey | undefined> {
    const now = this.clock.now();
    let entry = this.#verification.get(kid);
    // Known keys are re-read now and then, so a retirement made elsewhere is noticed here too.
    if (entry && now - entry.loadedAt >= ACTIVE_KEY_REFRESH_MS) {
      const row = await this.store.signingKeys.find(kid);
      entry = row ? withChanges(entry, { retiredAt: row.retiredAt, loadedAt: now }) : undefined;
      if (entry) this.#verification.set(kid, entry);
      else this.#verification.delete(kid);
    }
    if (!entry) {
      if (now - this.#lastUnknownReload < UNKNOWN_KID_RELOAD_MS) return undefined;
      this.#lastUnknownReload = now;
      const row = await this.store.signingKeys.find(kid);
      if (!row) return undefined;
      entry = { publicKey: await importPublic(row), retiredAt: row.retiredAt, loadedAt: now };
      this.#verification.set(kid, entry);
    }
    if (entry.retiredAt !== null && now > entry.retiredAt + this.tokenTtlMs + ACTIVE_KEY_REFRESH_MS) {
      return undefined;
    }
    return entry.publicKey;
  }

  /**
   * The last millisecond a retired key verifies, as this node knows it; undefined for a key in
   * service (whenever it is retired, its deadline falls after every token it has signed expires).
   */
  verificationDeadline(kid: string): number | undefined {
    const retiredAt = this.#verification.get(kid)?.retiredAt;
    return retiredAt === null || retiredAt === undefined ? undefined : retiredAt + this.tokenTtlMs + ACTIVE_KEY_REFRESH_MS;
  }

  /** Makes a new key the signing key and retires the others. Returns the new kid. */
  async rotate(): Promise<string> {
    const now = this.clock.now();
    const row = await createKey(now);
    await this.store.transaction(async (tx) => {
      await tx.signingKeys.insert(row);
      await tx.signingKeys.retireAllExcept(row.kid, now);
    });
    this.#active = undefined;
    // The retired keys keep verifying: mark them as the store now does instead of forgetting them,
    // since forgotten kids are re-read at most once a second (UNKNOWN_KID_RELOAD_MS).
    for (const [kid, entry] of this.#verification) {
      if (entry.retiredAt === null) this.#verification.set(kid, withChanges(entry, { retiredAt: now }));
    }
    return row.kid;
  }

  async list(): Promise<Array<{ kid: string; algorithm: string; createdAt: number; retiredAt: number | null }>> {
    const rows = await this.store.signingKeys.list();
    return rows.map((r) => ({ kid: r.kid, algorithm: r.algorithm, createdAt: r.createdAt, retiredAt: r.retiredAt }));
  }
}

async function createKey(now: number): Promise<StoredSigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(TOKEN_ALGORITHM, { extractable: true });
  return {
    kid: newKeyId(now),
    algorithm: TOKEN_ALGORITHM,
    publicJwk: JSON.stringify(await exportJWK(publicKey)),
    privateJwk: JSON.stringify(await exportJWK(privateKey)),
    createdAt: now,
    retiredAt: null,
  };
}

async function importPrivate(row: StoredSigningKey): Promise<CryptoKey> {
  return (await importJWK(JSON.parse(row.privateJwk) as JWK, row.algorithm)) as CryptoKey;
}

async function importPublic(row: StoredSigningKey): Promise<CryptoKey> {
  return (await importJWK(JSON.parse(row.publicJwk) as JWK, row.algorithm)) as CryptoKey;
}
