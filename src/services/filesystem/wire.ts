// Wire shapes of `@osdk/foundry.filesystem` 2.78.0: Resource, Folder, Project, Space (docs/directory.md).
// Deviations: a space answered as a Resource names itself as its parent folder and project (the platform
// refuses Resource.get of a space); fileSystemId, usage account and role set are fixed placeholders.
import type { Placed } from './tree.js';
import { pathOf, projectOf, spaceRidOf, trashStatusOf } from './tree.js';
import { DEFAULT_ORGANIZATION_RID } from '../../platform-constants.js';

const common = (p: Placed) => ({
  rid: p.node.rid,
  displayName: p.node.displayName,
  ...(p.node.description !== undefined ? { description: p.node.description } : {}),
  path: pathOf(p),
});
const audit = (p: Placed) => ({ createdBy: p.node.createdBy, updatedBy: p.node.updatedBy, createdTime: p.node.createdTime, updatedTime: p.node.updatedTime });

export function resourceWire(p: Placed) {
  const space = spaceRidOf(p);
  return {
    ...common(p),
    type: p.node.type,
    ...audit(p),
    trashStatus: trashStatusOf(p),
    parentFolderRid: p.node.parentRid ?? p.node.rid,
    projectRid: projectOf(p)?.rid ?? space,
    spaceRid: space,
  };
}

export function folderWire(p: Placed) {
  const project = projectOf(p);
  return {
    ...common(p),
    type: p.node.kind === 'SPACE' ? 'SPACE' : p.node.kind === 'PROJECT' ? 'PROJECT' : 'FOLDER',
    ...audit(p),
    trashStatus: trashStatusOf(p),
    parentFolderRid: p.node.parentRid ?? p.node.rid,
    ...(project ? { projectRid: project.rid } : {}),
    spaceRid: spaceRidOf(p),
  };
}

export function projectWire(p: Placed) {
  return { ...common(p), ...audit(p), trashStatus: trashStatusOf(p), spaceRid: spaceRidOf(p), resourceLevelRoleGrantsAllowed: true };
}

export function spaceWire(p: Placed) {
  return {
    ...common(p),
    fileSystemId: 'default',
    usageAccountRid: 'ri.resource-policy-manager.global.usage-account.default',
    organizations: [DEFAULT_ORGANIZATION_RID],
    deletionPolicyOrganizations: [],
    defaultRoleSetId: 'default',
  };
}
