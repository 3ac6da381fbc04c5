import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { CallClock } from './call-clock.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

it('counts only while it runs, expires once, and never after stop', () => {
  const expire = vi.fn();
  const clock = new CallClock(1000, expire);
  clock.run();
  vi.advanceTimersByTime(600);
  clock.pause();
  vi.advanceTimersByTime(10_000);
  expect(expire).not.toHaveBeenCalled();
  clock.run();
  clock.run(); // a second run while running changes nothing
  vi.advanceTimersByTime(399);
  expect(expire).not.toHaveBeenCalled();
  vi.advanceTimersByTime(1);
  expect(expire).toHaveBeenCalledTimes(1);
  expect(clock.expired).toBe(true);

  const stopped = vi.fn();
  const other = new CallClock(100, stopped);
  other.run();
  other.stop();
  other.run();
  vi.advanceTimersByTime(1000);
  expect(stopped).not.toHaveBeenCalled();
  expect(other.expired).toBe(false);
});
