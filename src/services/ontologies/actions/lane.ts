// The apply route's fast lane (src/http/fast-lane-json.ts; docs/architecture.md, Hot paths): the answer of a
// clean, VALID apply of a declarative action, made by the same steps as the route (routes.ts): validate, plan,
// commit. Anything else is left to the route before anything changes: an unknown ontology or action, options
// other than the known values, a function-backed action, parameters the route refuses or reports INVALID (its
// journal note is the route's), edits that write a file (marking it used could fail after the commit), and an
// edit the store refuses (nothing applied). A store that fails inside the commit applied nothing either (one
// transaction), so the route then answers the request as it would have.
import type { BearerJsonLane } from '../../../http/fast-lane.js';
import type { OntologyDeps } from '../context.js';
import { isRecord } from '../model/data-types.js';
import { fileRidsIn } from '../attachments/values.js';
import { commit, validate } from './apply.js';
import { editsWire } from './edits.js';

const MODES = ['VALIDATE_ONLY', 'VALIDATE_AND_EXECUTE'];
const RETURN_EDITS = ['NONE', 'ALL', 'ALL_V2_WITH_DELETIONS'];

export function applyLane(path: string, scope: string, deps: OntologyDeps): BearerJsonLane {
  return {
    kind: 'bearer-json',
    path,
    scope,
    async answer(params, body) {
      const ontology = (await deps.store.ontologies.byApiName(params.ontology!)) ?? (await deps.store.ontologies.byRid(params.ontology!));
      const action = ontology?.actionTypes.get(params.actionType!);
      if (!ontology || !action || action.function !== undefined) return undefined;
      const options = body.options === undefined ? {} : body.options;
      if (!isRecord(options)) return undefined;
      const mode = options.mode ?? 'VALIDATE_AND_EXECUTE';
      const returnEdits = options.returnEdits ?? 'NONE';
      if (!MODES.includes(mode as string) || !RETURN_EDITS.includes(returnEdits as string)) return undefined;
      const given = body.parameters === undefined ? {} : body.parameters;
      if (!isRecord(given)) return undefined;
      // The route's refusals (unknown or ill-typed parameters) are thrown here: left to the route to render.
      const { validation, plan } = await validate(deps.store, ontology, action, given).catch(() => ({ validation: undefined, plan: undefined }));
      if (!validation || !plan) return undefined;
      const values = plan.stored.flatMap((e) => (e.kind === 'create' ? Object.values(e.values) : e.kind === 'modify' ? Object.values(e.set) : []));
      if (fileRidsIn(values).length > 0) return undefined;
      // Built before the commit: after it, nothing may fail and hand the request back.
      const answer =
        mode === 'VALIDATE_ONLY' || returnEdits === 'NONE'
          ? { validation }
          : { validation, edits: editsWire(plan.wire, returnEdits === 'ALL_V2_WITH_DELETIONS') };
      const problem = await commit(deps.store, ontology, plan, mode === 'VALIDATE_ONLY');
      return problem === undefined ? answer : undefined;
    },
  };
}
