import type { OntologyRecord, OntologyRepo } from '../ontologies.js';
import type { QueryDef } from '../ontology-model.js';

export class MemoryOntologies implements OntologyRepo {
  private byName = new Map<string, OntologyRecord>();
  private byKey = new Map<string, OntologyRecord>();

  async insert(ontology: OntologyRecord): Promise<boolean> {
    if (this.byName.has(ontology.apiName) || this.byKey.has(ontology.rid)) return false;
    this.byName.set(ontology.apiName, ontology);
    this.byKey.set(ontology.rid, ontology);
    return true;
  }

  async setQueryResult(apiName: string, queryApiName: string, result: Buffer, definition?: QueryDef): Promise<boolean> {
    const ontology = this.byName.get(apiName);
    if (!ontology) return false;
    const queryTypes = definition && !ontology.queryTypes.has(queryApiName) ? new Map(ontology.queryTypes).set(queryApiName, definition) : ontology.queryTypes;
    const updated = { ...ontology, queries: new Map(ontology.queries).set(queryApiName, result), queryTypes };
    this.byName.set(apiName, updated);
    this.byKey.set(ontology.rid, updated);
    return true;
  }

  async list(): Promise<OntologyRecord[]> {
    return [...this.byName.values()];
  }

  async byApiName(apiName: string): Promise<OntologyRecord | undefined> {
    return this.byName.get(apiName);
  }

  async byRid(rid: string): Promise<OntologyRecord | undefined> {
    return this.byKey.get(rid);
  }

  async count(): Promise<number> {
    return this.byName.size;
  }

  clear(): void {
    this.byName.clear();
    this.byKey.clear();
  }
}
