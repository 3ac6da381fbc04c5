// A server asks the user something (elicitation) through the host's prompter: forms of every
// field kind with their defaults (SEP-1034), checked before they are sent; pages to open, through
// the one URL policy and only after a yes. Both revisions: a request on 2025, `input_required` on
// 2026-07-28, through the same prompter.
import { ASKER_DEFAULTS, HOSTILE } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import type {
  ElicitFormRequest,
  ElicitReply,
  ElicitRequest,
  ElicitUrlRequest,
} from '../src/index.js';
import { ScriptedPrompter, fixture, unwrap, useWorkspace } from './support/e2e.js';

const ws = useWorkspace();

// What no cleaned line may hold: escapes and other controls, bidi and invisible characters.
const UNSAFE =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\u{e0000}-\u{e007f}]/u;

/** A prompter that also answers elicitations, with `reply` (a value or a function of the request). */
class AskingPrompter extends ScriptedPrompter {
  readonly asked: ElicitRequest[] = [];
  reply: ElicitReply | ((request: ElicitRequest) => ElicitReply) = { action: 'accept' };

  elicit(request: ElicitRequest): Promise<ElicitReply> {
    this.asked.push(request);
    return Promise.resolve(typeof this.reply === 'function' ? this.reply(request) : this.reply);
  }
}

const ERAS = [
  ['2025 revisions (a request)', { FIXTURE_ERA: 'legacy' }],
  ['2026-07-28 (input_required)', {}],
] as const;

async function start(
  env: Readonly<Record<string, string>>,
  options: { opened?: string[]; openResult?: boolean; timeoutMs?: number } = {},
) {
  const limit = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
  await ws.userServers({ ask: fixture('asker', ws.mark, { env: { ...env }, ...limit }) });
  const prompter = new AskingPrompter();
  const mcp = ws.manager(prompter, {
    openBrowser: (url) => {
      options.opened?.push(url);
      return Promise.resolve(options.openResult ?? true);
    },
  });
  await mcp.start();
  const ask = async (tool: string, args: Record<string, unknown>): Promise<unknown> => {
    const text = unwrap((await mcp.call(`mcp__ask__${tool}`, args)).text);
    expect(text).toMatch(/^answer: /);
    return JSON.parse(text.slice('answer: '.length));
  };
  return { prompter, mcp, ask };
}

