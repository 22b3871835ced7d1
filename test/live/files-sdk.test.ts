// Conformance: files on objects (docs/live-ontology.md) with the typed client (@osdk/client 2.22.0) and the
// platform packages (@osdk/foundry.ontologies, @osdk/foundry.mediasets 2.57.0): applyAction with an attachment
// and a media upload, then the object's fetchContents/fetchMetadata; the upload routes' caps and refusals.
import { describe, expect, it } from 'vitest';
import { createAttachmentUpload, createClient, createPlatformClient, type Client } from '@osdk/client';
import { Attachments, AttachmentPropertiesV2, MediaReferenceProperties } from '@osdk/foundry.ontologies';
import { MediaSets } from '@osdk/foundry.mediasets';
import { controlToken, liveEmulator } from '../clients/conformance-helpers.js';

const RID = 'ri.ontology.main.ontology.docs';
const SEED = `
platform:
  users: [{ username: dev }]
  limits: { max_ontology_file_bytes: 4096 }
  ontologies:
    - api_name: docs
      display_name: Docs
      rid: ${RID}
      object_types:
        - api_name: Report
          primary_key: id
          title_property: id
          properties: { id: string, file: attachment, scan: mediaReference }
      objects: { Report: [{ id: r1 }] }
      action_types:
        - api_name: fileReport
          parameters: { report: string, file: attachment, scan: mediaReference }
          edits:
            - { create: Report, values: { id: $report, file: $file, scan: $scan } }
`;
const url = liveEmulator(SEED);
const osdkMetadata = { extraUserAgent: '' };
const Report = { type: 'object', apiName: 'Report', osdkMetadata } as never;
const fileReport = { type: 'action', apiName: 'fileReport', osdkMetadata } as never;
const PDF = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x34, 0x0a]);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

async function client(): Promise<Client> {
  const token = await controlToken(url(), 'dev', ['api:ontologies-read', 'api:ontologies-write']);
  return createClient(url(), RID, async () => token);
}

interface FileLike {
  fetchContents(): Promise<Response>;
  fetchMetadata(): Promise<Record<string, unknown>>;
}

describe('typed client: files on objects', () => {
  it('applyAction with an attachment and a media upload; the object then fetches both contents and metadata', async () => {
    const c = await client();
    await (c(fileReport) as unknown as { applyAction(p: unknown): Promise<unknown> }).applyAction({
      report: 'r2',
      file: createAttachmentUpload(new Blob([PDF]), 'report.pdf'),
      scan: { data: new Blob([PNG]), fileName: 'scan.png' },
    });
    const report = (await (c(Report) as unknown as { fetchOne(pk: string): Promise<Record<string, FileLike>> }).fetchOne('r2'))!;
    const file = report.file!;
    const meta = await file.fetchMetadata();
    expect(meta).toMatchObject({ filename: 'report.pdf', mediaType: 'application/pdf' });
    expect(Number(meta.sizeBytes)).toBe(PDF.length);
    expect(new Uint8Array(await (await file.fetchContents()).arrayBuffer())).toEqual(PDF);
    const scan = report.scan!;
    expect(await scan.fetchMetadata()).toMatchObject({ mediaType: 'image/png', path: 'scan.png' });
    const contents = await scan.fetchContents();
    expect(contents.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await contents.arrayBuffer())).toEqual(PNG);
  });

  it('the platform packages: upload, get, read, the property routes; caps and wrong kinds refused', async () => {
    const token = await controlToken(url(), 'dev', ['api:ontologies-read', 'api:ontologies-write']);
    const ctx = createPlatformClient(url(), async () => token);
    const uploaded = await Attachments.upload(ctx as never, new Blob(['hello']), { filename: 'note.txt' });
    expect(uploaded).toMatchObject({ filename: 'note.txt', mediaType: 'text/plain', sizeBytes: '5' });
    expect(await Attachments.get(ctx as never, uploaded.rid)).toEqual(uploaded);
    expect(await (await Attachments.read(ctx as never, uploaded.rid)).text()).toBe('hello');
    const media = await MediaSets.uploadMedia(ctx as never, new Blob([PNG]), { filename: 'noext', preview: true });
    expect(media.mimeType).toBe('image/png');
    await fetch(`${url()}/api/v2/ontologies/docs/actions/fileReport/apply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ parameters: { report: 'r3', file: uploaded.rid, scan: media } }),
    });
    const single = await AttachmentPropertiesV2.getAttachment(ctx as never, 'docs', 'Report', 'r3', 'file');
    expect(single).toMatchObject({ type: 'single', rid: uploaded.rid });
    expect(await (await AttachmentPropertiesV2.readAttachmentByRid(ctx as never, 'docs', 'Report', 'r3', 'file', uploaded.rid)).text()).toBe('hello');
    expect(await MediaReferenceProperties.getMediaMetadata(ctx as never, 'docs', 'Report', 'r3', 'scan', { preview: true })).toMatchObject({
      mediaType: 'image/png',
    });

    const big = await fetch(`${url()}/api/v2/ontologies/attachments/upload?filename=big.bin`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(5000),
    });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { errorName: string }).errorName).toBe('FileTooLarge');
    // A media reference where an attachment belongs, and a made-up rid, are refused with the envelope.
    const wrong = await fetch(`${url()}/api/v2/ontologies/docs/actions/fileReport/apply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ parameters: { report: 'r4', file: media, scan: media } }),
    });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { errorName: string }).errorName).toBe('InvalidParameterValue');
    const missing = await fetch(`${url()}/api/v2/ontologies/attachments/ri.attachments.main.attachment.00000000-0000-0000-0000-000000000000`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(missing.status).toBe(404);
  });
});
