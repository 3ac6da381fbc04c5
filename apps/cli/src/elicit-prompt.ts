// What the CLI shows and asks when a server asks the user something (elicitation): a form, with
// its defaults filled in, that the user reviews, edits and sends or declines; or a page to open,
// shown in full with its host highlighted and warnings where it may deceive. Everything in the
// requests has been cleaned by the manager.
import { checkbox, confirm, input, select } from './prompts.js';
import type {
  ElicitField,
  ElicitFormRequest,
  ElicitReply,
  ElicitUrlRequest,
  ElicitValue,
  ElicitValues,
} from '@garuda/mcp-manager';
import type { Colours } from './output.js';

/** How a field's answer is shown (a list joined, an unanswered field as a dash). */
function shown(field: ElicitField, value: ElicitValue | undefined): string {
  if (value === undefined) return '–';
  const label = (v: string) =>
    field.kind === 'choice' || field.kind === 'choices'
      ? (field.options.find((option) => option.value === v)?.label ?? v)
      : v;
  if (Array.isArray(value)) return value.length === 0 ? '(none)' : value.map(label).join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return label(String(value));
}

/** What a field takes, in a few words. */
function kindText(field: ElicitField): string {
  switch (field.kind) {
    case 'text': {
      const bounds =
        field.minLength !== undefined || field.maxLength !== undefined
          ? `, ${field.minLength ?? 0}–${field.maxLength ?? '…'} characters`
          : '';
      return `${field.format ?? 'text'}${bounds}`;
    }
    case 'number': {
      const bounds =
        field.minimum !== undefined || field.maximum !== undefined
          ? ` ${field.minimum ?? '…'}–${field.maximum ?? '…'}`
          : '';
      return `${field.integer ? 'whole number' : 'number'}${bounds}`;
    }
    case 'boolean':
      return 'yes or no';
    case 'choice':
      return `one of: ${field.options.map((option) => option.label).join(', ')}`;
    case 'choices':
      return `any of: ${field.options.map((option) => option.label).join(', ')}`;
  }
}

/** The form, its fields and the answers so far, for stderr. */
export function formatElicitForm(
  request: ElicitFormRequest,
  values: ElicitValues,
  c: Colours,
): string {
  const width = Math.min(24, Math.max(...request.fields.map((field) => field.label.length), 4));
  return [
    c.bold(`MCP server "${request.server}" asks you to fill in a form.`),
    ...(request.message === '' ? [] : request.message.split('\n').map((line) => `  ${line}`)),
    ...request.fields.flatMap((field) => [
      `  ${field.label.padEnd(width)}  ${shown(field, values[field.name])}  ${c.dim(
        `(${kindText(field)}${field.required ? ', required' : ''})`,
      )}`,
      ...(field.description === undefined
        ? []
        : [`  ${''.padEnd(width)}  ${c.dim(field.description)}`]),
    ]),
    c.dim('  The server gets only what you send; nothing is sent if you decline.'),
  ].join('\n');
}

/** The page a server asks to open, the host highlighted, with the warnings it needs. */
export function formatElicitUrl(request: ElicitUrlRequest, c: Colours): string {
  const start = request.url.indexOf('//') + 2;
  const at = request.host === '' ? -1 : request.url.indexOf(request.host, start);
  const url =
    at < 0
      ? request.url
      : `${request.url.slice(0, at)}${c.bold(c.cyan(request.host))}${request.url.slice(at + request.host.length)}`;
  return [
    c.bold(`MCP server "${request.server}" asks you to open a page.`),
    ...(request.message === '' ? [] : request.message.split('\n').map((line) => `  ${line}`)),
    `  ${c.dim('page   ')} ${url}`,
    `  ${c.dim('site   ')} ${request.host}${
      request.serverHost === undefined
        ? ' (the server runs on this computer)'
        : request.otherDomain
          ? ''
          : ` (the server's own site, ${request.serverHost})`
    }`,
    ...(request.punycode
      ? [
          c.yellow(
            `  warning: the site's name is punycode (xn--…): it may imitate a name you know.`,
          ),
        ]
      : []),
    ...(request.otherDomain
      ? [
          c.yellow(
            `  warning: this page is not on the server's domain (${request.serverHost ?? ''}).`,
          ),
        ]
      : []),
    c.dim('  Nothing is fetched unless you say yes; then your browser opens it.'),
  ].join('\n');
}

