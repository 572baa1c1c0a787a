import { describe, expect, it } from 'vitest';
import { assign, createActor, fromPromise, setup, waitFor } from 'xstate';
import { formMachine, type FormReported } from '../../machines/form.machine';

/**
 * The form machine run as a child: its outcome reaches the machine that owns the flow (which then navigates,
 * closes or toasts), not only listeners on the form itself.
 */
function ownerOf(submit: (values: { title: string }) => Promise<string>) {
  return setup({
    types: { context: {} as { heard: FormReported[] }, events: {} as FormReported },
    actors: { form: formMachine.provide({ actors: { submit: fromPromise(({ input }) => submit(input as { title: string })) } }) },
  }).createMachine({
    context: { heard: [] },
    invoke: { id: 'form', src: 'form', input: ({ self }) => ({ values: { title: 'Draft' }, parent: self }) },
    on: {
      'form.succeeded': { actions: assign({ heard: ({ context, event }) => [...context.heard, event] }) },
      'form.failed': { actions: assign({ heard: ({ context, event }) => [...context.heard, event] }) },
    },
  });
}

describe('form machine as a child', () => {
  it('tells its owner it succeeded, with the result', async () => {
    const owner = createActor(ownerOf(async (v) => `saved ${v.title}`)).start();
    const form = owner.getSnapshot().children.form!;
    form.send({ type: 'form.change', values: { title: 'Final' } });
    form.send({ type: 'form.submit' });
    const done = await waitFor(owner, (s) => s.context.heard.length > 0);
    expect(done.context.heard).toEqual([{ type: 'form.succeeded', result: 'saved Final' }]);
  });

  it('tells its owner it failed, with the sentence to show', async () => {
    const owner = createActor(
      ownerOf(async () => {
        throw new Error('Failed to rename conversation');
      }),
    ).start();
    owner.getSnapshot().children.form!.send({ type: 'form.submit' });
    const done = await waitFor(owner, (s) => s.context.heard.length > 0);
    expect(done.context.heard).toEqual([{ type: 'form.failed', error: 'Failed to rename conversation' }]);
  });
});
