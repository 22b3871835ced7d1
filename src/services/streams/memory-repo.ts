// The streams repository in memory (the reference behaviour; docs/streams.md). A view's records are one array
// with a moving head: dropping the oldest is an index step, compacted when half the array is dead.
import type { StreamsRepo } from './repo.js';
import type { StoredRecord, StreamRecord, ViewBounds } from './model.js';

interface View {
  values: string[];
  /** Index in `values` of the oldest kept record. */
  head: number;
  /** Offset of values[head]. */
  first: number;
}

const key = (datasetRid: string, branch: string) => `${datasetRid}\u0000${branch}`;

export class MemoryStreams implements StreamsRepo {
  private readonly byBranch = new Map<string, StreamRecord>();
  private readonly views = new Map<string, View>();

  async insertStream(stream: StreamRecord) {
    const k = key(stream.datasetRid, stream.branch);
    if (this.byBranch.has(k)) return false;
    this.byBranch.set(k, { ...stream });
    this.views.set(stream.viewRid, { values: [], head: 0, first: 0 });
    return true;
  }
  async stream(datasetRid: string, branch: string) {
    const s = this.byBranch.get(key(datasetRid, branch));
    return s && { ...s };
  }
  async streamByView(viewRid: string) {
    for (const s of this.byBranch.values()) if (s.viewRid === viewRid) return { ...s };
    return undefined;
  }
  async streams() {
    return [...this.byBranch.values()].map((s) => ({ ...s }));
  }
  async replaceView(next: StreamRecord) {
    const k = key(next.datasetRid, next.branch);
    const old = this.byBranch.get(k);
    if (!old) return false;
    this.views.delete(old.viewRid);
    this.byBranch.set(k, { ...next });
    this.views.set(next.viewRid, { values: [], head: 0, first: 0 });
    return true;
  }
  async append(viewRid: string, values: readonly string[], maxRecords: number) {
    const view = this.views.get(viewRid);
    if (!view) return undefined;
    const written = view.first + view.values.length - view.head;
    for (const v of values) view.values.push(v);
    const kept = view.values.length - view.head;
    if (kept > maxRecords) {
      const drop = kept - maxRecords;
      view.head += drop;
      view.first += drop;
      if (view.head > view.values.length / 2) {
        view.values = view.values.slice(view.head);
        view.head = 0;
      }
    }
    return { ...this.boundsOf(view), written };
  }
  async read(viewRid: string, from: number, limit: number) {
    const view = this.views.get(viewRid);
    if (!view) return undefined;
    const bounds = this.boundsOf(view);
    const start = Math.max(from, bounds.first);
    const records: StoredRecord[] = [];
    for (let o = start; o < bounds.end && records.length < limit; o++) records.push({ offset: o, value: view.values[view.head + o - view.first]! });
    return { bounds, records };
  }
  async bounds(viewRid: string) {
    const view = this.views.get(viewRid);
    return view && this.boundsOf(view);
  }
  private boundsOf(view: View): ViewBounds {
    return { first: view.first, end: view.first + view.values.length - view.head };
  }
  clear() {
    this.byBranch.clear();
    this.views.clear();
  }
}
