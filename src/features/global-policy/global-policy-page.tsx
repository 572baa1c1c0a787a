import { useEffect } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { useBlocker } from 'react-router-dom';
import { POLICY_MAX_CHARS, POLICY_MAX_WORDS, POLICY_TOO_LONG, POLICY_TOO_MANY_CHARS } from '../../../contract/global-policy-constants';
import { countWords } from '../../../shared/word-count';
import { wordCountLevel } from '../../../machines/policy-editor.machine';
import { groupedNumber } from '../../../shared/grouped-number';
import { policyEditorMachine } from '../../../machines/policy-editor.machine';
import { fetchGlobalPolicy, updateGlobalPolicy } from '../../api/global-policy';
import { shallowEqual } from '../../lib/shallow-equal';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { cx } from '../../ui/cx';
import { ErrorBanner } from '../../ui/error-banner';
import { PageTitle } from '../../ui/page-title';
import { Spinner } from '../../ui/spinner';
import { TextArea } from '../../ui/text-area';
import { useNoticeToasts } from '../../ui/use-notice-toasts';
import { definePolicyEditorActors } from './global-policy-actors';

const machine = policyEditorMachine.provide({ actors: definePolicyEditorActors({ api: { fetchGlobalPolicy, updateGlobalPolicy } }) });

const counterTone = { normal: 'text-gray-600 dark:text-gray-300', near: 'text-amber-700 dark:text-amber-300', over: 'text-red-700 dark:text-red-400' };
const counterNote = { normal: '', near: ' — near the limit', over: ' — over the limit' };

/** /global-policy: the policy prompt every conversation of the organisation obeys. A thin view of the policy editor. */
export default function GlobalPolicyPage() {
  const editor = useActorRef(machine);
  useNoticeToasts(editor);
  const view = useSelector(
    editor,
    (s) => ({
      loading: s.hasTag('loading'),
      loadFailed: s.matches('loadFailed'),
      busy: s.hasTag('busy'),
      unsaved: s.matches('dirty') || s.matches('error'),
      text: s.context.text,
      canSave: s.can({ type: 'policy.save' }),
      canReset: s.can({ type: 'policy.reset' }),
    }),
    shallowEqual,
  );
  // Leaving for another route with unsaved changes waits for the person's answer: the machine decides whether to ask.
  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    if (currentLocation.pathname === nextLocation.pathname || !editor.getSnapshot().can({ type: 'policy.leave' })) return false;
    editor.send({ type: 'policy.leave' });
    return true;
  });
  const confirmingLeave = useSelector(editor, (s) => s.hasTag('confirmingLeave'));
  const unsavedTag = useSelector(editor, (s) => s.hasTag('unsaved'));
  // Closing or reloading the tab: the browser's own question.
  useEffect(() => {
    if (!unsavedTag) return;
    const ask = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [unsavedTag]);
  const stay = () => {
    editor.send({ type: 'policy.stay' });
    blocker.reset?.();
  };
  const leave = () => {
    editor.send({ type: 'policy.discard' });
    blocker.proceed?.();
  };

  const words = countWords(view.text);
  const level = wordCountLevel(words);
  const tooManyChars = view.text.trim().length > POLICY_MAX_CHARS;

  return (
    <div className="mx-auto max-w-4xl space-y-6 p-6 md:p-10">
      <PageTitle description="Every conversation of your organisation follows this policy: the assistant reads it before each answer.">
        Global Policy
      </PageTitle>
      {view.loading && <Spinner label="Loading policy" />}
      {view.loadFailed && (
        <div className="space-y-3">
          <ErrorBanner message="The policy could not be loaded." />
          <Button onPress={() => editor.send({ type: 'policy.retry' })}>Retry</Button>
        </div>
      )}
      {!view.loading && !view.loadFailed && (
        <form
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            editor.send({ type: 'policy.save' });
          }}
        >
          <TextArea
            label="Policy Prompt"
            rows={14}
            value={view.text}
            isDisabled={view.busy}
            placeholder="For example: Answer in British English. Never include customer personal data in answers."
            onChange={(text) => editor.send({ type: 'policy.change', text })}
            errorMessage={level === 'over' ? POLICY_TOO_LONG : tooManyChars ? POLICY_TOO_MANY_CHARS : undefined}
          />
          <div className="flex flex-wrap items-center gap-3">
            <p aria-live="polite" className={cx('flex-1 text-sm', counterTone[level])}>
              {groupedNumber(words)} / {groupedNumber(POLICY_MAX_WORDS)} words{counterNote[level]}
              {view.unsaved && <span className="ml-2 text-gray-700 dark:text-gray-200">· Unsaved changes</span>}
            </p>
            <Button isDisabled={!view.canReset} onPress={() => editor.send({ type: 'policy.reset' })}>
              Reset
            </Button>
            <Button type="submit" variant="primary" isDisabled={!view.canSave && !view.busy} isPending={view.busy}>
              Save Policy
            </Button>
          </div>
        </form>
      )}
      <ConfirmDialog
        isOpen={confirmingLeave}
        onOpenChange={(open) => {
          if (!open) stay();
        }}
        onConfirm={leave}
        title="Discard unsaved changes?"
        message="Your changes to the policy have not been saved. If you leave this page now, they will be lost."
        cancelLabel="Stay on this page"
        confirmLabel="Discard and leave"
      />
    </div>
  );
}
