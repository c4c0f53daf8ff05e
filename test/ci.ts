/**
 * Whether this run is CI, where nothing may be skipped (the PostgreSQL half, the Net::SMPP peer, the
 * log scan). CI services set CI=true, but also CI=1 or CI=yes: any value but empty, 0 and false
 * counts, so a spelling never turns the checks off.
 */
export function isCI(env: Record<string, string | undefined> = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false' && value !== 'no';
}
