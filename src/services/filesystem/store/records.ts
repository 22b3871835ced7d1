// The filesystem's one tree: spaces, projects, folders and every other resource are nodes with a parent
// (a space has none). Trash is a flag on the node trashed directly; what lies below it is trashed through it.
// docs/directory.md, "The tree".

export type NodeKind = 'SPACE' | 'PROJECT' | 'FOLDER' | 'RESOURCE';

export interface NodeRecord {
  rid: string;
  kind: NodeKind;
  /** The platform's ResourceType: COMPASS_FOLDER for spaces, projects and folders. */
  type: string;
  displayName: string;
  description?: string;
  /** Absent for a space. */
  parentRid?: string;
  /** Directly trashed (Resource.delete); restore clears it. */
  trashed: boolean;
  /** Markings applied directly to this node; nodes below inherit them. */
  markings: string[];
  createdBy: string;
  createdTime: string;
  updatedBy: string;
  updatedTime: string;
}

export interface TreeRepo {
  /** Creates or replaces the node of this rid. */
  put(node: NodeRecord): Promise<void>;
  get(rid: string): Promise<NodeRecord | undefined>;
  /** A node's children ordered by name then rid; `undefined` parent: the spaces. */
  children(parentRid: string | undefined): Promise<NodeRecord[]>;
  /** Every node, in the order first put (parents before children when seeded so): the export's walk. */
  all(): Promise<NodeRecord[]>;
  /** Removes the nodes (permanent deletion of a subtree). */
  remove(rids: readonly string[]): Promise<void>;
}
