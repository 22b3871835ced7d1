// A store part: the tables one service brings, for every backend (docs/architecture.md, "One store shape").
// Both factories build the same repository interface; memory's is the reference behaviour, and the contract
// suite runs each part's tests against both. A service reaches its repository with `store.part(PART)`.
import type { Db } from './postgres/db.js';
import type { Migration } from './postgres/migrations.js';

/** Another part's repository of the same store (a repository whose one step spans two parts). */
export type PartLookup = <Other>(part: StorePart<Other>) => Other;

export interface StorePart<Repo> {
  /** Unique across services: names the part's migrations and its repository. */
  name: string;
  /** The in-memory repository; `clear()` forgets everything (a reset). `part` gives another part of the same store. */
  memory(part: PartLookup): Repo & { clear(): void };
  /** The PostgreSQL repository over the shared pool. */
  postgres(db: Db, part: PartLookup): Repo;
  /** The part's own migrations, numbered from 1 within the part; applied in order at open. */
  migrations: readonly Migration[];
  /** Every table holding the part's state, in an order that deletes children before parents (a reset). */
  tables: readonly string[];
}

/** Builds each part's repository once per store and hands it out by its declaration. */
export class PartRegistry {
  private readonly built = new Map<string, unknown>();

  constructor(
    private readonly parts: readonly StorePart<unknown>[],
    private readonly build: (part: StorePart<unknown>, lookup: PartLookup) => unknown,
  ) {}

  get<Repo>(part: StorePart<Repo>): Repo {
    let repo = this.built.get(part.name);
    if (repo === undefined) {
      if (!this.parts.some((p) => p.name === part.name)) throw new Error(`store part "${part.name}" is not in the service list`);
      repo = this.build(part as StorePart<unknown>, (other) => this.get(other));
      this.built.set(part.name, repo);
    }
    return repo as Repo;
  }

  /** The repositories built so far (memory's clear() walks them). */
  values(): unknown[] {
    return [...this.built.values()];
  }
}
