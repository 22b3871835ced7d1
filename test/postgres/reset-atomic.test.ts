// Reset on a shared PostgreSQL store (issue 25): cleared and reseeded in one transaction, so that another
// instance reading throughout sees the state before the reset or after it, never an empty store.
import { describe, expect, it } from 'vitest';
import { instances } from './helpers.js';

const ROUNDS = 10;

describe('reset on PostgreSQL', () => {
  it('never shows another instance an empty store', async () => {
    const [a, b] = await instances(2);
    let resetting = true;
    const seen: string[][] = [];
    const reader = (async () => {
      // Bounded: stops with the resets, and at the latest after 20,000 reads.
      for (let i = 0; resetting && i < 20_000; i++) {
        const res = await fetch(`${b!.url}/_emulate/platform/users`);
        expect(res.status).toBe(200);
        const users = ((await res.json()) as { users: Array<{ username: string }> }).users.map((u) => u.username);
        seen.push(users);
      }
    })();
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const res = await fetch(`${a!.url}/_emulate/platform/reset`, { method: 'POST' });
        expect(res.status).toBe(200);
      }
    } finally {
      resetting = false;
      await reader;
    }
    expect(seen.length).toBeGreaterThan(ROUNDS);
    const withoutAlice = seen.filter((users) => !users.includes('alice'));
    expect(withoutAlice).toEqual([]);
  });
});
