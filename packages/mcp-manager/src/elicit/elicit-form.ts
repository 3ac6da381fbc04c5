// A server's elicitation form read into fields a prompter can lay out, and the user's answers
// checked against the form before anything is sent. Written here rather than handed to a JSON
// Schema validator: the form language is a small closed set (flat primitives and enums, SEP-1330),
// the messages must name fields as the user saw them, and every string must be cleaned on the way
// in and mapped back to the server's own on the way out.
import { isRecord } from '@garuda/internal';
import type {
  ElicitChoiceShape,
  ElicitField,
  ElicitFieldKind,
  ElicitOption,
  ElicitValue,
  ElicitValues,
} from './elicit-types.js';
import { noticeText, oneLine } from '../common/text.js';

/** The most fields a form may have; a longer form is declined. */
export const MAX_ELICIT_FIELDS = 50;

/** The most options of one choice; a field with more is declined with its form. */
const MAX_OPTIONS = 200;
const MAX_LABEL_CHARS = 200;
const MAX_DESCRIPTION_CHARS = 1000;
/** The longest text answer sent, whatever the schema allows. */
const MAX_TEXT_ANSWER = 10_000;

/** One field and how its cleaned name and option values map back to the server's. */
interface FieldPlan {
  readonly field: ElicitField;
  readonly key: string;
  /** Cleaned option value → the server's value. */
  readonly options?: ReadonlyMap<string, string>;
}

/** A form ready to ask: its fields, and what maps answers back. @internal */
export interface FormPlan {
  readonly fields: readonly ElicitField[];
  readonly byName: ReadonlyMap<string, FieldPlan>;
}

type Read<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

function label(text: unknown, fallback: string): string {
  const line = typeof text === 'string' ? oneLine(text, MAX_LABEL_CHARS) : '';
  return line === '' ? fallback : line;
}

function bound(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function count(value: unknown): number | undefined {
  const n = bound(value);
  return n !== undefined && Number.isInteger(n) && n >= 0 ? n : undefined;
}

/** A choice's options, how the server wrote them, and the cleaned value → the server's. */
interface Options {
  readonly options: ElicitOption[];
  readonly shape: ElicitChoiceShape;
  readonly map: Map<string, string>;
}

/**
 * Options from `enum` (+ legacy `enumNames`) or `oneOf`/`anyOf` of `{ const, title }`, and which
 * of those shapes the server used: it is kept so that a form passed on keeps it.
 */
function readOptions(values: unknown, titled: unknown, names: unknown): Read<Options> {
  const raw: { value: string; title?: unknown }[] = [];
  let shape: ElicitChoiceShape = 'titled';
  if (Array.isArray(values)) {
    shape = Array.isArray(names) ? 'enumNames' : 'untitled';
    values.forEach((value, i) => {
      if (typeof value === 'string') {
        raw.push({ value, title: Array.isArray(names) ? names[i] : undefined });
      }
    });
  } else if (Array.isArray(titled)) {
    for (const item of titled) {
      if (isRecord(item) && typeof item.const === 'string') {
        raw.push({ value: item.const, title: item.title });
      }
    }
  }
  if (raw.length === 0) return { ok: false, reason: 'a choice without options' };
  if (raw.length > MAX_OPTIONS) {
    return { ok: false, reason: `a choice with more than ${MAX_OPTIONS} options` };
  }
  const options: ElicitOption[] = [];
  const map = new Map<string, string>();
  for (const { value, title } of raw) {
    const shown = oneLine(value, MAX_LABEL_CHARS);
    if (map.has(shown)) {
      if (map.get(shown) === value) continue;
      return { ok: false, reason: 'two options that look the same' };
    }
    map.set(shown, value);
    options.push({ value: shown, label: label(title, shown) });
  }
  return { ok: true, value: { options, shape, map } };
}

function readKind(
  schema: Record<string, unknown>,
): Read<{ kind: ElicitFieldKind; map?: Map<string, string> }> {
  const { type } = schema;
  if (type === 'string' && (schema.enum !== undefined || schema.oneOf !== undefined)) {
    const read = readOptions(schema.enum, schema.oneOf, schema.enumNames);
    if (!read.ok) return read;
    return {
      ok: true,
      value: {
        kind: { kind: 'choice', options: read.value.options, shape: read.value.shape },
        map: read.value.map,
      },
    };
  }
  if (type === 'string') {
    const format = schema.format;
    const formats = ['email', 'uri', 'date', 'date-time'] as const;
    const known = formats.find((name) => name === format);
    if (format !== undefined && known === undefined) {
      return {
        ok: false,
        reason: `a text format this client does not know (${oneLine(format, 40)})`,
      };
    }
    const minLength = count(schema.minLength);
    const maxLength = count(schema.maxLength);
    return {
      ok: true,
      value: {
        kind: {
          kind: 'text',
          ...(known === undefined ? {} : { format: known }),
          ...(minLength === undefined ? {} : { minLength }),
          ...(maxLength === undefined ? {} : { maxLength }),
        },
      },
    };
  }
  if (type === 'number' || type === 'integer') {
    const minimum = bound(schema.minimum);
    const maximum = bound(schema.maximum);
    return {
      ok: true,
      value: {
        kind: {
          kind: 'number',
          integer: type === 'integer',
          ...(minimum === undefined ? {} : { minimum }),
          ...(maximum === undefined ? {} : { maximum }),
        },
      },
    };
  }
  if (type === 'boolean') return { ok: true, value: { kind: { kind: 'boolean' } } };
  if (type === 'array' && isRecord(schema.items)) {
    const read = readOptions(schema.items.enum, schema.items.anyOf, undefined);
    if (!read.ok) return read;
    const minItems = count(schema.minItems);
    const maxItems = count(schema.maxItems);
    return {
      ok: true,
      value: {
        kind: {
          kind: 'choices',
          options: read.value.options,
          // No `enumNames` here (none is read for items), so the shape is one of the other two.
          shape: read.value.shape === 'titled' ? 'titled' : 'untitled',
          ...(minItems === undefined ? {} : { minItems }),
          ...(maxItems === undefined ? {} : { maxItems }),
        },
        map: read.value.map,
      },
    };
  }
  return {
    ok: false,
    reason: `a field of a kind forms do not have (${oneLine(String(type), 40)})`,
  };
}

/** The schema's default, in the cleaned form the prompter answers with, when it fits. */
function defaultOf(plan: FieldPlan, raw: unknown): ElicitValue | undefined {
  const back = plan.options === undefined ? undefined : invert(plan.options);
  // A text default is cleaned like everything shown: what the user saw is what is sent.
  let value: unknown =
    plan.field.kind === 'text' && typeof raw === 'string' ? noticeText(raw) : raw;
  if (back !== undefined) {
    if (typeof raw === 'string') value = back.get(raw);
    else if (Array.isArray(raw))
      value = raw.map((item) => (typeof item === 'string' ? back.get(item) : undefined));
  }
  if (value === undefined) return undefined;
  return fieldProblem(plan.field, value) === undefined ? (value as ElicitValue) : undefined;
}

function invert(map: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [shown, value] of map) out.set(value, shown);
  return out;
}

