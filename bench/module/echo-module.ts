// A real compute module on the platform's runtime SDK (@palantir/compute-module): it reads GET_JOB_URI,
// POST_RESULT_URI, POST_SCHEMA_URI and MODULE_AUTH_TOKEN (a file path) as on the platform, posts its schema,
// and answers `echo` with its query.
import { ComputeModule } from '@palantir/compute-module';
import { Type } from '@sinclair/typebox';

const Echo = Type.Object({ n: Type.Number() });

new ComputeModule({ definitions: { echo: { input: Echo, output: Echo } } }).register('echo', async (query) => query);
