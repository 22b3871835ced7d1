// Actions (docs/contracts.md §9): apply and applyBatch, scope api:ontologies-write.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findOntology, WRITE, type OntologyDeps } from '../context.js';
import { actionTypeNotFound, actionValidationFailed, invalidRequest, notSupported } from '../errors.js';
import { isRecord } from '../model/data-types.js';
import { commit, failed, validate, whyInvalid, type Validation } from './apply.js';
import { quote } from '../../../errors.js';
import { names } from '../reasons.js';
import { editsWire, planEdits, type PlannedEdits } from './edits.js';
import { functionQueryResolverOf } from '../queries/function-resolver.js';
import { clientGone } from '../../../http/client-gone.js';
import { applyLane } from './lane.js';

const BASE = '/api/v2/ontologies/:ontology/actions/:actionType';
const MODES = ['VALIDATE_ONLY', 'VALIDATE_AND_EXECUTE'];
const RETURN_EDITS = ['NONE', 'ALL', 'ALL_V2_WITH_DELETIONS'];

export function actionRoutes(app: FastifyInstance, deps: OntologyDeps): void {
  const resolve = async (request: FastifyRequest) => {
    const p = request.params as { ontology: string; actionType: string };
    const ontology = await findOntology(deps.store, p.ontology);
    const action = ontology.actionTypes.get(p.actionType);
    if (!action)
      throw actionTypeNotFound(p.actionType).because(
        `Ontology ${ontology.apiName} has no action type ${quote(p.actionType)}; its action types are ${names(ontology.actionTypes.keys())}.`,
      );
    const body = request.body;
    if (!isRecord(body)) throw invalidRequest('body', 'must be a JSON object');
    const options = body.options === undefined ? {} : body.options;
    if (!isRecord(options)) throw invalidRequest('options', 'must be an object');
    const mode = options.mode ?? 'VALIDATE_AND_EXECUTE';
    const returnEdits = options.returnEdits ?? 'NONE';
    if (!MODES.includes(String(mode)))
      throw notSupported('options.mode', String(mode)).because(
        `options.mode ${quote(String(mode))} is not one the emulator knows; it takes ${MODES.join(' or ')}.`,
      );
    if (!RETURN_EDITS.includes(String(returnEdits)))
      throw notSupported('options.returnEdits', String(returnEdits)).because(
        `options.returnEdits ${quote(String(returnEdits))} is not one the emulator knows; it takes ${RETURN_EDITS.join(', ')}.`,
      );
    return { ontology, action, body, mode, returnEdits };
  };
  const parametersOf = (v: unknown, field: string): Record<string, unknown> => {
    if (v === undefined) return {};
    if (!isRecord(v)) throw invalidRequest(field, 'must be an object');
    return v;
  };

  // A clean apply is answered in front of the framework (lane.ts); everything else comes here.
  app.addFastLane(applyLane(`${BASE}/apply`, WRITE.auth.scope, deps));
  app.post(`${BASE}/apply`, { config: WRITE }, async (request, reply) => {
    const { ontology, action, body, mode, returnEdits } = await resolve(request);
    const given = parametersOf(body.parameters, 'parameters');
    const { validation, plan: declared } = await validate(deps.store, ontology, action, given);
    // INVALID is a 200 (the SDK's shape), not a refusal: the journal entry still says why, as a note.
    const invalid = (v: Validation) => {
      request.journalNote = `Action ${action.apiName} is not valid: ${whyInvalid(v)}; nothing was changed.`;
      return { validation: v };
    };
    if (!declared) return invalid(validation);
    let plan = declared;
    // A function-backed action (queries/function-resolver.ts): VALIDATE_ONLY runs nothing; else the edits the
    // function returns, checked against the ontology, are applied like seed edits.
    if (action.function !== undefined && mode !== 'VALIDATE_ONLY') {
      const resolver = functionQueryResolverOf(deps.store);
      if (!resolver) throw notSupported('action function', action.function);
      const edits = await resolver.actionEdits(ontology, action.apiName, action.function, given, clientGone(reply));
      request.journalNote = edits.note;
      plan = await planEdits(deps.store, ontology, { ...action, edits: edits.templates }, edits.literals);
      if (plan.failure) return invalid(failed(validation, plan.failure));
    }
    const problem = await commit(deps.store, ontology, plan, mode === 'VALIDATE_ONLY');
    if (problem) return invalid(failed(validation, problem));
    if (mode === 'VALIDATE_ONLY' || returnEdits === 'NONE') return { validation };
    return { validation, edits: editsWire(plan.wire, returnEdits === 'ALL_V2_WITH_DELETIONS') };
  });

  // Every request is validated first; one invalid request fails the batch (ActionValidationFailed) and
  // nothing is applied. The edits of all requests are applied together.
  app.post(`${BASE}/applyBatch`, { config: WRITE }, async (request) => {
    const { ontology, action, body, returnEdits } = await resolve(request);
    if (!Array.isArray(body.requests)) throw invalidRequest('requests', 'must be a list of {parameters}');
    if (action.function !== undefined) throw notSupported('applyBatch of a function-backed action', action.apiName);
    const plans: PlannedEdits[] = [];
    for (const [i, r] of body.requests.entries()) {
      if (!isRecord(r)) throw invalidRequest(`requests[${i}]`, 'must be an object');
      const { validation, plan } = await validate(deps.store, ontology, action, parametersOf(r.parameters, `requests[${i}].parameters`));
      if (!plan)
        throw actionValidationFailed(action.apiName).because(
          `Request ${i} of the batch of ${action.apiName} is not valid: ${whyInvalid(validation)}; nothing was applied.`,
        );
      plans.push(plan);
    }
    const all: PlannedEdits = { stored: plans.flatMap((p) => p.stored), wire: plans.flatMap((p) => p.wire) };
    const problem = await commit(deps.store, ontology, all, false);
    if (problem)
      throw actionValidationFailed(action.apiName).because(
        `The edits of the batch of ${action.apiName} cannot apply together: ${problem}; nothing was applied.`,
      );
    return returnEdits === 'NONE' ? {} : { edits: editsWire(all.wire, true) };
  });
}
