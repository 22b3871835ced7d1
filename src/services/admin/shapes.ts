// Wire shapes of the admin API (SPEC §2.1, CONTRACTS §3).
import type { EnrollmentRecord, UserRecord } from '../../store/store.js';

interface UserWire {
  id: string;
  username: string;
  givenName?: string;
  familyName?: string;
  email?: string;
  realm: string;
  organization: string;
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
    organization: human ? user.organizationRid : '',
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

export const enrollmentWire = (e: EnrollmentRecord) => ({ rid: e.rid, name: e.name, createdTime: e.createdTime });

/** The CLI shim's principal shape. */
export const meWire = (user: UserRecord) => ({ id: user.id, username: user.username, displayName: user.displayName });
