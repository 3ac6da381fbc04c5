import { describe, expect, it } from 'vitest';
import { looksSecret, referencedNames } from './secret-names.js';

describe('looksSecret', () => {
  it.each([
    ['GITHUB_TOKEN', true],
    ['github_token', true],
    ['API_KEY', true],
    ['X-Api-Key', true],
    ['DB_PASSWORD', true],
    ['PASSPHRASE', true],
    ['CLIENT_SECRET', true],
    ['AWS_CREDENTIALS', true],
    ['GOOGLE_APPLICATION_CREDENTIALS', true],
    ['PATH', false],
    ['HOME', false],
    ['LOG_LEVEL', false],
    ['Authorization', true],
    ['AUTHOR', false],
    ['TOKE', false],
    ['', false],
  ])('%j → %s', (name, expected) => {
    expect(looksSecret(name)).toBe(expected);
  });
});

describe('referencedNames', () => {
  it.each([
    ['${GITHUB_TOKEN}', ['GITHUB_TOKEN']],
    ['Bearer ${A} and ${B_2} and ${A}', ['A', 'B_2']],
    ['$NAME and $$ and ${} and ${1X} and ${A-B}', []],
    ['literal', []],
    ['${_x}', ['_x']],
  ])('%j → %j', (value, expected) => {
    expect(referencedNames(value)).toEqual(expected);
  });
});