describe.each(ERAS)('a form, on the %s', (_era, env) => {
  it('shows every field kind with its defaults, and accepting sends the defaults', async () => {
    const { prompter, ask } = await start(env);
    expect(await ask('ask_form', { form: 'all' })).toEqual({
      action: 'accept',
      content: ASKER_DEFAULTS,
    });
    const request = prompter.asked[0] as ElicitFormRequest;
    expect(request).toMatchObject({
      mode: 'form',
      server: 'ask',
      message: 'Tell us about yourself',
    });
    expect(request.defaults).toEqual(ASKER_DEFAULTS);
    const byName = Object.fromEntries(request.fields.map((field) => [field.name, field]));
    expect(request.fields.map((field) => field.name)).toEqual([
      'name',
      'email',
      'site',
      'birthday',
      'meeting',
      'age',
      'score',
      'subscribe',
      'colour',
      'size',
      'plan',
      'toppings',
      'days',
    ]);
    expect(byName.name).toMatchObject({
      kind: 'text',
      label: 'Your name',
      description: 'Who you are',
      required: true,
      minLength: 1,
      maxLength: 50,
      default: 'Ada',
    });
    expect(byName.email).toMatchObject({ kind: 'text', format: 'email', required: true });
    expect(byName.site).toMatchObject({ kind: 'text', format: 'uri', required: false });
    expect(byName.site?.default).toBeUndefined();
    expect(byName.meeting).toMatchObject({ kind: 'text', format: 'date-time' });
    expect(byName.age).toMatchObject({ kind: 'number', integer: true, minimum: 0, maximum: 150 });
    expect(byName.score).toMatchObject({ kind: 'number', integer: false, default: 0.5 });
    expect(byName.subscribe).toMatchObject({ kind: 'boolean', default: true });
    expect(byName.colour).toMatchObject({
      kind: 'choice',
      options: [
        { value: 'red', label: 'red' },
        { value: 'green', label: 'green' },
        { value: 'blue', label: 'blue' },
      ],
    });
    expect(byName.size).toMatchObject({
      kind: 'choice',
      options: [
        { value: 's', label: 'Small' },
        { value: 'm', label: 'Medium' },
        { value: 'l', label: 'Large' },
      ],
    });
    expect(byName.plan).toMatchObject({
      options: [
        { value: 'a', label: 'Plan A' },
        { value: 'b', label: 'Plan B' },
      ],
    });
    expect(byName.toppings).toMatchObject({ kind: 'choices', minItems: 1, maxItems: 2 });
    expect(byName.days).toMatchObject({
      kind: 'choices',
      options: [
        { value: 'mon', label: 'Monday' },
        { value: 'tue', label: 'Tuesday' },
      ],
    });
    // The prompter can check an answer before it is sent.
    expect(request.check(ASKER_DEFAULTS)).toEqual([]);
    expect(request.check({ ...ASKER_DEFAULTS, age: 151 })).toEqual(['"Age" must be at most 150']);
  });

  it('sends edited answers, and never answers that do not fit the form', async () => {
    const { prompter, ask } = await start(env);
    const edited = {
      ...ASKER_DEFAULTS,
      name: 'Grace',
      site: 'https://example.com/grace',
      meeting: '2026-12-03T10:00:00Z',
      toppings: ['ham', 'olives'],
      plan: 'b',
    };
    prompter.reply = { action: 'accept', values: edited };
    expect(await ask('ask_form', { form: 'all' })).toEqual({ action: 'accept', content: edited });

    prompter.reply = {
      action: 'accept',
      values: {
        ...ASKER_DEFAULTS,
        email: 'not an address',
        age: 12.5,
        birthday: '2026-02-30',
        toppings: ['cheese', 'ham', 'olives'],
        colour: 'purple',
        extra: 'x',
        name: undefined as unknown as string,
      },
    };
    expect(await ask('ask_form', { form: 'all' })).toEqual({ action: 'decline' });
    const notice = prompter.notices.at(-1) ?? '';
    expect(notice).toContain('Your answer to the form of MCP server "ask" was not sent');
    for (const problem of [
      '"Your name" is required',
      '"Email" must be an email address',
      '"Birthday" must be a date (YYYY-MM-DD)',
      '"Age" must be a whole number',
      '"Colour" must be one of its options',
      '"Toppings" must hold at most 2 options',
      '"extra" is not a field of the form',
    ]) {
      expect(notice).toContain(problem);
    }
  });

  it('passes a decline or a cancel on, and a prompter that throws is a cancel', async () => {
    const { prompter, ask } = await start(env);
    prompter.reply = { action: 'decline' };
    expect(await ask('ask_form', { form: 'all' })).toEqual({ action: 'decline' });
    prompter.reply = { action: 'cancel' };
    expect(await ask('ask_form', { form: 'all' })).toEqual({ action: 'cancel' });
    prompter.reply = () => {
      throw new Error('the terminal went away');
    };
    expect(await ask('ask_form', { form: 'all' })).toEqual({ action: 'cancel' });
  });

  it('cleans a hostile form, drops a default that is not an option, maps options back', async () => {
    const { prompter, ask } = await start(env);
    prompter.reply = (request) => {
      const form = request as ElicitFormRequest;
      const pick = form.fields.find((field) => field.name === 'pick');
      const option = pick?.kind === 'choice' ? pick.options[1]?.value : undefined;
      return { action: 'accept', values: { pick: option ?? '' } };
    };
    const answer = (await ask('ask_form', { form: 'hostile' })) as { content: { pick: string } };
    // The server gets its own option back, exactly as it wrote it.
    expect(answer).toEqual({ action: 'accept', content: { pick: `b${HOSTILE.bidi}` } });
    const request = prompter.asked[0] as ElicitFormRequest;
    expect(request.message).not.toMatch(UNSAFE);
    expect(JSON.stringify(request.fields)).not.toMatch(UNSAFE);
    const pick = request.fields.find((field) => field.name === 'pick');
    expect(pick?.default).toBeUndefined();
    expect(request.defaults).not.toHaveProperty('pick');
    const note = request.fields.find((field) => field.name === 'note');
    expect(note?.label).toContain('Note');
    expect(String(note?.default)).not.toMatch(UNSAFE);
  });

  it('declines a form it cannot show faithfully without asking', async () => {
    const { prompter, ask } = await start(env);
    expect(await ask('ask_form', { form: 'badname' })).toEqual({ action: 'decline' });
    expect(prompter.asked).toEqual([]);
    expect(prompter.notices.at(-1)).toMatch(
      /MCP server "ask" asked you to fill in a form, which was declined: its form has a field name that cannot be shown/,
    );
  });
});

it('refuses a nested form before anyone is asked (2025 revisions)', async () => {
  const { prompter, mcp } = await start({ FIXTURE_ERA: 'legacy' });
  const text = unwrap((await mcp.call('mcp__ask__ask_form', { form: 'nested' })).text);
  expect(text).toMatch(/^error -32602: /);
  expect(prompter.asked).toEqual([]);
});

