// The datasets service's control side (docs/datasets.md, "Dashboard"): datasets with their schema and the first
// rows of their table, branches, transactions and the files of each branch's view, refreshed on every change
// under the datasets routes. Loopback or the control token, like every control route.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Backstage, ServiceDeps } from '../service-module.js';
import { CONTROL_ROUTE } from '../../http/route-config.js';
import { ViewListQuery, searchOf, viewAnswer, viewPage, viewPageOf } from '../view-pages.js';
import { Datasets, DEFAULT_BRANCH } from './operations.js';
import { findSchema } from './schemas.js';
import { tableModules } from './table-modules.js';
import type { DatasetRecord, FieldSchema } from './model.js';
import { parse } from 'csv-parse/sync';

const BASE = '/_emulate/platform/datasets';
/** Rows of a table the dashboard shows, and the characters of each. */
const FIRST_ROWS = 5;
const ROW_CHARS = 200;

/** The first rows of the default branch's table as CSV lines (header first), or why there are none. */
async function firstRows(datasets: Datasets, dataset: DatasetRecord): Promise<string[] | string> {
  try {
    const schema = await findSchema(datasets, dataset.rid, { branchName: DEFAULT_BRANCH });
    if (!schema) return 'no schema';
    const { planColumns, readTableBytes } = await tableModules();
    const columns = planColumns(schema.schema, []);
    if (!Array.isArray(columns)) return columns.problem;
    const range = await datasets.readRange(dataset.rid, { branchName: DEFAULT_BRANCH });
    const chunks: Buffer[] = [];
    // In the table worker too: a Parquet file's first rows decode a whole row group.
    for await (const chunk of readTableBytes('CSV', await datasets.view(range), datasets.blobs, columns, schema.schema, { rowLimit: FIRST_ROWS }))
      chunks.push(chunk);
    // One line per row: a quoted cell's line breaks are shown as ↵, not as another row.
    const rows = parse(Buffer.concat(chunks), { raw: true, relax_column_count: true }) as unknown as Array<{ raw: string }>;
    return rows
      .map(({ raw }) => raw.replace(/\r?\n$/, '').replace(/\r?\n/g, '↵'))
      .map((line) => (line.length > ROW_CHARS ? `${line.slice(0, ROW_CHARS)}…` : line));
  } catch (err) {
    return `cannot read: ${(err as Error).message}`;
  }
}

/** A column's type with what it holds: `ARRAY<LONG>`, `DECIMAL(10, 2)`. */
function typeText(f: FieldSchema): string {
  if (f.type === 'ARRAY') return `ARRAY<${f.arraySubtype ? typeText(f.arraySubtype) : '?'}>`;
  if (f.type === 'DECIMAL' && f.precision !== undefined) return `DECIMAL(${f.precision}, ${f.scale ?? 0})`;
  return f.type;
}

