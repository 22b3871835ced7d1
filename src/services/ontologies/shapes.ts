// Wire shapes of the ontology API (the SDK's OntologyV2 and ListOntologiesV2Response).
import type { OntologyRecord } from '../../store/store.js';

export const ontologyWire = (o: OntologyRecord) => ({ apiName: o.apiName, displayName: o.displayName, description: o.description, rid: o.rid });

export const ontologyListWire = (all: OntologyRecord[]) => ({ data: all.map(ontologyWire) });
