// The OAuth endpoints' form and query decoding reads every input as URLSearchParams (the WHATWG standard) does.
import { describe, expect, it } from 'vitest';
import { RepeatedParameter, singleValued } from '../../src/services/oauth/params.js';

const INPUTS = [
  'grant_type=client_credentials&scope=a+b',
  'grant_type=%E0%A4%A&scope=%',
  'a=%zz&b=%4&c=%41%42%43&d=100%25',
  'name=%C3%A9t%C3%A9&x=%F0%9F%98%80',
  'bad=%C3&worse=%FF%FE&mixed=%E2%82&tail=%E2%82%AC%',
  'eq==a=b&noval&=value&&&plus=%2B+%2b',
  'unicode=é+ü&raw=日本',
  'key%3Dx=v%26w',
  '',
  '&&&',
];

describe('singleValued', () => {
  it.each(INPUTS)('reads %j as URLSearchParams does', (input) => {
    const expected: Record<string, string> = {};
    for (const [name, value] of new URLSearchParams(input)) if (value !== '') expected[name] = value;
    expect({ ...singleValued(input) }).toEqual(expected);
  });

  it('refuses a repeated parameter, even when only its encoding differs', () => {
    expect(() => singleValued('scope=a&scope=b')).toThrow(RepeatedParameter);
    expect(() => singleValued('scope=a&%73cope=b')).toThrow(RepeatedParameter);
  });
});
