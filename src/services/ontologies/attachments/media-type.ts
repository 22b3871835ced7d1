// A file's media type when the upload does not say (media uploads arrive as `*/*`): from its name's extension,
// else from its first bytes, else application/octet-stream (docs/live-ontology.md).
const BY_EXTENSION: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
  html: 'text/html',
  xml: 'application/xml',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  zip: 'application/zip',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

const SIGNATURES: Array<[number[], string]> = [
  [[0x25, 0x50, 0x44, 0x46], 'application/pdf'],
  [[0x89, 0x50, 0x4e, 0x47], 'image/png'],
  [[0xff, 0xd8, 0xff], 'image/jpeg'],
  [[0x47, 0x49, 0x46, 0x38], 'image/gif'],
  [[0x49, 0x44, 0x33], 'audio/mpeg'],
  [[0x50, 0x4b, 0x03, 0x04], 'application/zip'],
];

/** A declared type worth keeping: absent, `*\/*` and octet-stream say nothing. */
export function declaredType(header: string | undefined): string | undefined {
  const type = header?.split(';')[0]?.trim().toLowerCase();
  if (!type || type === '*/*' || type === 'application/octet-stream' || !/^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(type)) return undefined;
  return type;
}

export function typeFromName(filename: string): string | undefined {
  const dot = filename.lastIndexOf('.');
  return dot < 0 ? undefined : BY_EXTENSION[filename.slice(dot + 1).toLowerCase()];
}

export function typeFromBytes(head: Uint8Array): string {
  for (const [magic, type] of SIGNATURES) if (magic.every((b, i) => head[i] === b)) return type;
  return 'application/octet-stream';
}
