// A store refused a record because it holds its cap already (docs/contracts.md §8). Thrown by a repository's insert
// when the caller passed a cap; the service turns it into the route's error.
export class StoreFull extends Error {
  constructor(
    /** What is full, in words: "access tokens". */
    readonly what: string,
    readonly max: number,
  ) {
    super(`the store holds its maximum of ${max} ${what}`);
    this.name = 'StoreFull';
  }
}