/**
 * Reads a form's `requestedSchema` into fields, in the server's order. A form this client
 * cannot show faithfully (nested objects, unknown kinds, more than {@link MAX_ELICIT_FIELDS}
 * fields, two names that look the same once cleaned) is refused with a reason. @internal
 *
 * @param schema - The `requestedSchema` as the server sent it (untrusted).
 * @returns The plan, or why the form cannot be asked.
 */
export function formFields(schema: unknown): Read<FormPlan> {
  if (!isRecord(schema) || schema.type !== 'object' || !isRecord(schema.properties)) {
    return { ok: false, reason: 'its form has no fields' };
  }
  const entries = Object.entries(schema.properties);
  if (entries.length > MAX_ELICIT_FIELDS) {
    return { ok: false, reason: `its form has more than ${MAX_ELICIT_FIELDS} fields` };
  }
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((k) => typeof k === 'string') : [],
  );
  const fields: ElicitField[] = [];
  const byName = new Map<string, FieldPlan>();
  for (const [key, property] of entries) {
    const name = oneLine(key, 100);
    if (name === '' || byName.has(name) || name !== key.trim()) {
      return {
        ok: false,
        reason: `its form has a field name that cannot be shown as it is (${name})`,
      };
    }
    if (!isRecord(property)) return { ok: false, reason: `its field "${name}" has no schema` };
    const read = readKind(property);
    if (!read.ok) return { ok: false, reason: `its field "${name}" is ${read.reason}` };
    const description =
      typeof property.description === 'string'
        ? oneLine(property.description, MAX_DESCRIPTION_CHARS)
        : '';
    const base: ElicitField = {
      ...read.value.kind,
      name,
      label: label(property.title, name),
      ...(description === '' ? {} : { description }),
      required: required.has(key),
    };
    const draft: FieldPlan = {
      field: base,
      key,
      ...(read.value.map ? { options: read.value.map } : {}),
    };
    const fallback =
      property.default === undefined ? undefined : defaultOf(draft, property.default);
    const field: ElicitField = fallback === undefined ? base : { ...base, default: fallback };
    fields.push(field);
    byName.set(name, { ...draft, field });
  }
  return { ok: true, value: { fields, byName } };
}

