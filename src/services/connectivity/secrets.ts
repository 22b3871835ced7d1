// Secret names and the rules for secret values. A domain's auth secrets are named after their field
// (`domains[0].auth.bearerToken`), which is what getConfiguration shows and what updateSecrets accepts to
// replace them; every other name is an additional secret.
import type { ConnectionRecord, DomainAuthRecord } from '../../store/store.js';
import { isBlank, type Path } from './check.js';
import { propertyCannotBeBlank } from './errors.js';
import { fieldPath } from '../../field-path.js';

export const domainSecretName = (domainIndex: number, field: string): string => `domains[${domainIndex}].auth.${field}`;

/** The secret names a domain's auth refers to. */
function authSecretNames(auth: DomainAuthRecord | undefined): string[] {
  switch (auth?.type) {
    case 'bearerToken':
      return [auth.bearerToken];
    case 'apiKey':
      return [auth.apiKey];
    case 'basic':
      return [auth.password];
    default:
      return [];
  }
}

/** Names of the additional secrets: every secret no domain refers to, sorted. */
export function additionalSecretNames(connection: ConnectionRecord): string[] {
  const byDomains = new Set(connection.domains.flatMap((d) => authSecretNames(d.auth)));
  return Object.keys(connection.secrets)
    .filter((name) => !byDomains.has(name))
    .sort();
}

/** Names must not be blank, nor values: an empty value is almost always an unset environment variable. */
export function checkSecretMap(secrets: Record<string, string>, at: Path): void {
  for (const [name, value] of Object.entries(secrets)) {
    if (isBlank(name)) throw propertyCannotBeBlank(fieldPath(at));
    if (isBlank(value)) throw propertyCannotBeBlank(fieldPath([...at, name]));
  }
}