/** Where inquirer reads and writes, and the signal that cancels a prompt. */
export interface PromptContext {
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
  readonly signal?: AbortSignal;
}

/** Asks one field, starting from its current answer; `undefined` leaves it unanswered. */
async function askField(
  field: ElicitField,
  current: ElicitValue | undefined,
  context: PromptContext,
): Promise<ElicitValue | undefined> {
  const message = `${field.label}${field.required ? '' : ' (optional)'}:`;
  switch (field.kind) {
    case 'boolean':
      return confirm({ message, default: current === true }, context);
    case 'choice': {
      const none = '\u0000none';
      const picked = await select<string>(
        {
          message,
          choices: [
            ...field.options.map((option) => ({ name: option.label, value: option.value })),
            ...(field.required ? [] : [{ name: '(no answer)', value: none }]),
          ],
          ...(typeof current === 'string' ? { default: current } : {}),
        },
        context,
      );
      return picked === none ? undefined : picked;
    }
    case 'choices': {
      const chosen = Array.isArray(current) ? current : [];
      return checkbox<string>(
        {
          message,
          choices: field.options.map((option) => ({
            name: option.label,
            value: option.value,
            checked: chosen.includes(option.value),
          })),
        },
        context,
      );
    }
    case 'number': {
      const text = await input(
        {
          message,
          ...(typeof current === 'number' ? { default: String(current) } : {}),
          validate: (answer) =>
            answer.trim() === '' || Number.isFinite(Number(answer)) ? true : 'a number, please',
        },
        context,
      );
      return text.trim() === '' ? undefined : Number(text);
    }
    case 'text': {
      const text = await input(
        { message, ...(typeof current === 'string' ? { default: current } : {}) },
        context,
      );
      return text === '' ? undefined : text;
    }
  }
}

/**
 * Asks a form on the terminal: the answers start from the defaults; the user sends them, edits
 * them field by field (then sees them again, with what does not fit), or declines.
 *
 * @param request - The form.
 * @param print - Writes to stderr.
 * @param c - Colours for stderr.
 * @param context - inquirer's streams and signal.
 * @returns The reply.
 */
export async function askForm(
  request: ElicitFormRequest,
  print: (text: string) => void,
  c: Colours,
  context: PromptContext,
): Promise<ElicitReply> {
  let values: Record<string, ElicitValue> = { ...request.defaults };
  for (let first = true; ; first = false) {
    if (!first) print(formatElicitForm(request, values, c));
    const problems = request.check(values);
    for (const problem of problems) print(c.yellow(`  ${problem}`));
    const action = await select<'send' | 'edit' | 'decline'>(
      {
        message: problems.length === 0 ? 'Send these answers?' : 'Fix the answers first:',
        choices: [
          ...(problems.length === 0 ? [{ name: 'Send them', value: 'send' as const }] : []),
          { name: 'Edit the answers', value: 'edit' },
          { name: 'Decline (send nothing)', value: 'decline' },
        ],
        default: problems.length === 0 ? 'send' : 'edit',
      },
      context,
    );
    if (action === 'send') return { action: 'accept', values };
    if (action === 'decline') return { action: 'decline' };
    const next: Record<string, ElicitValue> = {};
    for (const field of request.fields) {
      const answer = await askField(field, values[field.name], context);
      if (answer !== undefined) next[field.name] = answer;
    }
    values = next;
  }
}
