// A page of an object set seen through an interface (docs/live-ontology.md, "Interfaces"): each object goes out as
// its own type (the client maps it with interfaceToObjectTypeMappings), while `orderBy` and `select`/`selectV2`
// name interface properties: the order is taken on the objects' interface view (view.ts), and a selection keeps,
// of each object, the properties its type maps the selected interface properties to.
import type { OntologyObjectRecord, OntologyRecord } from '../../../store/store.js';
import { order, pageOf, selection, type Page, type PageRequest } from '../object-reads/page.js';
import type { InterfaceDef } from './model.js';
import { interfaceViewType, viewThrough } from './view.js';
import { mappedProperty } from './where.js';

/**
 * `interfaceScoped` (loadObjectsOrInterfaces): each object carries its interface properties under the interface's
 * names instead of its own properties (`__apiName` stays its object type).
 */
export function interfacePage(
  ontology: OntologyRecord,
  def: InterfaceDef,
  objects: readonly OntologyObjectRecord[],
  req: PageRequest,
  interfaceScoped = false,
): Page {
  const view = interfaceViewType(def);
  let ordered = objects;
  if (req.orderBy !== undefined && req.orderBy !== null) {
    const original = new Map<OntologyObjectRecord, OntologyObjectRecord>();
    const seen = objects.map((o) => {
      const v = viewThrough(def, o);
      original.set(v, o);
      return v;
    });
    ordered = order(view, seen, req.orderBy).map((v) => original.get(v)!);
  }
  // Interface names checked first, so that an unknown one is InterfacePropertyNotFound.
  for (const name of selectedNames(req)) mappedProperty(def, undefined, name);
  const selected = selection(view, req.select, req.selectV2);
  const page = pageOf(ontology, undefined, ordered, { ...req, orderBy: undefined, select: undefined, selectV2: undefined });
  if (interfaceScoped) {
    const data = page.data.map((row) => {
      const type = String(row.__apiName);
      const out: Record<string, unknown> = {};
      for (const name of selected ?? def.properties.keys()) {
        const v = row[mappedProperty(def, type, name)];
        if (v !== undefined) out[name] = v;
      }
      for (const [k, v] of Object.entries(row)) if (k.startsWith('__')) out[k] = v;
      return out;
    });
    return { ...page, data };
  }
  if (!selected) return page;
  const data = page.data.map((row) => {
    const type = String(row.__apiName);
    const keep = new Set([...selected].map((name) => mappedProperty(def, type, name)));
    return Object.fromEntries(Object.entries(row).filter(([k]) => k.startsWith('__') || keep.has(k)));
  });
  return { ...page, data };
}

function selectedNames(req: PageRequest): string[] {
  const names: string[] = [];
  const list = req.select === undefined || req.select === null ? [] : Array.isArray(req.select) ? req.select : [req.select];
  for (const s of list) if (typeof s === 'string') names.push(...s.split(',').filter(Boolean));
  if (Array.isArray(req.selectV2))
    for (const s of req.selectV2)
      if (typeof s === 'object' && s !== null && typeof (s as { apiName?: unknown }).apiName === 'string') names.push((s as { apiName: string }).apiName);
  return names;
}
