// Wire shapes of the admin API (SPEC §2.1, docs/contracts.md §3).
import type { EnrollmentRecord, UserRecord } from '../../store/store.js';

interface UserWire {
  id: string;
  username: string;
  givenName?: string;
  familyName?: string;
  email?: string;
  realm: string;
  /** Left out for a service principal (docs/contracts.md §3: the Python SDK refuses the spec's ""). */
  organization?: string;
  status: 'ACTIVE' | 'DELETED';
  attributes: Record<string, string[]>;
}

export function userWire(user: UserRecord): UserWire {
  const human = user.principalType === 'human';
  const reserved: Record<string, string[]> = { 'idp:realm': [user.realm] };
  if (human) {
    if (user.givenName !== undefined) reserved['idp:givenName'] = [user.givenName];
    if (user.familyName !== undefined) reserved['idp:familyName'] = [user.familyName];
    if (user.email !== undefined) reserved['idp:email:primary'] = [user.email];
    reserved['idp:organization-rid'] = [user.organizationRid];
  }
  const wire: UserWire = {
    id: user.id,
    username: user.username,
    realm: user.realm,
    ...(human ? { organization: user.organizationRid } : {}),
    status: user.active ? 'ACTIVE' : 'DELETED',
    attributes: { ...user.attributes, ...reserved },
  };
  if (human) {
    if (user.givenName !== undefined) wire.givenName = user.givenName;
    if (user.familyName !== undefined) wire.familyName = user.familyName;
    if (user.email !== undefined) wire.email = user.email;
  }
  return wire;
}

/**
 * The JSON text of `userWire(user)`, kept per user record. Both stores replace a user's record when the user
 * changes and never change one in place (a PostgreSQL read makes a new object each time, and only misses here),
 * so the same object always has the same text. Building the wire object and serializing it cost ~4.5 us, about a
 * quarter of getCurrent's fast lane (docs/performance.md, "Tenth session").
 */
const wireText = new WeakMap<UserRecord, string>();
export function userWireJson(user: UserRecord): string {
  let text = wireText.get(user);
  if (text === undefined) {
    text = JSON.stringify(userWire(user));
    wireText.set(user, text);
  }
  return text;
}

export const enrollmentWire = (e: EnrollmentRecord) => ({ rid: e.rid, name: e.name, createdTime: e.createdTime });

interface MeWire {
  id: string;
  username: string;
  displayName: string;
  email?: string;
  organization?: { rid: string };
  groups: Array<{ id: string; name: string }>;
}

/**
 * `/idp/api/me`: the CLI shim's principal shape plus what the platform's command-line tools read from the real
 * route (`pltr verify` shows email, organization rid and group names; docs/oauth.md). A service principal has no
 * email and no organization. Groups are empty until the directory (groups and members) is served.
 */
export function meWire(user: UserRecord): MeWire {
  const wire: MeWire = { id: user.id, username: user.username, displayName: user.displayName, groups: [] };
  if (user.principalType === 'human') {
    if (user.email !== undefined) wire.email = user.email;
    if (user.organizationRid !== '') wire.organization = { rid: user.organizationRid };
  }
  return wire;
}
