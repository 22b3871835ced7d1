// Seed checks of `interface_types` (docs/live-ontology.md): every implementing object type exists, every
// interface property is mapped to a property of the same type, and nothing else is mapped.
import { parseDataType } from '../model/data-types.js';
import type { InterfaceSeed } from './model.js';

interface OntologyLike {
  interface_types?: InterfaceSeed[];
  object_types: Array<{ api_name: string; properties: Record<string, unknown> }>;
}

const typeName = (raw: unknown) => JSON.stringify(parseDataType(raw, '', 'property', []) ?? null);

export function interfaceProblems(ontologies: readonly OntologyLike[], path: string): string[] {
  const problems: string[] = [];
  ontologies.forEach((o, i) => {
    (o.interface_types ?? []).forEach((it, j) => {
      const at = `${path}[${i}].interface_types[${j}]`;
      if ((o.interface_types ?? []).findIndex((x) => x.api_name === it.api_name) < j) problems.push(`${at}.api_name: duplicate interface "${it.api_name}"`);
      for (const [name, raw] of Object.entries(it.properties)) parseDataType(raw, `${at}.properties.${name}`, 'property', problems);
      for (const [typeName_, mapping] of Object.entries(it.implemented_by)) {
        const type = o.object_types.find((t) => t.api_name === typeName_);
        if (!type) {
          problems.push(`${at}.implemented_by.${typeName_}: no object type "${typeName_}" in this ontology`);
          continue;
        }
        for (const name of Object.keys(it.properties)) {
          const target = mapping[name];
          if (target === undefined) problems.push(`${at}.implemented_by.${typeName_}: interface property "${name}" is not mapped`);
          else if (!(target in type.properties)) problems.push(`${at}.implemented_by.${typeName_}.${name}: ${typeName_} has no property "${target}"`);
          else if (typeName(type.properties[target]) !== typeName(it.properties[name]))
            problems.push(`${at}.implemented_by.${typeName_}.${name}: ${typeName_}.${target} is not of the interface property's type`);
        }
        for (const extra of Object.keys(mapping))
          if (!(extra in it.properties)) problems.push(`${at}.implemented_by.${typeName_}.${extra}: not a property of the interface`);
      }
    });
  });
  return problems;
}
