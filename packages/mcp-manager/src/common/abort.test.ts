import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { QuestionQueue, linkSignals, raceAbort, within } from './abort.js';

describe('QuestionQueue', () => {
  it('asks one question at a time, in order', async () => {
    const queue = new QuestionQueue();
    const log: string[] = [];
    let open = 0;
    const ask = (name: string, ms: number) =>
      queue.ask(async () => {
        open += 1;
        expect(open).toBe(1);
        log.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, ms));
        log.push(`end ${name}`);
        open -= 1;
        return name;
      }, undefined);
    expect(await Promise.all([ask('a', 30), ask('b', 5), ask('c', 1)])).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('drops a question whose signal aborts while it waits, and goes on with the next', async () => {
    const queue = new QuestionQueue();
    const asked: string[] = [];
    let release: () => void = () => {};
    const first = queue.ask(() => {
      asked.push('first');
      return new Promise<string>((resolve) => {
        release = () => resolve('first');
      });
    }, undefined);
    const controller = new AbortController();
    const second = queue.ask(() => {
      asked.push('second');
      return Promise.resolve('second');
    }, controller.signal);
    const third = queue.ask(() => {
      asked.push('third');
      return Promise.resolve('third');
    }, undefined);
    controller.abort(new Error('cancelled'));
    await expect(second).rejects.toThrow('cancelled');
    release();
    expect(await first).toBe('first');
    expect(await third).toBe('third');
    expect(asked).toEqual(['first', 'third']);
  });

  it('asks a waiting consent or approval before waiting forms', async () => {
    const queue = new QuestionQueue();
    const asked: string[] = [];
    let release: () => void = () => {};
    let opened: () => void = () => {};
    const shown = new Promise<void>((resolve) => (opened = resolve));
    const first = queue.ask(
      () => {
        asked.push('form 1');
        opened();
        return new Promise<void>((resolve) => (release = resolve));
      },
      undefined,
      'form',
    );
    const later = queue.ask(() => Promise.resolve(asked.push('form 2')), undefined, 'form');
    const approval = queue.ask(() => Promise.resolve(asked.push('approval')), undefined);
    await shown;
    release();
    await Promise.all([first, later, approval]);
    expect(asked).toEqual(['form 1', 'approval', 'form 2']);
  });

  it('an open form gives way to a question waiting behind it', async () => {
    const queue = new QuestionQueue({ giveWayMs: 20 });
    let gaveWay: AbortSignal | undefined;
    const open = queue.ask(
      (giveWay) =>
        new Promise<string>((resolve) => {
          giveWay.addEventListener('abort', () => {
            gaveWay = giveWay;
            resolve('form closed');
          });
        }),
      undefined,
      'form',
    );
    const approval = queue.ask(() => Promise.resolve('approved'), undefined);
    expect(await open).toBe('form closed');
    expect(await approval).toBe('approved');
    expect(gaveWay?.aborted).toBe(true);
  });

  it('concurrent: a question open without an answer does not hold the next one', async () => {
    const queue = new QuestionQueue({ concurrent: true });
    let answerFirst: (answer: string) => void = () => {};
    const first = queue.ask(
      () => new Promise<string>((resolve) => (answerFirst = resolve)),
      undefined,
    );
    // Asked and answered while the first still waits for its answer.
    expect(await queue.ask(() => Promise.resolve('second'), undefined)).toBe('second');
    const controller = new AbortController();
    const third = queue.ask(() => new Promise<string>(() => {}), controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(third).rejects.toThrow('cancelled');
    answerFirst('first');
    expect(await first).toBe('first');
  });

  it('a question asked at once is still cancelled by its signal, and the next one is asked', async () => {
    const queue = new QuestionQueue();
    const controller = new AbortController();
    let opened: () => void = () => {};
    const shown = new Promise<void>((resolve) => (opened = resolve));
    const first = queue.ask(() => {
      opened();
      return new Promise<string>(() => {});
    }, controller.signal);
    await shown;
    controller.abort(new Error('cancelled'));
    await expect(first).rejects.toThrow('cancelled');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(await queue.ask(() => Promise.resolve('next'), undefined)).toBe('next');
  });

  it("a question's give-way signal never aborts; a form's does", async () => {
    const queue = new QuestionQueue({ giveWayMs: 5 });
    let formGiveWay: AbortSignal | undefined;
    const form = queue.ask(
      (giveWay) => {
        formGiveWay = giveWay;
        return new Promise<void>((resolve) => giveWay.addEventListener('abort', () => resolve()));
      },
      undefined,
      'form',
    );
    let questionGiveWay: AbortSignal | undefined;
    await queue.ask((giveWay) => {
      questionGiveWay = giveWay;
      return Promise.resolve();
    }, undefined);
    await form;
    expect(formGiveWay?.aborted).toBe(true);
    expect(questionGiveWay?.aborted).toBe(false);
    expect(questionGiveWay).not.toBe(formGiveWay);
  });

  it('a throwing question rejects only itself', async () => {
    const queue = new QuestionQueue();
    const bad = queue.ask(() => {
      throw new Error('prompter bug');
    }, undefined);
    await expect(bad).rejects.toThrow('prompter bug');
    expect(await queue.ask(() => Promise.resolve(1), undefined)).toBe(1);
  });
});

describe('signal helpers', () => {
  it('raceAbort rejects with the reason at once', async () => {
    const controller = new AbortController();
    const never = new Promise(() => {});
    setTimeout(() => controller.abort(new Error('stop')), 5);
    await expect(raceAbort(never, controller.signal)).rejects.toThrow('stop');
  });

  it('raceAbort lets go of the signal once the work settles, either way', async () => {
    const controller = new AbortController();
    expect(await raceAbort(Promise.resolve('done'), controller.signal)).toBe('done');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    await expect(raceAbort(Promise.reject(new Error('failed')), controller.signal)).rejects.toThrow(
      'failed',
    );
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('within gives up waiting after the bound', async () => {
    expect(await within(new Promise(() => {}), 10)).toBe(false);
    expect(await within(Promise.reject(new Error('x')), 10)).toBe(true);
  });

  it('linkSignals follows every signal and detaches', () => {
    const a = new AbortController();
    const b = new AbortController();
    const { controller, detach } = linkSignals(a.signal, undefined, b.signal);
    b.abort('why');
    expect(controller.signal.reason).toBe('why');
    const again = linkSignals(a.signal);
    again.detach();
    a.abort();
    expect(again.controller.signal.aborted).toBe(false);
    detach();
  });
});
