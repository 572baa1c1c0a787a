import { useRef } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { SYSTEM_PROMPT_MAX_CHARS, SYSTEM_PROMPT_NAME_MAX_LENGTH } from '../../../contract/system-prompts-constants';
import type { RecordEditorMachine } from '../../../machines/record-editor.machine';
import { promptEvents, type ClientChoice, type SystemPromptDraft } from '../../../machines/system-prompts.machine';
import { shallowEqual } from '../../lib/shallow-equal';
import { Button } from '../../ui/button';
import { Modal } from '../../ui/modal';
import { Select } from '../../ui/select';
import { TextArea } from '../../ui/text-area';
import { TextField } from '../../ui/text-field';
import { keyOfScope, scopeItems, scopeOfKey } from './scope-choices';

const FORM_ID = 'system-prompt-form';
const count = (n: number) => n.toLocaleString('en-GB');

/** The create/edit dialog: a thin view of the editor's `editing` and `saving` states. */
export function SystemPromptDialog({ editor, clients }: { editor: ActorRefFrom<RecordEditorMachine>; clients: ClientChoice[] | null }) {
  const state = useSelector(
    editor,
    (s) => ({
      open: s.matches('editing') || s.matches('saving'),
      saving: s.matches('saving'),
      draft: s.context.draft as SystemPromptDraft | null,
      errors: s.context.errors,
    }),
    shallowEqual,
  );
  // The dialog keeps its fields while it closes (the machine has already let go of the draft).
  const lastDraft = useRef(state.draft);
  if (state.draft) lastDraft.current = state.draft;
  const draft = lastDraft.current;
  const creating = !draft?.promptId;
  const cancel = () => editor.send({ type: 'form.cancel' });

  return (
    <Modal
      isOpen={state.open}
      onOpenChange={(open) => !open && !state.saving && cancel()}
      isDismissable={!state.saving}
      title={creating ? 'New System Prompt' : 'Edit System Prompt'}
      size="2xl"
      footer={
        <>
          <Button isDisabled={state.saving} onPress={cancel}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form={FORM_ID} isPending={state.saving}>
            {state.saving ? 'Saving...' : creating ? 'Create Prompt' : 'Save Changes'}
          </Button>
        </>
      }
    >
      {draft && (
        <form
          id={FORM_ID}
          className="space-y-4"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            editor.send({ type: 'form.submit' });
          }}
        >
          <TextField
            label="Name"
            value={draft.name}
            onChange={(text) => editor.send(promptEvents.typeName(text))}
            isRequired
            autoFocus
            isDisabled={state.saving}
            errorMessage={state.errors.name}
            description={`Up to ${SYSTEM_PROMPT_NAME_MAX_LENGTH} characters; only you see it.`}
          />
          <Select
            label="Applies to"
            items={scopeItems(clients)}
            selectedKey={keyOfScope(draft.clientId)}
            onSelectionChange={(key) => editor.send(promptEvents.pickClient(scopeOfKey(key)))}
            isDisabled={state.saving || clients === null}
            description={
              draft.active
                ? 'This prompt is active: moving it to another client (or to everyone) deactivates it.'
                : "A client's active prompt replaces everyone's for that client's people."
            }
          />
          <TextArea
            label="Prompt text"
            value={draft.content}
            onChange={(text) => editor.send(promptEvents.typeContent(text))}
            isRequired
            rows={10}
            isDisabled={state.saving}
            errorMessage={state.errors.content}
            description={`${count(draft.content.trim().length)} / ${count(SYSTEM_PROMPT_MAX_CHARS)} characters. Joins every reply's instructions after the base prompt and before the organisation's global policy.`}
          />
        </form>
      )}
    </Modal>
  );
}
