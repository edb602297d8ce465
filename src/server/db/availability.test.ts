import { describe, expect, it } from 'vitest';
import { createAvailability } from './availability';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A connection-level failure, as pg reports a server that went away. */
const lost = () => new Error('Connection terminated unexpectedly');

/** A probe that answers while `up` (immediately) and otherwise never (the budget ends it). */
function probe() {
  let up = true;
  let calls = 0;
  return {
    run: () => {
      calls++;
      return up ? Promise.resolve() : new Promise<never>(() => {});
    },
    set: (value: boolean) => (up = value),
    calls: () => calls,
  };
}

describe('database availability (decision 041)', () => {
  it('stays up on errors that are not about reaching the database', () => {
    const p = probe();
    const availability = createAvailability({ probe: p.run });
    availability.report(Object.assign(new Error('duplicate key'), { code: '23505' }));
    availability.report(new Error('something else'));
    expect(availability.state()).toBe('up');
    expect(p.calls()).toBe(0);
    availability.stop();
  });

  it('a lost connection on a healthy server costs one probe, never an outage', async () => {
    const p = probe();
    const availability = createAvailability({ probe: p.run });
    availability.report(lost());
    expect(availability.state()).toBe('suspect');
    expect(await availability.settled()).toBe('up');
    expect(p.calls()).toBe(1);
    availability.stop();
  });

  it('goes down when the probe fails too (failing what still waits), probes until the database answers, then up', async () => {
    const p = probe();
    p.set(false);
    const lines: string[] = [];
    let dropped = 0;
    const availability = createAvailability({
      probe: p.run,
      probeBudgetMs: 50,
      intervalMs: 20,
      onDown: () => dropped++,
      log: (_level, message) => lines.push(message),
    });
    availability.report(lost());
    expect(await availability.settled()).toBe('down');
    expect(availability.down()).toBe(true);
    expect(dropped).toBe(1);
    await sleep(200);
    // Still probing, without saying it again or failing anything again.
    expect(p.calls()).toBeGreaterThan(2);
    expect(dropped).toBe(1);
    expect(lines).toEqual(['database unavailable: answering 503 until it is back']);
    p.set(true);
    await sleep(100);
    expect(availability.state()).toBe('up');
    expect(lines.at(-1)).toBe('database available again');
    availability.stop();
  });

  it('a query waiting past stallMs makes the database suspect; a slow query on a healthy server is probed once in a while', async () => {
    const p = probe();
    let oldest: number | undefined = Date.now();
    const availability = createAvailability({ probe: p.run, stallMs: 50, oldestQuery: () => oldest });
    await sleep(120);
    expect(p.calls()).toBe(1);
    expect(availability.state()).toBe('up');
    // The same slow query goes on: no probe on every tick.
    await sleep(200);
    expect(p.calls()).toBe(1);
    oldest = undefined;
    availability.stop();
  });

  it('a silent server: a waiting query alone takes it down within the stall time and the probe budget', async () => {
    const p = probe();
    p.set(false);
    const sent = Date.now();
    const availability = createAvailability({
      probe: p.run,
      stallMs: 50,
      probeBudgetMs: 100,
      intervalMs: 20,
      oldestQuery: () => sent,
    });
    await sleep(300);
    expect(availability.down()).toBe(true);
    availability.stop();
  });
});