function listRoutes(parent: FastifyInstance, { store, clock }: ServiceDeps): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const datasets = new Datasets(store, clock);
  /** Datasets whose name or rid holds the search text. */
  const matching = async (q: string) =>
    (await datasets.repo.datasets()).filter((d) => q === '' || `${d.name} ${d.rid}`.toLowerCase().includes(q)).sort((a, b) => a.name.localeCompare(b.name));

  app.get(BASE, { config: CONTROL_ROUTE, schema: { querystring: ViewListQuery } }, async (request) => {
    const q = searchOf(request.query);
    const rows = [];
    // Only the page shown is read (its first rows cost a table read each).
    const page = viewPageOf(await matching(q), request.query, `datasets?q=${q}`);
    for (const d of page.data) {
      const schema = await findSchema(datasets, d.rid, { branchName: DEFAULT_BRANCH }).catch(() => undefined);
      rows.push({
        name: d.name,
        rid: d.rid,
        branches: (await datasets.repo.branches(d.rid)).map((b) => b.name),
        schema: schema ? schema.schema.fieldSchemaList.map((f, i) => `${f.name ?? `column_${i}`}: ${typeText(f)}`) : [],
        firstRows: await firstRows(datasets, d),
      });
    }
    return viewAnswer(rows, page);
  });

  app.get(`${BASE}/branches`, { config: CONTROL_ROUTE, schema: { querystring: ViewListQuery } }, async (request) => {
    const q = searchOf(request.query);
    const rows = [];
    for (const d of await matching(q)) {
      const transactions = await datasets.repo.transactions(d.rid);
      for (const b of await datasets.repo.branches(d.rid)) {
        const open = transactions.find((t) => t.branch === b.name && t.status === 'OPEN');
        rows.push({ dataset: d.name, branch: b.name, head: b.head ?? '(none)', open: open ? `${open.type} ${open.rid}` : '' });
      }
    }
    return viewPage(rows, request.query, `datasets/branches?q=${q}`);
  });

  app.get(`${BASE}/transactions`, { config: CONTROL_ROUTE, schema: { querystring: ViewListQuery } }, async (request) => {
    const q = searchOf(request.query);
    const rows = [];
    for (const d of await matching(q)) {
      const transactions = await datasets.repo.transactions(d.rid);
      const files = await datasets.repo.files(transactions.map((t) => t.rid));
      // Newest first, as the platform lists them.
      for (const t of [...transactions].reverse())
        rows.push({
          dataset: d.name,
          rid: t.rid,
          branch: t.branch,
          type: t.type,
          status: t.status,
          created: t.createdTime,
          files: files.filter((f) => f.transactionRid === t.rid).length,
        });
    }
    return viewPage(rows, request.query, `datasets/transactions?q=${q}`);
  });

  app.get(`${BASE}/files`, { config: CONTROL_ROUTE, schema: { querystring: ViewListQuery } }, async (request) => {
    const q = searchOf(request.query);
    const rows = [];
    for (const d of await matching(q)) {
      for (const b of await datasets.repo.branches(d.rid)) {
        if (b.head === undefined) continue;
        for (const f of await datasets.view({ datasetRid: d.rid, branch: b })) {
          const info = f.blobId === undefined ? undefined : await datasets.blobs.stat(f.blobId);
          rows.push({ dataset: d.name, branch: b.name, path: f.path, size: f.size, contentType: info?.contentType ?? '', transaction: f.transactionRid });
        }
      }
    }
    return viewPage(rows, request.query, `datasets/files?q=${q}`);
  });
}

export const datasetsBackstage: Backstage = {
  routes: (app, deps) => listRoutes(app, deps),
  views: [
    {
      title: 'Datasets',
      listPath: BASE,
      columns: [
        { field: 'name', heading: 'Dataset' },
        { field: 'rid', heading: 'Rid' },
        { field: 'branches', heading: 'Branches' },
        { field: 'schema', heading: 'Schema' },
        { field: 'firstRows', heading: `First rows (${DEFAULT_BRANCH})` },
      ],
      topic: 'datasets',
    },
    {
      title: 'Dataset branches',
      listPath: `${BASE}/branches`,
      columns: [
        { field: 'dataset', heading: 'Dataset' },
        { field: 'branch', heading: 'Branch' },
        { field: 'head', heading: 'Head transaction' },
        { field: 'open', heading: 'Open transaction' },
      ],
      topic: 'datasets',
    },
    {
      title: 'Dataset transactions',
      listPath: `${BASE}/transactions`,
      columns: [
        { field: 'dataset', heading: 'Dataset' },
        { field: 'rid', heading: 'Transaction' },
        { field: 'branch', heading: 'Branch' },
        { field: 'type', heading: 'Type' },
        { field: 'status', heading: 'Status' },
        { field: 'created', heading: 'Created' },
        { field: 'files', heading: 'Files' },
      ],
      topic: 'datasets',
    },
    {
      title: 'Dataset files',
      listPath: `${BASE}/files`,
      columns: [
        { field: 'dataset', heading: 'Dataset' },
        { field: 'branch', heading: 'Branch' },
        { field: 'path', heading: 'Path' },
        { field: 'size', heading: 'Bytes' },
        { field: 'contentType', heading: 'Content type' },
        { field: 'transaction', heading: 'Transaction' },
      ],
      topic: 'datasets',
    },
  ],
};
