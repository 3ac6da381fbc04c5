import { describe, expect, it } from 'vitest';
import {
  answerProblems,
  defaultValues,
  formFields,
  wireValues,
  type FormPlan,
} from './elicit-form.js';
import { sameSite } from './elicitation.js';

function plan(properties: Record<string, unknown>, required: string[] = []): FormPlan {
  const read = formFields({ type: 'object', properties, required });
  if (!read.ok) throw new Error(read.reason);
  return read.value;
}

describe('answerProblems', () => {
  it.each([
    ['email', 'ada@example.com', true],
    ['email', 'ada@example', false],
    ['email', 'a b@example.com', false],
    ['uri', 'https://example.com/x', true],
    ['uri', 'example.com', false],
    ['date', '2024-02-29', true],
    ['date', '2023-02-29', false],
    ['date', '2024-13-01', false],
    ['date-time', '2026-12-03T10:00:00Z', true],
    ['date-time', '2026-12-03T10:00:00.5+01:00', true],
    ['date-time', '2026-12-03T10:00:00', false],
    ['date-time', '2026-12-03 10:00:00Z', false],
  ])('format %s: %s fits: %s', (format, value, fits) => {
    const form = plan({ f: { type: 'string', format, title: 'F' } });
    expect(answerProblems(form, { f: value }).length === 0).toBe(fits);
  });

  it('checks lengths in characters, bounds, whole numbers and choices', () => {
    const form = plan(
      {
        t: { type: 'string', minLength: 2, maxLength: 3 },
        n: { type: 'integer', minimum: 1, maximum: 3 },
        c: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, minItems: 1 },
      },
      ['t'],
    );
    expect(answerProblems(form, { t: '😀😀' })).toEqual([]);
    expect(answerProblems(form, { t: 'a' })).toEqual(['"t" must be at least 2 characters']);
    expect(answerProblems(form, { t: 'abcd', n: 0 })).toEqual([
      '"t" must be at most 3 characters',
      '"n" must be at least 1',
    ]);
    expect(answerProblems(form, { t: 'ab', n: 2.5, c: [] })).toEqual([
      '"n" must be a whole number',
      '"c" must hold at least 1 option',
    ]);
    expect(answerProblems(form, { t: 'ab', c: ['x', 'x'] })).toEqual([
      '"c" must not hold an option twice',
    ]);
    expect(answerProblems(form, { t: 'ab', n: Number.NaN })).toEqual(['"n" must be a number']);
    expect(answerProblems(form, 'yes')).toEqual(['the answer is not a set of fields']);
  });

  it('refuses forms it cannot show: too many fields, unknown kinds and formats, look-alike options', () => {
    const many = Object.fromEntries(
      Array.from({ length: 51 }, (_, i) => [`f${i}`, { type: 'string' }]),
    );
    expect(formFields({ type: 'object', properties: many })).toMatchObject({ ok: false });
    expect(formFields({ type: 'object', properties: { a: { type: 'object' } } })).toMatchObject({
      ok: false,
    });
    expect(
      formFields({ type: 'object', properties: { a: { type: 'string', format: 'ipv4' } } }),
    ).toMatchObject({ ok: false });
    expect(
      formFields({
        type: 'object',
        properties: { a: { type: 'string', enum: ['ok', 'o\u200bk'] } },
      }),
    ).toMatchObject({ ok: false, reason: 'its field "a" is two options that look the same' });
    expect(formFields({ type: 'array' })).toMatchObject({ ok: false });
  });
});

describe('formFields: choices keep the shape the server wrote (SEP-1330) and their defaults', () => {
  const titled = (titles: string[]) =>
    titles.map((title, i) => ({ const: `value${i + 1}`, title }));
  const form = plan({
    untitledSingle: { type: 'string', enum: ['option1', 'option2'], default: 'option2' },
    titledSingle: { type: 'string', oneOf: titled(['First', 'Second']), default: 'value1' },
    legacyEnum: {
      type: 'string',
      enum: ['opt1', 'opt2'],
      enumNames: ['Option \u001b[31mOne', 'Option Two'],
      default: 'opt2',
    },
    untitledMulti: {
      type: 'array',
      items: { type: 'string', enum: ['option1', 'option2'] },
      default: ['option1'],
    },
    titledMulti: { type: 'array', items: { anyOf: titled(['A', 'B']) }, default: ['value2'] },
    name: { type: 'string', default: 'John Doe' },
    age: { type: 'integer', default: 30 },
    score: { type: 'number', default: 95.5 },
    verified: { type: 'boolean', default: true },
  });
  const byName = Object.fromEntries(form.fields.map((field) => [field.name, field]));

  it('untitled, titled and legacy enumNames; single and multiple', () => {
    expect(byName.untitledSingle).toMatchObject({ kind: 'choice', shape: 'untitled' });
    expect(byName.titledSingle).toMatchObject({ kind: 'choice', shape: 'titled' });
    expect(byName.legacyEnum).toMatchObject({
      kind: 'choice',
      shape: 'enumNames',
      // The label is cleaned like every text a server sends.
      options: [
        { value: 'opt1', label: 'Option One' },
        { value: 'opt2', label: 'Option Two' },
      ],
    });
    expect(byName.untitledMulti).toMatchObject({ kind: 'choices', shape: 'untitled' });
    expect(byName.titledMulti).toMatchObject({ kind: 'choices', shape: 'titled' });
  });

  it('every default of SEP-1034 is kept (string, integer, number, boolean, enum)', () => {
    expect(defaultValues(form)).toEqual({
      untitledSingle: 'option2',
      titledSingle: 'value1',
      legacyEnum: 'opt2',
      untitledMulti: ['option1'],
      titledMulti: ['value2'],
      name: 'John Doe',
      age: 30,
      score: 95.5,
      verified: true,
    });
  });

  it('a legacy enumNames choice is answered with the enum value, never its name', () => {
    expect(answerProblems(form, { legacyEnum: 'opt1' })).toEqual([]);
    expect(answerProblems(form, { legacyEnum: 'Option Two' })).toEqual([
      '"legacyEnum" must be one of its options',
    ]);
    expect(answerProblems(form, { titledMulti: ['value1', 'A'] })).toEqual([
      '"titledMulti" must hold only its options',
    ]);
    expect(wireValues(form, { legacyEnum: 'opt1', untitledMulti: ['option2'] })).toEqual({
      legacyEnum: 'opt1',
      untitledMulti: ['option2'],
    });
  });
});

describe('sameSite', () => {
  it.each([
    ['example.com', 'example.com', true],
    ['pay.example.com', 'example.com', true],
    ['example.com', 'mcp.example.com', true],
    ['auth.example.com', 'mcp.example.com', false],
    ['example.com.evil.net', 'example.com', false],
    ['notexample.com', 'example.com', false],
    ['EXAMPLE.com', 'example.COM', true],
  ])('%s beside %s: %s', (host, base, same) => {
    expect(sameSite(host, base)).toBe(same);
  });
});
