import { fromCallback, type Actor, type EventObject } from 'xstate';
import type { Notice } from '../../../machines/notice';
import { recordEditorMachine, type Draft, type RecordEditorMachine } from '../../../machines/record-editor.machine';
import { pendingActor } from './fakes';

/**
 * The record editor with fake actors that record what they were asked (model tests of the editor and of the
 * screens that run on it): the list as a callback actor keeping its input and the events sent to it, `save` and
 * `remove` never settling (the path sends their outcome). `reset(actor)` starts a path afresh and records what the
 * actor emits; `fresh()` gives what arrived since the previous call.
 */
export function recordEditorFakes() {
  const rec = { listInputs: [] as unknown[], toList: [] as EventObject[], saves: [] as unknown[], removals: [] as Draft[], emitted: [] as Notice[] };
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
          remove: pendingActor<unknown, Draft>((i) => rec.removals.push(i)),
        },
      }),
    reset(actor: Actor<RecordEditorMachine>) {
      rec.listInputs = [];
      rec.toList = [];
      rec.saves = [];
      rec.removals = [];
      rec.emitted = [];
      seen = { list: 0, emitted: 0 };
      actor.on('*', (ev) => rec.emitted.push(ev as Notice));
    },
    /** The events sent to the list and emitted since the previous call. */
    fresh() {
      const out = { list: rec.toList.slice(seen.list), emitted: rec.emitted.slice(seen.emitted) };
      seen = { list: rec.toList.length, emitted: rec.emitted.length };
      return out;
    },
  };
}