/** The answers a form starts with: each field's default, where it has one. @internal */
export function defaultValues(plan: FormPlan): ElicitValues {
  const out: Record<string, ElicitValue> = {};
  for (const field of plan.fields) if (field.default !== undefined) out[field.name] = field.default;
  return out;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/u;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

function validDate(text: string): boolean {
  const match = DATE.exec(text);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

function formatProblem(format: string, text: string): string | undefined {
  switch (format) {
    case 'email':
      return EMAIL.test(text) ? undefined : 'must be an email address';
    case 'uri':
      return URL.canParse(text) ? undefined : 'must be an absolute address (a URI)';
    case 'date':
      return validDate(text) ? undefined : 'must be a date (YYYY-MM-DD)';
    default:
      return DATE_TIME.test(text) && validDate(text.slice(0, 10)) && !Number.isNaN(Date.parse(text))
        ? undefined
        : 'must be a date and time (YYYY-MM-DDTHH:MM:SS with a time zone)';
  }
}

/** What is wrong with one field's answer, or `undefined`. */
function fieldProblem(field: ElicitField, value: unknown): string | undefined {
  switch (field.kind) {
    case 'text': {
      if (typeof value !== 'string') return 'must be text';
      const length = Array.from(value).length;
      if (length > MAX_TEXT_ANSWER) return `must be at most ${MAX_TEXT_ANSWER} characters`;
      if (field.minLength !== undefined && length < field.minLength) {
        return `must be at least ${field.minLength} characters`;
      }
      if (field.maxLength !== undefined && length > field.maxLength) {
        return `must be at most ${field.maxLength} characters`;
      }
      return field.format === undefined ? undefined : formatProblem(field.format, value);
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (field.integer && !Number.isInteger(value)) return 'must be a whole number';
      if (field.minimum !== undefined && value < field.minimum)
        return `must be at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum)
        return `must be at most ${field.maximum}`;
      return undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be yes or no';
    case 'choice':
      return typeof value === 'string' && field.options.some((option) => option.value === value)
        ? undefined
        : 'must be one of its options';
    case 'choices': {
      if (!Array.isArray(value)) return 'must be a list of its options';
      const items: unknown[] = value;
      if (!items.every((item) => field.options.some((option) => option.value === item))) {
        return 'must hold only its options';
      }
      if (new Set(items).size !== items.length) return 'must not hold an option twice';
      if (field.minItems !== undefined && items.length < field.minItems) {
        return `must hold at least ${field.minItems} option${field.minItems === 1 ? '' : 's'}`;
      }
      if (field.maxItems !== undefined && items.length > field.maxItems) {
        return `must hold at most ${field.maxItems} option${field.maxItems === 1 ? '' : 's'}`;
      }
      return undefined;
    }
  }
}

/**
 * What is wrong with a form's answers, one line each, naming fields as the user saw them; empty
 * when they fit. @internal
 *
 * @param plan - The form.
 * @param values - The answers (untrusted: they come from the host's prompter).
 * @returns The problems.
 */
export function answerProblems(plan: FormPlan, values: unknown): string[] {
  if (!isRecord(values)) return ['the answer is not a set of fields'];
  const problems: string[] = [];
  for (const name of Object.keys(values)) {
    if (!plan.byName.has(name)) problems.push(`"${oneLine(name, 100)}" is not a field of the form`);
  }
  for (const field of plan.fields) {
    const value = values[field.name];
    if (value === undefined) {
      if (field.required) problems.push(`"${field.label}" is required`);
      continue;
    }
    const problem = fieldProblem(field, value);
    if (problem !== undefined) problems.push(`"${field.label}" ${problem}`);
  }
  return problems;
}

/**
 * Answers that fit the form, keyed and valued as the server wrote its schema. @internal
 *
 * @param plan - The form.
 * @param values - Answers that {@link answerProblems} found nothing wrong with.
 * @returns The `content` of the elicitation result.
 */
export function wireValues(
  plan: FormPlan,
  values: ElicitValues,
): Record<string, string | number | boolean | string[]> {
  const out: Record<string, string | number | boolean | string[]> = {};
  for (const [name, value] of Object.entries(values)) {
    const field = plan.byName.get(name);
    if (field === undefined) continue;
    const map = field.options;
    if (map !== undefined && typeof value === 'string') out[field.key] = map.get(value) ?? value;
    else if (map !== undefined && Array.isArray(value)) {
      out[field.key] = value.map((item: string) => map.get(item) ?? item);
    } else out[field.key] = typeof value === 'object' ? [...value] : value;
  }
  return out;
}
