// A scenario starts what it measures, measures it, stops it, and says what it found.
import type { ScenarioResult } from './report.js';

export interface Scenario {
  name: string;
  title: string;
  run(): Promise<ScenarioResult>;
}

export const ROUTE_MISSING = 'route not available';
