// Datasets (streams' included: a stream is a dataset) as resources of the filesystem's tree (docs/directory.md,
// "Other services' resources"): found by rid, by path under their parent folder, and listed in folders.
import type { ProvidedResource, ResourceProvider } from '../service-module.js';
import type { DatasetRecord } from './model.js';
import { DATASETS } from './part.js';

const asResource = (d: DatasetRecord): ProvidedResource => ({ rid: d.rid, displayName: d.name, type: 'FOUNDRY_DATASET', parentFolderRid: d.parentFolderRid });

export const datasetResources: ResourceProvider = {
  get: async (store, rid) => {
    const dataset = await store.part(DATASETS).dataset(rid);
    return dataset && asResource(dataset);
  },
  list: async (store) => (await store.part(DATASETS).datasets()).map(asResource),
};
