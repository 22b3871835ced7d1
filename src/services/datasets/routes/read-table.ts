// readTable on v2 and v1 (docs/datasets.md, "Table reads"). Everything that can be refused is checked before
// the first byte; the first batch is produced before the status is sent, so a bad first file is a 400 naming
// the file and line. A file that fails later cuts the stream (the status is out by then).
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { Datasets } from '../operations.js';
import { DEFAULT_BRANCH } from '../operations.js';
import { findSchema } from '../schemas.js';
import { columnNotFound, readTableError, schemaNotFound, shown } from '../errors.js';
import type { TableFormat } from '../table/read-table.js';
import { TableReadError } from '../table/table-error.js';
import { tableModules, type TableModules } from '../table-modules.js';
import type { TableSource } from '../table/sources.js';
import { invalidArgument } from '../../../errors.js';
import { list, one, positive, type Query } from './query.js';

export async function readTable(datasets: Datasets, datasetRid: string, q: Query, reply: FastifyReply, branchKey: 'branchName' | 'branchId') {
  const format = one(q, 'format');
  if (format !== 'ARROW' && format !== 'CSV')
    throw invalidArgument('InvalidParameterValue', { parameter: 'format' }, 'format must be ARROW or CSV.').because(
      `format was ${format === undefined ? '(none)' : shown(format)}`,
    );
  const table = await tableModules();
  const branchName = one(q, branchKey);
  const startTransactionRid = one(q, 'startTransactionRid');
  const endTransactionRid = one(q, 'endTransactionRid');
  const rowLimit = positive(q, 'rowLimit');
  const source = endTransactionRid === undefined ? await datasets.tableSource(datasetRid, branchName ?? DEFAULT_BRANCH) : undefined;
  if (source) return sourceTable(table, datasetRid, source, format as TableFormat, list(q, 'columns'), rowLimit, reply);
  const range = await datasets.readRange(datasetRid, {
    ...(branchName === undefined ? {} : { branchName }),
    ...(startTransactionRid === undefined ? {} : { startTransactionRid }),
    ...(endTransactionRid === undefined ? {} : { endTransactionRid }),
  });
  const schema = await findSchema(datasets, datasetRid, {
    ...(range.branch ? { branchName: range.branch.name } : {}),
    ...(endTransactionRid === undefined ? {} : { endTransactionRid }),
  });
  if (!schema) throw schemaNotFound(datasetRid, range.branch?.name ?? DEFAULT_BRANCH, endTransactionRid);
  const columns = table.planColumns(schema.schema, list(q, 'columns'));
  if (!Array.isArray(columns)) {
    if (columns.column !== undefined) throw columnNotFound(datasetRid, columns.column);
    throw invalidArgument('ColumnTypesNotSupported', { datasetRid }).because(columns.problem);
  }
  const files = await datasets.view(range);
  const gone = clientGone(reply);
  return sendTable(
    datasetRid,
    table.readTableBytes(format as TableFormat, files, datasets.blobs, columns, schema.schema, { rowLimit, signal: gone }),
    format as TableFormat,
    reply,
    gone,
  );
}

/** A table another service serves (a stream's records, docs/streams.md), read with its own schema. */
function sourceTable(
  table: TableModules,
  datasetRid: string,
  source: TableSource,
  format: TableFormat,
  wanted: string[],
  rowLimit: number | undefined,
  reply: FastifyReply,
) {
  const columns = table.planColumns(source.schema, wanted);
  if (!Array.isArray(columns)) {
    if (columns.column !== undefined) throw columnNotFound(datasetRid, columns.column);
    throw invalidArgument('ColumnTypesNotSupported', { datasetRid }).because(columns.problem);
  }
  const rows = source.rows(columns, rowLimit);
  return sendTable(datasetRid, format === 'ARROW' ? table.arrowStream(columns, rows) : table.csvStream(columns, rows), format, reply, clientGone(reply));
}

/**
 * Aborts when the client closes the connection before the answer is complete (or had closed it already): a read
 * still waiting for a table worker then gives up its place (a hundred reads abandoned in the queue each used to
 * run first), and one under way is returned (sendTable).
 */
function clientGone(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  if (reply.raw.destroyed || reply.request.raw.destroyed) gone.abort();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) gone.abort();
  });
  return gone.signal;
}

/**
 * The answer's first 64 KiB (or all of it, if smaller) are made before the status goes out, so that a bad value
 * in a small table, or early in a large one, is a clean 400 ReadTableError rather than a cut stream. A chunk
 * can be the header row alone, so waiting for one chunk would not do.
 */
const HELD_BYTES = 64 * 1024;

/**
 * An Arrow IPC message that claims 1 MiB of metadata and holds eight bytes: readers fail on it with "Expected to
 * read 1048576 metadata bytes, but only read 8" (docs/datasets.md, "A read that fails late").
 */
const CUT_ARROW_MESSAGE = Buffer.from([0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x10, 0x00, ...Buffer.from('failed\0\0')]);

async function sendTable(datasetRid: string, bytes: AsyncGenerator<Buffer>, format: TableFormat, reply: FastifyReply, gone: AbortSignal) {
  const held: Buffer[] = [];
  let size = 0;
  let done = false;
  try {
    while (size < HELD_BYTES) {
      const next = await bytes.next();
      if (next.done) {
        done = true;
        break;
      }
      held.push(next.value);
      size += next.value.length;
    }
  } catch (err) {
    if (err instanceof TableReadError) throw readTableError(datasetRid, err.message);
    throw err;
  }
  async function* all(): AsyncGenerator<Buffer> {
    yield* held.splice(0);
    if (done) return;
    if (format !== 'ARROW') return yield* bytes;
    try {
      yield* bytes;
    } catch (err) {
      // Too late for a 400: the rows sent so far would read as a whole, shorter table (apache-arrow and pyarrow
      // take a stream's end for its end). A message cut short after them makes every Arrow reader fail instead.
      // The answer then ends as usual: closing the connection instead made fetch drop the last bytes (the cut
      // message with them), and apache-arrow took the stream's error for its end.
      if (gone.aborted) throw err;
      reply.log.warn({ err }, 'readTable failed after its answer began: the Arrow stream ends with a cut message');
      yield CUT_ARROW_MESSAGE;
    }
  }
  const stream = Readable.from(all(), { objectMode: false });
  // A client gone before the answer was read: destroying the stream returns `all` only if it ever started, so
  // the read itself is returned too, which gives its worker back (a read left suspended held it for good).
  const release = () => {
    if (stream.readableEnded) return;
    stream.destroy();
    bytes.return(undefined).catch(() => undefined);
  };
  // The client may have gone while the first 64 KiB were made: then the signal has aborted already.
  if (gone.aborted) release();
  else gone.addEventListener('abort', release, { once: true });
  return reply.type(format === 'CSV' ? 'text/csv; charset=utf-8' : 'application/octet-stream').send(stream);
}
