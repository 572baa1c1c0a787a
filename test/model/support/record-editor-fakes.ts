import { expect } from './expect';
import { fromCallback, type Actor, type EventObject } from 'xstate';
import type { Notice } from '../../../machines/notice';
import { recordEditorMachine, type Draft, type RecordEditorMachine } from '../../../machines/record-editor.machine';
import { pendingActor } from './fakes';

/**
 * The record editor with fake actors that record what they were asked (model tests of the editor and of the
 * screens that run on it): the list as a callback actor keeping its input and the events sent to it, `save` and
 * `act` never settling (the path sends their outcome). `reset(actor)` starts a path afresh and records what the
 * actor emits; `expectStep` checks what one step sent to the list and emitted.
 */
export function recordEditorFakes() {
  const rec = { listInputs: [] as unknown[], toList: [] as EventObject[], saves: [] as unknown[], acts: [] as Draft[], emitted: [] as Notice[] };
  let seen = { list: 0, emitted: 0 };
  return {
    rec,
    testMachine: (): RecordEditorMachine =>
      recordEditorMachine.provide({
        actors: {
          list: fromCallback<EventObject, unknown>(({ input, receive }) => {
            rec.listInputs.push(input);
            receive((e) => rec.toList.push(e));
          }) as never,
          save: pendingActor<unknown, unknown>((i) => rec.saves.push(i)),
          act: pendingActor<unknown, Draft>((i) => rec.acts.push(i)),
        },
      }),
    reset(actor: Actor<RecordEditorMachine>) {
      rec.listInputs = [];
      rec.toList = [];
      rec.saves = [];
      rec.acts = [];
      rec.emitted = [];
      seen = { list: 0, emitted: 0 };
      actor.on('*', (ev) => rec.emitted.push(ev as Notice));
    },
    /** The step told the list exactly `list` and emitted exactly `emitted` (since the previous step). */
    expectStep(list: EventObject[], emitted: Notice[]) {
      expect(rec.toList.slice(seen.list)).toEqual(list);
      expect(rec.emitted.slice(seen.emitted)).toEqual(emitted);
      seen = { list: rec.toList.length, emitted: rec.emitted.length };
    },
  };
}

/** What the server may answer an act: done (with `output`), or each of these failures (the paths choose one in `acting`). */
export const actOutcomes = (output: unknown, ...errors: unknown[]) =>
  [
    { type: 'xstate.done.actor.act', output, actorId: 'act' },
    ...errors.map((error) => ({ type: 'xstate.error.actor.act', error, actorId: 'act' })),
  ] as never[];
