// The seed check of interface_types (src/services/ontologies/interfaces/check.ts): each problem names its path.
import { describe, expect, it } from 'vitest';
import { interfaceProblems } from '../../src/services/ontologies/interfaces/check.js';

const ontology = (implemented_by: Record<string, Record<string, string>>) => ({
  object_types: [{ api_name: 'Person', properties: { id: 'integer', fullName: 'string', age: 'integer' } }],
  interface_types: [{ api_name: 'Named', properties: { label: 'string' }, implemented_by }],
});

describe('interface_types in the seed', () => {
  it('accepts a full mapping to properties of the same type', () => {
    expect(interfaceProblems([ontology({ Person: { label: 'fullName' } })], 'platform.ontologies')).toEqual([]);
  });

  it('names an unknown implementer, an unmapped, missing or ill-typed property and an extra mapping', () => {
    const at = 'platform.ontologies[0].interface_types[0].implemented_by';
    expect(interfaceProblems([ontology({ Ghost: { label: 'x' } })], 'platform.ontologies')).toEqual([`${at}.Ghost: no object type "Ghost" in this ontology`]);
    expect(interfaceProblems([ontology({ Person: {} })], 'platform.ontologies')).toEqual([`${at}.Person: interface property "label" is not mapped`]);
    expect(interfaceProblems([ontology({ Person: { label: 'nope' } })], 'platform.ontologies')).toEqual([`${at}.Person.label: Person has no property "nope"`]);
    expect(interfaceProblems([ontology({ Person: { label: 'age' } })], 'platform.ontologies')).toEqual([
      `${at}.Person.label: Person.age is not of the interface property's type`,
    ]);
    expect(interfaceProblems([ontology({ Person: { label: 'fullName', other: 'age' } })], 'platform.ontologies')).toEqual([
      `${at}.Person.other: not a property of the interface`,
    ]);
  });
});
