// How one value becomes a column's value and text (docs/datasets.md, "Table reads"): numbers read strictly (no
// hex, no blank as 0, the infinities pandas writes), FLOAT within float32's range and written as its shortest
// text, a LONG never cut from a fraction, and timestamps kept to the microsecond past 2^53 and written cut
// toward the past.
import { describe, expect, it } from 'vitest';
import { columnOf } from '../../src/services/datasets/table/columns.js';
import { fitsDecimal, float32Text } from '../../src/services/datasets/table/cell-rules.js';
import { putMicros, wholeMillis } from '../../src/services/datasets/table/instant-text.js';
import { checkSchema } from '../../src/services/datasets/schema-check.js';
import type { DatasetSchema } from '../../src/services/datasets/model.js';

const column = (type: string) => columnOf({ type, name: 'c', nullable: true }, 'c');
const refusal = (read: () => unknown) => {
  try {
    read();
    return undefined;
  } catch (err) {
    return (err as { reason?: string }).reason ?? (err as Error).message;
  }
};

describe('numbers', () => {
  it('take decimal text and the spellings of NaN and the infinities, and refuse hex, binary, octal and blanks', () => {
    const double = column('DOUBLE');
    expect(['1.5', ' -2e3 ', '.5', '7.', 'nan', 'NaN', 'inf', '-inf', '+Infinity', '-INFINITY'].map((t) => double.fromText(t))).toEqual([
      1.5,
      -2000,
      0.5,
      7,
      NaN,
      NaN,
      Infinity,
      -Infinity,
      Infinity,
      -Infinity,
    ]);
    for (const bad of ['0x10', '0b1', '0o7', ' ', '1,5', 'infinit', '--1'])
      expect(
        refusal(() => double.fromText(bad)),
        bad,
      ).toMatch(/is not a number$/);
    expect(refusal(() => double.check('0x10'))).toBe('"0x10" is not a number');
  });

  it('keep a FLOAT within float32: past its range is refused, not made infinite, and its text is the shortest that reads back', () => {
    const float = column('FLOAT');
    expect(refusal(() => float.fromText('3.5e38'))).toBe('"3.5e38" is not a 32-bit float (out of range)');
    expect(refusal(() => float.fromValue(1e300))).toBe('"1e+300" is not a 32-bit float (out of range)');
    expect(float.fromText('3.4028235e38')).toBe(3.4028234663852886e38);
    expect(float.fromText('1e-50')).toBe(0);
    expect(float.fromText('inf')).toBe(Infinity);
    expect(float.toText(float.fromText('0.1'))).toBe('0.1');
    expect(float.toText(float.fromValue(Math.fround(-1.17549435e-38)))).toBe('-1.1754944e-38');
    for (let i = 0; i < 2000; i++) {
      const x = Math.fround((Math.random() - 0.5) * 10 ** Math.floor(Math.random() * 40 - 20));
      const text = float32Text(x);
      expect(Math.fround(Number(text))).toBe(x);
      expect(text.replace(/^-|e.*$|\./g, '').replace(/^0+|0+$/g, '').length, text).toBeLessThanOrEqual(9);
    }
  });

  it('refuse a LONG from a fraction or from text that is not an integer, naming the value', () => {
    const long = column('LONG');
    expect(long.fromValue(12)).toBe(12n);
    expect(long.fromValue('-9007199254740993')).toBe(-9007199254740993n);
    expect(refusal(() => long.fromValue(1.5))).toBe('"1.5" is not a long integer');
    expect(refusal(() => long.fromValue('abc'))).toBe('"abc" is not a long integer');
    expect(refusal(() => long.fromValue(2 ** 64))).toBe('"18446744073709552000" is not a 64-bit integer');
  });
});

describe('timestamps', () => {
  it('are written cut toward the past: a microsecond before 1970 is 1969', () => {
    const at = column('TIMESTAMP');
    expect(at.toText(-0.001)).toBe('1969-12-31T23:59:59.999Z');
    expect(at.toText(Date.parse('1960-01-01T00:00:00Z') + 0.999)).toBe('1960-01-01T00:00:00.000Z');
    expect(Array.from(wholeMillis([-0.001, 1.9, -0], 3))).toEqual([-1, 1, 0]);
  });

  it('become microseconds exactly, past 2^53 microseconds too', () => {
    const words = new Uint32Array(2);
    const micros = () => new BigInt64Array(words.buffer)[0];
    for (const text of ['9999-12-31T23:59:59.999Z', '2261-12-31T23:59:59.999Z', '0001-01-01T00:00:00.001Z', '1969-12-31T23:59:59.999Z']) {
      const ms = Date.parse(text);
      putMicros(words, 0, ms);
      expect(micros(), text).toBe(BigInt(ms) * 1000n);
    }
    putMicros(words, 0, -0.001);
    expect(micros()).toBe(-1n);
    putMicros(words, 0, 1767225600123.456);
    expect(micros()).toBe(1767225600123456n);
  });
});

describe('schemas', () => {
  const refusedSchema = (fieldSchemaList: unknown[]) => refusal(() => checkSchema({ fieldSchemaList } as DatasetSchema));
  it('refuse a DECIMAL past precision 38 or with a scale above its precision, and a top-level column without a name', () => {
    const decimal = (precision: number, scale: number) => [{ name: 'd', type: 'DECIMAL', nullable: true, precision, scale }];
    expect(refusedSchema(decimal(39, 2))).toBe('DECIMAL field "d" has precision 39; the most is 38');
    expect(refusedSchema(decimal(5, 6))).toBe('DECIMAL field "d" has scale 6 above its precision 5');
    expect(refusedSchema(decimal(38, 38))).toBeUndefined();
    expect(refusedSchema([{ type: 'STRING', nullable: true }])).toBe("column 1's name is missing");
    expect(refusedSchema([{ name: 'a', type: 'STRUCT', nullable: true, subSchemas: [{ type: 'LONG', nullable: true }] }])).toBeUndefined();
  });
});

describe('decimals', () => {
  it('fit their precision and scale once the exponent is applied and zeros that say nothing are dropped', () => {
    const fits = (t: string) => fitsDecimal(t, 5, 2);
    expect(['123.45', '-123.4', '+1.5', '1.', '.5', '0.50000', '00012.3', '1.2345e2', '12345e-2', '0e99', '0.0'].filter((t) => !fits(t))).toEqual([]);
    expect(['1234.5', '123.456', '1e3', '1.5e-3', '123456.789', '1e400', '5e-400', '.', '', '+', 'e5'].filter(fits)).toEqual([]);
    const d = columnOf({ name: 'd', type: 'DECIMAL', nullable: true, precision: 5, scale: 2 }, 'd');
    expect(d.fromText(' 1.50 ')).toBe('1.50');
    expect(refusal(() => d.fromText('123456.789'))).toBe(
      '"123456.789" is not a decimal that fits DECIMAL(5, 2) (at most 3 digits before the point and 2 after)',
    );
    expect(refusal(() => d.fromValue('1000.00'))).toBe('"1000.00" is not a decimal that fits DECIMAL(5, 2) (at most 3 digits before the point and 2 after)');
    expect(columnOf({ name: 'd', type: 'DECIMAL', nullable: true }, 'd').fromText('123456.789')).toBe('123456.789');
  });
});
