// Global setup of the PostgreSQL pass: the server must answer (scripts/pg-test.ts checked it before starting
// vitest), and every throwaway schema the tests made is dropped at the end.
import { dropTestSchemas, reachable } from '../helpers/store.js';

export default async function setup(): Promise<() => Promise<void>> {
  const url = process.env.TEST_STORE;
  if (!url || !(await reachable(url))) throw new Error('TEST_STORE must name a reachable PostgreSQL database for this pass');
  return () => dropTestSchemas(url);
}
