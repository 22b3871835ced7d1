// Every scenario, in the order `npm run bench` runs them (the long memory run last).
import type { Scenario } from '../lib/scenario.js';
import { authCodeFlow } from './auth-code-flow.js';
import { badInput } from './bad-input.js';
import { directory } from './directory.js';
import { getCurrent } from './get-current.js';
import { journal } from './journal.js';
import { jobRoundTrip } from './job-round-trip.js';
import { functionCall } from './function-call.js';
import { memory } from './memory.js';
import { postgres } from './postgres.js';
import { pollBurst } from './poll-burst.js';
import { ontology } from './ontology.js';
import { pythonModule } from './python-module.js';
import { reset } from './reset.js';
import { signInPage } from './sign-in-page.js';
import { startup } from './startup.js';
import { tokenEndpoint } from './token-endpoint.js';
import { datasets } from './datasets.js';
import { streams } from './streams.js';
import { streamPipeline } from './stream-pipeline.js';
import { subscriptions } from './subscriptions.js';

export const SCENARIOS: Scenario[] = [
  startup,
  getCurrent,
  tokenEndpoint,
  journal,
  badInput,
  authCodeFlow,
  jobRoundTrip,
  functionCall,
  pollBurst,
  pythonModule,
  reset,
  signInPage,
  ontology,
  directory,
  postgres,
  memory,
  datasets,
  streams,
  streamPipeline,
  subscriptions,
];
