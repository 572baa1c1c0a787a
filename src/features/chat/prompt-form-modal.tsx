import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { promptFormMachine } from '../../../machines/prompt-form.machine';
import { shallowEqual } from '../../lib/shallow-equal';
import { Button } from '../../ui/button';
import { Modal } from '../../ui/modal';
import { TextArea } from '../../ui/text-area';
import { TextField } from '../../ui/text-field';

export interface PromptFormModalProps {
  form: ActorRefFrom<typeof promptFormMachine>;
  /** 'Save to Personal Prompt Library', 'New Prompt' or 'Edit Prompt'. */
  title: string;
  onCancel(): void;
}

/** One prompt's text and its comma-separated tags: a thin view of the prompt form machine. */
export function PromptFormModal({ form, title, onCancel }: PromptFormModalProps) {
  const view = useSelector(
    form,
    (s) => ({
      busy: s.hasTag('busy'),
      prompt: s.context.prompt,
      tagsText: s.context.tagsText,
      promptError: s.context.promptError,
      tagsError: s.context.tagsError,
    }),
    shallowEqual,
  );
  const submit = () => form.send({ type: 'form.submit' });
  return (
    <Modal
      isOpen
      onOpenChange={(open) => !open && !view.busy && onCancel()}
      isDismissable={!view.busy}
      title={title}
      size="lg"
      footer={
        <>
          <Button variant="secondary" isDisabled={view.busy} onPress={onCancel}>
            Cancel
          </Button>
          <Button variant="primary" isPending={view.busy} onPress={submit}>
            Save
          </Button>
        </>
      }
    >
      <form
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <TextArea
          label="Prompt"
          isRequired
          rows={6}
          value={view.prompt}
          onChange={(text) => form.send({ type: 'field.prompt', text })}
          errorMessage={view.promptError ?? undefined}
        />
        <TextField
          label="Tags"
          isRequired
          autoFocus
          placeholder="e.g. email, summary"
          description="Separate tags with commas."
          value={view.tagsText}
          onChange={(text) => form.send({ type: 'field.tags', text })}
          errorMessage={view.tagsError ?? undefined}
        />
      </form>
    </Modal>
  );
}
