// Numbers written as bytes (table/number-text.ts, docs/datasets.md "Parquet to CSV") must be String's text: every
// double writeDouble proves (and writes) is compared with String over kinds of values that need 1 to 17 digits,
// the neighbours of powers of ten and two, random bit patterns, and the fixed notation's ends.
import { describe, expect, it } from 'vitest';
import { digitCount, writeDouble, writeSafeInteger } from '../../src/services/datasets/table/number-text.js';

/** A small deterministic generator, so that a failure is the same on every run. */
function randomOf(seed: number) {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
}

const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);
/** The double `steps` places above (or below, when negative) `value`, for positive finite values. */
function neighbour(value: number, steps: number): number {
  bits[0] = value;
  const low = words[0]! + steps;
  words[0] = low >>> 0;
  words[1] = words[1]! + Math.floor(low / 2 ** 32);
  return bits[0]!;
}

describe('numbers as bytes', () => {
  const out = Buffer.alloc(64);
  /** What writeDouble wrote, or undefined where it left the value to String. */
  const written = (value: number) => {
    const end = writeDouble(out, 0, value);
    return end < 0 ? undefined : out.toString('latin1', 0, end);
  };

  it('writes every double it takes as String does, and takes most', () => {
    const random = randomOf(21);
    const values: number[] = [0, -0, NaN, Infinity, -Infinity, 5e-324, Number.MAX_VALUE, Number.EPSILON, 2 ** 53, 2 ** 53 + 2, 1e21, 1e-7];
    for (let i = 0; i < 30_000; i++) {
      values.push(i / 3, -i / 7, i * 0.1, i * 1e-6, random() * 1e6 - 5e5, random(), Math.round(random() * 1e6) / 100);
      values.push(random() * 10 ** Math.floor(random() * 30 - 10), Number((random() * 1e4).toFixed(Math.floor(random() * 8))));
      words[0] = Math.floor(random() * 2 ** 32);
      words[1] = Math.floor(random() * 2 ** 32);
      values.push(bits[0]!);
    }
    // Powers of ten and of two, and their neighbours: where a decade or a binade (and so the rounding) changes.
    for (let e = -8; e <= 22; e++) for (let step = -40; step <= 40; step++) values.push(neighbour(Number(`1e${e}`), step));
    for (let e = -25; e <= 60; e++) for (let step = -3; step <= 3; step++) values.push(neighbour(2 ** e, step), neighbour(2 ** e / 3, step));
    let taken = 0;
    for (const value of values) {
      const text = written(value);
      if (text === undefined) continue;
      taken++;
      if (text !== String(value)) expect(`${text} for ${String(value)}`).toBe(String(value));
    }
    expect(taken).toBeGreaterThan(values.length * 0.8);
  });

  it('takes values of 15, 16 and 17 digits, integers and zero', () => {
    for (const value of [0.1, 123.456, 1 / 3, 2 / 3, 1.3333333333333333, 333333.3333333333, 1e-6, 0.000123, 42, -42, 2 ** 53, -0, 0]) {
      expect(written(value)).toBe(String(value));
    }
  });

  it('leaves exponent notation, NaN and the infinities to String', () => {
    for (const value of [1e-7, 1.5e-7, 1e21, 1.5e300, 5e-324, NaN, Infinity, -Infinity, 2 ** 53 + 2]) expect(written(value)).toBeUndefined();
  });

  it('writes safe integers as String does', () => {
    const random = randomOf(7);
    for (let i = 0; i < 20_000; i++) {
      const value = Math.floor((random() - 0.5) * 2 * 10 ** Math.floor(random() * 16));
      const end = writeSafeInteger(out, 0, value);
      expect(out.toString('latin1', 0, end)).toBe(String(value));
      expect(digitCount(Math.abs(value))).toBe(String(Math.abs(value)).length);
    }
    for (const value of [0, 9, 10, 99_999_999, 100_000_000, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53]) {
      const end = writeSafeInteger(out, 0, value);
      expect(out.toString('latin1', 0, end)).toBe(String(value));
    }
  });
});
