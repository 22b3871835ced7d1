// Values of the file property types (docs/live-ontology.md): an attachment is `{rid}` on an object and its rid
// (a string) as an action parameter; a media reference is the platform's MediaReference object in both places.
export const ATTACHMENT_RID = /^ri\.attachments\.main\.attachment\.[0-9a-f-]{36}$/;
export const MEDIA_SET_RID = 'ri.mio.main.media-set.emulator';
export const MEDIA_SET_VIEW_RID = 'ri.mio.main.view.emulator';
export const MEDIA_ITEM_RID = /^ri\.mio\.main\.media-item\.[0-9a-f-]{36}$/;

import { invalidArgument } from '../../../errors.js';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The attachment rid a value names (a rid, or `{rid}`), or undefined. */
export function attachmentRidOf(value: unknown): string | undefined {
  const rid = typeof value === 'string' ? value : isRecord(value) && typeof value.rid === 'string' ? value.rid : undefined;
  return rid !== undefined && ATTACHMENT_RID.test(rid) ? rid : undefined;
}

/** The media item rid a MediaReference names, or undefined. */
export function mediaItemRidOf(value: unknown): string | undefined {
  if (!isRecord(value) || typeof value.mimeType !== 'string' || !isRecord(value.reference)) return undefined;
  const item = value.reference.mediaSetViewItem;
  if (value.reference.type !== 'mediaSetViewItem' || !isRecord(item) || typeof item.mediaItemRid !== 'string') return undefined;
  return MEDIA_ITEM_RID.test(item.mediaItemRid) ? item.mediaItemRid : undefined;
}

export function fileValueProblem(type: 'attachment' | 'mediaReference', value: unknown): string | undefined {
  // The seed's form, a file beside the seed (seed-files.ts stores it); an action's edits refuse it (storedFileValue).
  if (isRecord(value) && typeof value.from === 'string' && Object.keys(value).every((k) => k === 'from' || k === 'content_type')) return undefined;
  if (type === 'attachment') return attachmentRidOf(value) ? undefined : 'must be an attachment rid (from attachments/upload) or {rid}';
  return mediaItemRidOf(value) ? undefined : 'must be a media reference {mimeType, reference: {type: mediaSetViewItem, ...}} (from mediasets/media/upload)';
}

/** The value an object stores for a file property: `{rid}` for an attachment, the reference as it is for media. */
export function storedFileValue(type: string, value: unknown): unknown {
  if ((type === 'attachment' || type === 'mediaReference') && isRecord(value) && value.from !== undefined)
    throw invalidArgument(
      'InvalidParameterValue',
      { parameterValue: '{from}' },
      'A file named by path is a seed form; upload the file and pass its rid.',
    ).because('an action passed {from: path} for a file property; only a seed may name a file by path');
  if (type === 'attachment') {
    const rid = attachmentRidOf(value);
    return rid === undefined ? value : { rid };
  }
  return value;
}

/** MediaReference for a media item. */
export const mediaReference = (mediaItemRid: string, mimeType: string) => ({
  mimeType,
  reference: { type: 'mediaSetViewItem', mediaSetViewItem: { mediaSetRid: MEDIA_SET_RID, mediaSetViewRid: MEDIA_SET_VIEW_RID, mediaItemRid } },
});

/** Every attachment and media item rid among some values (what an action's commit marks as used). */
export function fileRidsIn(values: Iterable<unknown>): string[] {
  const out: string[] = [];
  for (const v of values) {
    const rid = attachmentRidOf(v) ?? mediaItemRidOf(v);
    if (rid) out.push(rid);
  }
  return out;
}
