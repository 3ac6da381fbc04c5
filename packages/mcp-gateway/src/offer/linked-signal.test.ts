import { describe, expect, it } from 'vitest';
import { linkedSignal } from './linked-signal.js';

describe('linkedSignal', () => {
  it('aborts with the reason of whichever signal aborts first', () => {
    const lasting = new AbortController();
    const brief = new AbortController();
    const linked = linkedSignal(lasting.signal, brief.signal);
    expect(linked.signal.aborted).toBe(false);
    brief.abort(new Error('host cancelled'));
    expect(linked.signal.aborted).toBe(true);
    expect((linked.signal.reason as Error).message).toBe('host cancelled');
    const again = linkedSignal(lasting.signal, new AbortController().signal);
    lasting.abort(new Error('gateway closed'));
    expect((again.signal.reason as Error).message).toBe('gateway closed');
  });

  it('is aborted at once when either signal already is', () => {
    const done = AbortSignal.abort(new Error('gone'));
    expect(linkedSignal(done, new AbortController().signal).signal.aborted).toBe(true);
    expect(linkedSignal(new AbortController().signal, done).signal.aborted).toBe(true);
  });

  it('no longer follows either signal once detached', () => {
    const lasting = new AbortController();
    const brief = new AbortController();
    const linked = linkedSignal(lasting.signal, brief.signal);
    linked.detach();
    lasting.abort(new Error('later'));
    brief.abort(new Error('later'));
    expect(linked.signal.aborted).toBe(false);
  });
});