describe.each(ERAS)('a page to open, on the %s', (_era, env) => {
  it('is shown in full and opened only after a yes', async () => {
    const opened: string[] = [];
    const { prompter, ask } = await start(env, { opened });
    const url = 'https://pay.example.com/checkout?order=42';
    prompter.reply = { action: 'decline' };
    expect(await ask('ask_url', { url })).toEqual({ action: 'decline' });
    expect(opened).toEqual([]);
    prompter.reply = { action: 'accept' };
    expect(await ask('ask_url', { url })).toEqual({ action: 'accept' });
    expect(opened).toEqual([url]);
    const request = prompter.asked[1] as ElicitUrlRequest;
    expect(request).toEqual({
      mode: 'url',
      server: 'ask',
      message: 'Please finish on this page',
      url,
      host: 'pay.example.com',
      punycode: false,
      otherDomain: false,
    });
  });

  it('warns of punycode, and says so when the page could not be opened', async () => {
    const opened: string[] = [];
    const { prompter, ask } = await start(env, { opened, openResult: false });
    expect(await ask('ask_url', { url: 'https://xn--pypal-4ve.com/login' })).toEqual({
      action: 'accept',
    });
    expect(prompter.asked[0]).toMatchObject({ punycode: true, host: 'xn--pypal-4ve.com' });
    expect(prompter.notices.at(-1)).toBe(
      'Open this page yourself for MCP server "ask": https://xn--pypal-4ve.com/login',
    );
  });

  it.each([
    ['http://example.com/pay', 'is not https'],
    ['javascript:alert(1)', 'not https'],
    ['file:///etc/passwd', 'not https'],
    ['https://user:pw@example.com/', 'carries a user name or password'],
  ])('declines %s without asking', async (url, words) => {
    const opened: string[] = [];
    const { prompter, ask } = await start(env, { opened });
    expect(await ask('ask_url', { url })).toEqual({ action: 'decline' });
    expect(prompter.asked).toEqual([]);
    expect(opened).toEqual([]);
    expect(prompter.notices.at(-1)).toContain(
      'MCP server "ask" asked you to open a page, which was declined',
    );
    expect(prompter.notices.at(-1)).toContain(words);
  });
});

it('without an elicit member, nothing is declared and a request is refused (2025 revisions)', async () => {
  const { mcp } = await ws.startUserServers({
    ask: fixture('asker', ws.mark, { env: { FIXTURE_ERA: 'legacy' } }),
  });
  const text = unwrap((await mcp.call('mcp__ask__ask_form', { form: 'all' })).text);
  expect(text).toMatch(/^error -32601: Garuda MCP does not offer elicitation/);
});

describe('a call refused until a page is opened (-32042, 2025 revisions)', () => {
  it('asks about the page, opens it after a yes, and the error says to call again', async () => {
    const opened: string[] = [];
    const { prompter, mcp } = await start({ FIXTURE_ERA: 'legacy' }, { opened });
    const url = 'https://auth.example.com/start';
    await expect(mcp.call('mcp__ask__ask_url_first', { url })).rejects.toThrow(
      'MCP server "ask" needs you to finish on a page first (opened): call the tool again once you are done',
    );
    expect(opened).toEqual([url]);
    expect(prompter.asked).toEqual([
      expect.objectContaining({ mode: 'url', url, message: 'Sign in there first' }),
    ]);

    prompter.reply = { action: 'decline' };
    await expect(mcp.call('mcp__ask__ask_url_first', { url })).rejects.toThrow(
      'needs you to finish on a page first, and none was opened',
    );
    // A page the URL policy refuses is never asked about.
    await expect(
      mcp.call('mcp__ask__ask_url_first', { url: 'http://example.com/x' }),
    ).rejects.toThrow('none was opened');
    expect(prompter.asked).toHaveLength(2);
    expect(opened).toEqual([url]);
  });
});

describe.each(ERAS)('the time a call may take, on the %s', (_era, env) => {
  it('does not count while the user answers the form', async () => {
    // The call's limit is 8 s; the person takes 9 s over the form. The rest of the call has the
    // whole 8 s, which a busy machine cannot use up.
    const { prompter, ask } = await start(env, { timeoutMs: 8_000 });
    prompter.reply = () =>
      new Promise<ElicitReply>((resolve) =>
        setTimeout(() => resolve({ action: 'decline' }), 9_000),
      ) as unknown as ElicitReply;
    expect(await ask('ask_form', { form: 'all' })).toEqual({ action: 'decline' });
  });
});
