// A stream read as a table (docs/streams.md, "A stream is a dataset"): readTable on a stream's dataset and
// branch answers the current view's records, oldest first, with the stream schema as the table's.
import type { Store } from '../../store/store.js';
import type { FieldSchema, DatasetSchema } from '../datasets/model.js';
import type { Cell, Column } from '../datasets/table/columns.js';
import type { TableSource } from '../datasets/table/sources.js';
import { TableReadError } from '../datasets/table/table-error.js';
import { STREAMS } from './part.js';
import type { WireFieldSchema } from './model.js';

const PAGE = 5_000;

function datasetField(s: WireFieldSchema, name?: string): FieldSchema {
  const type = s.dataType.type.toUpperCase();
  return {
    type,
    ...(name === undefined ? {} : { name }),
    nullable: s.nullable,
    ...(type === 'ARRAY' && s.dataType.itemsSchema ? { arraySubtype: datasetField(s.dataType.itemsSchema) } : {}),
  };
}

function cellOf(column: Column, v: unknown, offset: number): Cell {
  if (v === null || v === undefined) return null;
  try {
    return typeof v === 'string' ? column.fromText(v) : typeof v === 'number' || typeof v === 'boolean' ? column.fromText(String(v)) : column.fromValue(v);
  } catch (err) {
    throw new TableReadError(`record at offset ${offset}, column ${column.name}: ${(err as Error).message}`);
  }
}

export async function streamTableSource(store: Store, datasetRid: string, branchName: string): Promise<TableSource | undefined> {
  const repo = store.part(STREAMS);
  const stream = await repo.stream(datasetRid, branchName);
  if (!stream) return undefined;
  const schema: DatasetSchema = { fieldSchemaList: stream.schema.fields.map((f) => datasetField(f.schema, f.name)) };
  return {
    schema,
    async *rows(columns, rowLimit) {
      let left = rowLimit ?? Infinity;
      let from = 0;
      while (left > 0) {
        const got = await repo.read(stream.viewRid, from, Math.min(PAGE, left));
        if (!got || got.records.length === 0) return;
        const rows = got.records.map((r) => {
          const value = JSON.parse(r.value) as Record<string, unknown>;
          return columns.map((c) => cellOf(c, value[c.name], r.offset));
        });
        left -= rows.length;
        from = got.records[got.records.length - 1]!.offset + 1;
        yield rows;
      }
    },
  };
}
