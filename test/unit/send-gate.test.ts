import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createWorkGate } from '../../server/services/chat/send-gate';

describe('the send gate', () => {
  it('starts a lone piece of work at once, in the same turn of the event loop', async () => {
    const gate = createWorkGate(2);
    let ran = false;
    const done = gate.run(async () => {
      ran = true;
    });
    expect(ran).toBe(true);
    await done;
  });

  it('starts at most `slots` pieces per turn of the event loop, even when each ends at once (SQLite)', async () => {
    const gate = createWorkGate(2);
    const order: number[] = [];
    // Ten requests read in one turn of the loop, one after the other, each with work that never gives the loop back
    // (a synchronous database's): each has ended (its slot free again) before the next request is read.
    const all: Promise<void>[] = [];
    for (let i = 0; i < 10; i++) {
      all.push(gate.run(async () => void order.push(i)));
      for (let tick = 0; tick < 5; tick++) await Promise.resolve();
    }
    expect(order).toEqual([0, 1]);
    await nextTurn();
    expect(order).toEqual([0, 1, 2, 3]);
    await Promise.all(all);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('lets urgent work (a send under way, a reply ending) in before new work', async () => {
    const gate = createWorkGate(1);
    const order: string[] = [];
    const first = gate.run(async () => void order.push('first'));
    const later = [gate.run(async () => void order.push('new 1')), gate.run(async () => void order.push('new 2'))];
    const urgent = gate.run(async () => void order.push('urgent'), true);
    await Promise.all([first, ...later, urgent]);
    expect(order).toEqual(['first', 'urgent', 'new 1', 'new 2']);
  });

  it('never runs more than `slots` at once, and goes on after a piece fails', async () => {
    const gate = createWorkGate(3);
    let running = 0;
    let most = 0;
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        gate.run(async () => {
          most = Math.max(most, ++running);
          await new Promise((r) => setTimeout(r, 1));
          running--;
          if (i === 5) throw new Error('boom');
          return i;
        }),
      ),
    );
    expect(most).toBe(3);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(19);
    expect(results[5]).toMatchObject({ status: 'rejected' });
  });
});
